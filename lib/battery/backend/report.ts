/**
 * The report of a battery run against a backend kube-apiserver calls outside admission webhooks
 * (an ImagePolicyWebhook backend, a CRD conversion webhook): scenarios, each with its checks.
 */
export interface BackendCheckResult {
  id: string;
  status: 'pass' | 'fail';
  detail?: string;
}

export interface BackendScenarioResult {
  /** What was exercised: the backend's server URL, or the CustomResourceDefinition. */
  subject: string;
  scenario: string;
  /** One line: what the backend answered, and how long it took. */
  verdict: string;
  durationMs: number;
  checks: BackendCheckResult[];
  /** What was sent and answered, shown under a failed check. */
  details: string[];
}

export interface BackendBatteryReport {
  /** Which battery: `ImagePolicyWebhook` or `conversion`. */
  kind: 'ImagePolicyWebhook' | 'conversion';
  seed: number;
  results: BackendScenarioResult[];
  /** What the backend's author should know that no check decides (e.g. defaultAllow). */
  notes: string[];
  passed: number;
  failed: number;
}

/** Only the checks `only` names (all by default), but those `skip` names. */
export function checkFilter(only?: readonly string[], skip?: readonly string[]): (id: string) => boolean {
  return (id) => (!only || only.includes(id)) && !skip?.includes(id);
}

/** The report, its counts taken from the results. */
export function backendReport(kind: BackendBatteryReport['kind'], seed: number, results: BackendScenarioResult[], notes: string[]): BackendBatteryReport {
  const checks = results.flatMap((r) => r.checks);
  return {
    kind,
    seed,
    results,
    notes,
    passed: checks.filter((c) => c.status === 'pass').length,
    failed: checks.filter((c) => c.status === 'fail').length,
  };
}

/** The human report, in the admission battery's layout: one line per scenario, failures with what was sent and answered. */
export function formatBackendReport(report: BackendBatteryReport, header: string): string {
  const lines = [header, ''];
  let subject = '';
  for (const result of report.results) {
    if (result.subject !== subject) {
      if (subject) lines.push('');
      subject = result.subject;
      lines.push(`${subject} (${report.kind === 'conversion' ? 'conversion webhook' : 'ImagePolicyWebhook backend'})`);
    }
    const failed = result.checks.filter((c) => c.status === 'fail');
    lines.push(`  ${failed.length > 0 ? '✗' : '✓'} ${result.scenario} — ${result.verdict}`);
    for (const check of failed) lines.push(`      ✗ ${check.id}: ${check.detail ?? ''}`);
    if (failed.length > 0) lines.push(...result.details.map((l) => `        ${l}`));
  }
  for (const note of report.notes) lines.push('', `note: ${note}`);
  const kinds = new Set(report.results.flatMap((r) => r.checks.map((c) => c.id)));
  lines.push(
    '',
    `${report.results.length} scenarios run · ${report.passed + report.failed} checks of ${kinds.size} kinds · replay with --seed ${report.seed}`,
    `checks: ${report.passed} passed, ${report.failed} failed`,
  );
  return lines.join('\n');
}

/** The machine report: one entry per check run, a failure with what was sent and answered. */
export function backendJson(report: BackendBatteryReport): Record<string, unknown> {
  return {
    kind: report.kind,
    seed: report.seed,
    passed: report.passed,
    failed: report.failed,
    checks: report.results.flatMap((r) =>
      r.checks.map((c) => ({ ...c, subject: r.subject, scenario: r.scenario, ...(c.status === 'fail' ? { verdict: r.verdict, details: r.details } : {}) })),
    ),
    notes: report.notes,
  };
}
