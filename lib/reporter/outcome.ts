import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { belowThreshold, formatTable, meetsThreshold, mergeSummaries, type CoverageSummary } from '../admission-coverage';
import { webhookLabel } from '../admission-coverage/summary';
import { HarnessError } from '../errors';
import type { HtmlReportModule } from './html';
import type { ReporterOptions } from './options';

/** What a run's coverage comes to: the text to print, and why the run fails, if it does. */
export interface RunOutcome {
  summary: CoverageSummary;
  /** The table, or a line saying no harness recorded anything. */
  text: string;
  /** The threshold's message when it is not met. */
  failure?: string;
}

/** The message that fails the run, one line per webhook below the threshold; undefined when it is met. */
export function thresholdFailure(summary: CoverageSummary, threshold: number, of: ReporterOptions['of'] = 'each'): string | undefined {
  if (summary.webhooks.length === 0) {
    return `admission coverage threshold of ${threshold}% not met: no harness recorded a call or an admission (a harness reports its coverage when it is closed: call h.close() in afterAll)`;
  }
  if (meetsThreshold(summary, threshold, { of })) return undefined;
  const below = belowThreshold(summary, threshold).map((w) => `  ${webhookLabel(w)}: ${w.percent}% (${w.covered}/${w.total} cells)`);
  const head =
    of === 'total'
      ? `admission coverage of all webhooks is ${summary.percent}% (${summary.covered}/${summary.total} cells), below the threshold of ${threshold}%; the webhooks below it:`
      : `admission coverage below the threshold of ${threshold}%:`;
  return [head, ...below].join('\n');
}

function writeReport(option: 'json' | 'html', file: string, text: string): void {
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  } catch (error) {
    throw new HarnessError(
      'USAGE',
      `admission-harness/reporter: option ${option}: cannot write ${file}: ${(error as Error).message}`,
      `name a file in a folder you may write to`,
      { cause: error },
    );
  }
}

/**
 * Merges the summaries of a run's harnesses, writes the files the options ask for (paths relative
 * to `root`) and checks the threshold.
 */
export async function runOutcome(summaries: readonly CoverageSummary[], options: ReporterOptions, root: string, html?: HtmlReportModule): Promise<RunOutcome> {
  const summary = mergeSummaries(summaries);
  if (options.json) writeReport('json', path.resolve(root, options.json), `${JSON.stringify(summary, null, 2)}\n`);
  if (options.html && html) writeReport('html', path.resolve(root, options.html), String(await html.htmlFromCoverage(summary)));
  const text = summary.webhooks.length === 0 ? 'Admission coverage: no harness recorded a call or an admission.' : formatTable(summary);
  const failure = options.threshold === undefined ? undefined : thresholdFailure(summary, options.threshold, options.of);
  return { summary, text, ...(failure ? { failure } : {}) };
}
