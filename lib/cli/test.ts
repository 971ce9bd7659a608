import { runSuiteFile } from '../../scenarios/suite/run';
import type { SuiteReport } from '../../scenarios/suite/model';
import { HarnessError } from '../errors';
import { writeJUnit } from './junit';
import { targetFromArgs, type TargetArgs } from './target';

export interface TestArgs extends TargetArgs {
  files: string[];
  json: boolean;
  junit?: string;
}

/** `admission-harness test`: runs declarative suite files. Exit 1 when any case fails. */
export async function testCommand(args: TestArgs, out: (text: string) => void): Promise<number> {
  if (args.files.length === 0) throw new HarnessError('USAGE', 'test needs one or more suite files');
  const target = await targetFromArgs(args, false);
  const reports: SuiteReport[] = [];
  for (const file of args.files) reports.push(await runSuiteFile(file, target ? { target } : {}));
  const cases = reports.flatMap((r) => r.cases);
  const passed = cases.filter((c) => c.passed).length;
  const failed = cases.length - passed;
  if (args.junit) writeJUnit(args.junit, reports.flatMap((r) => r.cases.map((c) => ({ suite: r.file, name: c.name, durationMs: c.durationMs, failures: c.failures }))));
  if (args.json) {
    out(JSON.stringify({ cases: cases.map(({ name, passed: ok, failures, result }) => ({ name, passed: ok, failures, result })), passed, failed }, null, 2));
  } else {
    const lines: string[] = [];
    for (const report of reports) {
      lines.push(report.file);
      for (const c of report.cases) {
        lines.push(`  ${c.passed ? '✓' : '✗'} ${c.name}`);
        for (const failure of c.failures) lines.push(...failure.split('\n').map((l) => `      ${l}`));
      }
    }
    lines.push('', `${passed} passed, ${failed} failed`);
    out(lines.join('\n'));
  }
  return failed > 0 ? 1 : 0;
}
