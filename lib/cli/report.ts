import type { BatteryReport, ScenarioResult } from '../../scenarios/battery';
import { outcomeDetails } from '../../matchers/describe';

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

/** The human report: grouped by webhook, then scenario; failures show the request and the response. */
export function formatReport(report: BatteryReport, header: string): string {
  const lines = [header, ''];
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
    if (failed.length > 0) lines.push(...outcomeDetails({ ...result.outcome, seed: report.seed }).split('\n').map((l) => `        ${l}`));
  }
  for (const skip of report.skipped) lines.push('', `${skip.webhook}: not exercised — ${skip.reason}`);
  const checkIds = new Set(report.results.flatMap((r) => r.checks.map((c) => c.id)));
  lines.push(
    '',
    `${report.results.length} scenarios, ${checkIds.size} kinds of check · replay with --seed ${report.seed}`,
    `${report.passed} passed, ${report.failed} failed`,
  );
  return lines.join('\n');
}

/** The machine report: stable check ids, one entry per check run. */
export function jsonReport(report: BatteryReport): string {
  return JSON.stringify(
    {
      seed: report.seed,
      passed: report.passed,
      failed: report.failed,
      checks: report.results.flatMap((r) => r.checks),
      skipped: report.skipped,
    },
    null,
    2,
  );
}
