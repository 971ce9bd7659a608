import { HarnessError } from '../errors';
import { didYouMean } from '../nearest-name';
import { type BackendBatteryReport, backendJson, formatBackendReport } from '../battery/backend/report';
import type { JUnitCase } from './junit';

/** `--only` / `--skip` ids checked against the battery's own, with the nearest spelling. */
export function assertKnownCheckIds(args: { only?: string[]; skip?: string[] }, known: readonly string[]): void {
  for (const [option, ids] of [
    ['--only', args.only],
    ['--skip', args.skip],
  ] as const) {
    const unknown = (ids ?? []).filter((id) => !known.includes(id));
    if (unknown.length > 0) {
      const named = unknown.map((id) => `${JSON.stringify(id)}${didYouMean(id, known)}`).join(', ');
      throw new HarnessError('USAGE', `${option}: unknown check id ${named}`, `known check ids: ${known.join(', ')}`);
    }
  }
}

/** One JUnit case per check run. */
export function backendJUnitCases(report: BackendBatteryReport): JUnitCase[] {
  return report.results.flatMap((r) =>
    r.checks.map((c) => ({
      suite: `${r.subject} · ${r.scenario}`,
      name: c.id,
      durationMs: r.durationMs,
      failures: c.status === 'fail' ? [c.detail ?? c.id] : [],
    })),
  );
}

/** The report as `check` prints it: text, or JSON alone on stdout. */
export function printBackendReport(report: BackendBatteryReport, json: boolean, header: string): string {
  return json ? JSON.stringify(backendJson(report), null, 2) : formatBackendReport(report, header);
}
