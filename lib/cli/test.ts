import { runSuiteFile } from '../suite/run';
import type { CaseResult, SuiteReport } from '../suite/model';
import { HarnessError } from '../errors';
import { writeJUnit } from './junit';
import { ensureWritable } from './output-file';
import { targetFromArgs, type TargetArgs } from './target';

export interface TestArgs extends TargetArgs {
  files: string[];
  json: boolean;
  junit?: string;
  /** `--disable-admission-plugins`: built-in plugins every suite's cluster runs without, besides its own. */
  disablePlugins?: string[];
  /** `--enable-admission-plugins`: off-by-default plugins every suite's cluster runs too, besides its own. */
  enablePlugins?: string[];
  /** `--admission-control-config-file`: their AdmissionConfiguration, for every suite. */
  admissionConfigFile?: string;
}

/** `admission-harness test`: runs declarative suite files. Exit 1 when any case fails. */
export async function testCommand(args: TestArgs, out: (text: string) => void): Promise<number> {
  if (args.files.length === 0) throw new HarnessError('USAGE', 'test needs one or more suite files');
  if (args.junit) ensureWritable('--junit', args.junit);
  const target = await targetFromArgs(args, false);
  const reports: SuiteReport[] = [];
  // A file that is not a valid suite fails on its own; the other files still run.
  const invalid: { file: string; message: string }[] = [];
  for (const file of args.files) {
    try {
      reports.push(
        await runSuiteFile(file, {
          ...(target ? { target } : {}),
          ...(args.disablePlugins ? { disablePlugins: args.disablePlugins } : {}),
          ...(args.enablePlugins ? { enablePlugins: args.enablePlugins } : {}),
          ...(args.admissionConfigFile ? { admissionConfigFile: args.admissionConfigFile } : {}),
        }),
      );
    } catch (error) {
      if (!(error instanceof HarnessError)) throw error;
      invalid.push({ file, message: error.message });
    }
  }
  const cases = reports.flatMap((r) => r.cases);
  const count = (verdict: CaseResult['verdict']) => cases.filter((c) => c.verdict === verdict).length;
  const [passed, failed, knownFailures] = [count('passed'), count('failed'), count('known-failure')];
  const failedFiles = invalid.length > 0 ? `, ${invalid.length} invalid file${invalid.length === 1 ? '' : 's'}` : '';
  // A known failure that fails as marked is not a failure of the run; one that passes is (the mark is stale).
  const isKnownFailure = (c: CaseResult): boolean => c.verdict === 'known-failure';
  if (args.junit) {
    writeJUnit(args.junit, [
      ...invalid.map(({ file, message }) => ({ suite: file, name: 'a valid suite file', durationMs: 0, failures: [message] })),
      ...reports.flatMap((r) =>
        r.cases.map((c) => ({
          suite: r.file,
          name: c.name,
          durationMs: c.durationMs,
          failures: isKnownFailure(c) ? [] : c.failures,
          ...(isKnownFailure(c) ? { skipped: `known failure: ${c.knownFailure}` } : {}),
        })),
      ),
    ]);
  }
  if (args.json) {
    const entries = cases.map(({ name, passed: ok, verdict, failures, result, knownFailure }) => ({
      name,
      passed: ok,
      verdict,
      ...(knownFailure !== undefined ? { knownFailure } : {}),
      failures,
      result,
    }));
    out(JSON.stringify({ cases: entries, passed, failed, knownFailures, invalidFiles: invalid }, null, 2));
  } else {
    const lines: string[] = [];
    for (const { file, message } of invalid) lines.push(`${file}`, `  ✗ not a valid suite file:`, ...message.split('\n').map((l) => `      ${l}`));
    for (const report of reports) {
      lines.push(report.file);
      for (const c of report.cases) {
        if (isKnownFailure(c)) {
          // Visible, with why it fails, but not counted: the divergence is known and recorded in the suite.
          lines.push(`  ~ ${c.name} — known failure: ${c.knownFailure}`);
          for (const failure of c.failures.filter((f) => !f.startsWith('trace:'))) lines.push(...failure.split('\n').map((l) => `      ${l}`));
          continue;
        }
        lines.push(`  ${c.passed ? '✓' : '✗'} ${c.name}`);
        for (const failure of c.failures) lines.push(...failure.split('\n').map((l) => `      ${l}`));
      }
    }
    lines.push(
      '',
      `${passed} passed, ${failed + invalid.length} failed${failedFiles}${knownFailures > 0 ? `, ${knownFailures} known failure${knownFailures === 1 ? '' : 's'}` : ''}`,
    );
    out(lines.join('\n'));
  }
  return failed > 0 || invalid.length > 0 ? 1 : 0;
}
