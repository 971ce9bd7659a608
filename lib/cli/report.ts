import type { BatteryAbort, BatteryReport, ScenarioResult } from '../battery/battery';
import type { PolicyScenarioResult } from '../battery/policy-battery';
import { describeExit } from '../target/command';
import { outcomeDetails, requestSummary } from '../outcome/describe';

const MARK = { pass: '✓', fail: '✗' } as const;

function verdict(result: ScenarioResult): string {
  const o = result.outcome;
  const ms = `${o.durationMs.toFixed(0)} ms`;
  if (o.error) return `call failed · ${ms}`;
  if (o.denial) return `denied ${o.denial.code}: ${o.denial.message} · ${ms}`;
  const patch = o.patch && o.patch.length > 0 ? `, patch of ${o.patch.length} op${o.patch.length === 1 ? '' : 's'}` : '';
  const warnings = o.warnings.length > 0 ? `, ${o.warnings.length} warning${o.warnings.length === 1 ? '' : 's'}` : '';
  return `allowed${patch}${warnings} · ${ms}`;
}

function policyVerdict(result: PolicyScenarioResult): string {
  const { evaluation } = result;
  if (!evaluation.matched) return 'not matched';
  if (evaluation.status) return `denied ${evaluation.status.code}: ${evaluation.status.message}`;
  if (result.kind === 'MutatingAdmissionPolicy') return evaluation.trace.steps.some((step) => step.mutated) ? 'mutated' : 'no change';
  const warnings = evaluation.warnings.length > 0 ? `, ${evaluation.warnings.length} warning${evaluation.warnings.length === 1 ? '' : 's'}` : '';
  return `allowed${warnings}`;
}

/**
 * The human report: grouped by webhook, then scenario; failures show the request and the response. A target
 * process that ended comes first, right under the header: what follows is what ran before it.
 */
export function formatReport(report: BatteryReport, options: { verbose?: boolean }, header: string): string {
  const lines = [header, ''];
  if (report.aborted) lines.push(...abortLines(report.aborted), '');
  let current = '';
  for (const result of report.results) {
    if (result.webhook !== current) {
      if (current) lines.push('');
      current = result.webhook;
      lines.push(`${result.webhook} (${result.type})`);
    }
    const failed = result.checks.filter((c) => c.status === 'fail');
    lines.push(`  ${failed.length > 0 ? MARK.fail : MARK.pass} ${result.scenario} — ${verdict(result)}`);
    for (const check of failed) lines.push(`      ${MARK.fail} ${check.id}: ${check.detail ?? ''}`);
    if (failed.length > 0)
      lines.push(
        ...outcomeDetails({ ...result.outcome, seed: report.seed }, options)
          .split('\n')
          .map((l) => `        ${l}`),
      );
  }
  let currentPolicy = '';
  for (const result of report.policies) {
    if (result.policy !== currentPolicy) {
      if (current || currentPolicy) lines.push('');
      currentPolicy = result.policy;
      lines.push(`${result.kind} ${result.policy}`);
    }
    const failed = result.checks.filter((c) => c.status === 'fail');
    lines.push(`  ${failed.length > 0 ? MARK.fail : MARK.pass} ${result.scenario} — ${policyVerdict(result)}`);
    for (const check of failed) lines.push(`      ${MARK.fail} ${check.id}: ${check.detail ?? ''}`);
    if (failed.length > 0)
      lines.push(
        ...String(result.evaluation.trace)
          .split('\n')
          .map((l) => `        ${l}`),
      );
  }
  for (const skip of report.skipped) lines.push('', `${skip.webhook}: not exercised — ${skip.reason}`);
  if (report.notRun.length > 0) {
    lines.push('', `not run (${report.notRun.length}):`, ...report.notRun.map((n) => `  - ${n.webhook} · ${n.scenario}`));
  }
  const checkIds = new Set([...report.results, ...report.policies].flatMap((r) => r.checks.map((c) => c.id)));
  const checks = report.passed + report.failed;
  const notRun =
    report.notRun.length > 0 ? `, ${report.notRun.length} not run${report.aborted ? ` (the process exited: ${describeExit(report.aborted.exit)})` : ''}` : '';
  lines.push(
    '',
    `${report.results.length + report.policies.length} scenarios run${notRun} · ${checks} checks of ${checkIds.size} kinds · replay with --seed ${report.seed}`,
    `checks: ${report.passed} passed, ${report.failed} failed`,
  );
  return lines.join('\n');
}

/** The one report of a target process that ended mid-run: how, its last stderr lines, where. */
export function abortLines(abort: BatteryAbort): string[] {
  const { exit } = abort;
  return [
    `✗ the webhook process ended (${describeExit(exit)}) during ${abort.webhook} · ${abort.scenario}`,
    `  command: ${exit.command}`,
    ...(exit.stderr.length > 0 ? ['  last lines of its stderr:', ...exit.stderr.map((l) => `    ${l}`)] : ['  it wrote nothing to stderr']),
    '  this scenario and those after it were not run (listed at the end); the checks below ran before the process ended',
  ];
}

/**
 * The machine report: stable check ids, one entry per check run. A failed check carries what a reader
 * needs to see why: the request summary, the URL, the response (or the body), the decoded patch, the error.
 */
export function jsonReport(report: BatteryReport, coverage?: unknown): string {
  const checks = report.results.flatMap((r) =>
    r.checks.map((c) => {
      if (c.status !== 'fail') return c;
      const o = r.outcome;
      return {
        ...c,
        request: requestSummary({ ...o, seed: report.seed }),
        url: o.url,
        ...(o.httpStatus !== undefined ? { httpStatus: o.httpStatus } : {}),
        ...(o.response ? { response: o.response } : o.body !== undefined ? { body: o.body } : {}),
        ...(o.patch ? { patch: o.patch } : {}),
        ...(o.error ? { error: { message: o.error.message, hint: o.error.hint } } : {}),
      };
    }),
  );
  const policyChecks = report.policies.flatMap((r) =>
    r.checks.map((c) =>
      c.status !== 'fail'
        ? c
        : { ...c, request: `${r.evaluation.trace.request}`, ...(r.evaluation.status ? { denial: r.evaluation.status } : {}), errors: r.evaluation.errors },
    ),
  );
  return JSON.stringify(
    {
      // A process that ended is the first thing a reader (or a script) needs: before the checks it cut short.
      ...(report.aborted ? { error: { message: abortLines(report.aborted)[0]?.slice(2), ...report.aborted } } : {}),
      seed: report.seed,
      passed: report.passed,
      failed: report.failed,
      checks: [...checks, ...policyChecks],
      skipped: report.skipped,
      notRun: report.notRun,
      ...(coverage !== undefined ? { coverage } : {}),
    },
    null,
    2,
  );
}
