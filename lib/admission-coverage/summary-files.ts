import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { threadId } from 'node:worker_threads';
import type { CoverageSummary } from './summary';
import { HarnessError } from '../errors';

/**
 * The directory each harness leaves its coverage summary in when it closes. The reporter sets it in
 * the test runner's main process before the workers start, so every worker (a process or a thread)
 * inherits it; a harness reads it only in `close()`.
 */
export const COVERAGE_DIR_ENV = 'ADMISSION_HARNESS_COVERAGE_DIR';

// Per module instance, so not unique on its own: Jest gives each test file a fresh module registry in
// the same worker process, and Vitest's threads share one pid. The thread id and the random part make
// the name unique across those; the counter keeps one harness's files in order when read by a person.
let written = 0;

/**
 * Writes `summary` as a new file in `dir` and returns its path. The file appears whole or not at all
 * (written under a dot-name, then renamed in the same directory), so a reader never parses half of it.
 */
export function writeSummaryFile(dir: string, summary: CoverageSummary): string {
  const name = `${process.pid}-${threadId}-${++written}-${randomBytes(4).toString('hex')}.json`;
  const file = path.join(dir, name);
  const temp = path.join(dir, `.${name}.tmp`);
  try {
    writeFileSync(temp, JSON.stringify(summary));
    renameSync(temp, file);
  } catch (error) {
    try {
      rmSync(temp, { force: true });
    } catch {
      // The write's error is the one worth reporting; a temp file left behind is ignored by readers.
    }
    throw new HarnessError(
      'USAGE',
      `cannot write the harness's admission coverage to ${file}: ${(error as Error).message}`,
      `${COVERAGE_DIR_ENV} must name an existing, writable directory (admission-harness/reporter creates one); unset it to write nothing`,
      { cause: error },
    );
  }
  return file;
}

function isSummary(value: unknown): value is CoverageSummary {
  if (!value || typeof value !== 'object') return false;
  const webhooks = (value as { webhooks?: unknown }).webhooks;
  return (
    Array.isArray(webhooks) &&
    webhooks.every((w: unknown) => {
      const webhook = w as Record<string, unknown> | null;
      return (
        !!webhook &&
        typeof webhook.type === 'string' &&
        typeof webhook.configuration === 'string' &&
        typeof webhook.name === 'string' &&
        Array.isArray(webhook.cells) &&
        Array.isArray(webhook.outside)
      );
    })
  );
}

/** Every summary `writeSummaryFile` left in `dir`, in file-name order; a file that is no summary is an error naming it. */
export function readSummaryFiles(dir: string): CoverageSummary[] {
  const names = readdirSync(dir)
    .filter((name) => name.endsWith('.json') && !name.startsWith('.'))
    .sort();
  return names.map((name) => readSummaryFile(path.join(dir, name)));
}

/** One summary file (a harness's, or a whole run's as the reporter's `json` option writes it); anything else is an error naming it. */
export function readSummaryFile(file: string, hint = `only harnesses should write to ${COVERAGE_DIR_ENV}`): CoverageSummary {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new HarnessError('USAGE', `cannot read the admission coverage summary ${file}: ${(error as Error).message}`, hint, { cause: error });
  }
  if (!isSummary(value))
    throw new HarnessError('USAGE', `${file} is not an admission coverage summary (no webhooks with type, configuration, name, cells and outside)`, hint);
  return value;
}
