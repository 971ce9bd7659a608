import { statSync } from 'node:fs';
import { readSummaryFile, readSummaryFiles } from '../admission-coverage/summary-files';
import { HarnessError } from '../errors';
import { htmlReportModule } from '../reporter/html';
import type { ReporterOptions } from '../reporter/options';
import { runOutcome } from '../reporter/outcome';

export interface MergeCoverageArgs {
  /** Summary files (a shard's, written by the reporter under Jest's --shard) or folders of them. */
  paths: string[];
  threshold?: number;
  of?: 'each' | 'total';
  json?: string;
  html?: string;
}

const HINT = 'give the files admission-harness/reporter wrote, e.g. coverage/admission.shard-*-of-3.json, or the folder they are in';

function summariesAt(file: string) {
  let directory: boolean;
  try {
    directory = statSync(file).isDirectory();
  } catch (error) {
    throw new HarnessError('USAGE', `merge-coverage: cannot read ${file}: ${(error as Error).message}`, HINT, { cause: error });
  }
  return directory ? readSummaryFiles(file) : [readSummaryFile(file, HINT)];
}

/**
 * `admission-harness merge-coverage`: the coverage summaries of a run's parts (Jest's `--shard` runs,
 * each on its own machine) as one, as the reporter merges its workers': the table, the files asked for
 * and the threshold. Returns the exit code: 1 under the threshold.
 */
export async function mergeCoverageCommand(args: MergeCoverageArgs, out: (text: string) => void): Promise<number> {
  if (args.paths.length === 0) throw new HarnessError('USAGE', 'merge-coverage: no summary file given', HINT);
  const summaries = args.paths.flatMap(summariesAt);
  const options: ReporterOptions = {
    ...(args.json ? { json: args.json } : {}),
    ...(args.html ? { html: args.html } : {}),
    ...(args.threshold !== undefined ? { threshold: args.threshold } : {}),
    ...(args.of ? { of: args.of } : {}),
  };
  const outcome = await runOutcome(summaries, options, process.cwd(), args.html ? htmlReportModule() : undefined);
  out(outcome.text);
  if (!outcome.failure) return 0;
  out(`\n${outcome.failure}`);
  return 1;
}
