import { HarnessError } from '../errors';
import { didYouMean } from '../nearest-name';

/**
 * The options of `admission-harness/reporter`, as given in the test runner's config:
 * `reporters: ['default', ['admission-harness/reporter', { threshold: 80, json: 'coverage/admission.json' }]]`.
 * Relative paths are resolved against the runner's root (Jest's `rootDir`, Vitest's `root`).
 */
export interface ReporterOptions {
  /** Writes the merged summary (the `CoverageSummary` JSON) to this file, creating its folders. */
  json?: string;
  /** Writes an HTML report of the merged summary to this file, creating its folders. */
  html?: string;
  /** Fails the run when the coverage is below this percentage (0–100). */
  threshold?: number;
  /**
   * What `threshold` applies to: `each` (the default) every webhook, so one no test touches cannot
   * hide behind well-tested ones; `total` all webhooks' cells together.
   */
  of?: 'each' | 'total';
}

const NAMES = ['json', 'html', 'threshold', 'of'] as const satisfies readonly (keyof ReporterOptions)[];
const OF = ['each', 'total'] as const;

/** A given value as the config would show it (`NaN`, not JSON's `null`). */
const shown = (value: unknown): string => (typeof value === 'number' || value === undefined ? String(value) : (JSON.stringify(value) ?? String(value)));

const fail = (message: string, hint: string): never => {
  throw new HarnessError('USAGE', `admission-harness/reporter: ${message}`, hint);
};

/** The options checked: every name known, every value of its type; the error names the option and the nearest valid spelling. */
export function parseReporterOptions(given: unknown): ReporterOptions {
  if (given === undefined || given === null) return {};
  if (typeof given !== 'object' || Array.isArray(given)) {
    return fail(`options must be an object, got ${shown(given)}`, "e.g. ['admission-harness/reporter', { threshold: 80 }]");
  }
  const raw = given as Record<string, unknown>;
  const unknown = Object.keys(raw).filter((name) => !(NAMES as readonly string[]).includes(name));
  if (unknown.length > 0) {
    fail(
      `unknown option${unknown.length > 1 ? 's' : ''} ${unknown.map((name) => `${JSON.stringify(name)}${didYouMean(name, NAMES)}`).join(', ')}`,
      `the options are ${NAMES.join(', ')}`,
    );
  }
  const options: ReporterOptions = {};
  for (const name of ['json', 'html'] as const) {
    const value = raw[name];
    if (value === undefined) continue;
    if (typeof value !== 'string' || value.trim() === '')
      fail(`option ${name} must be a file path, got ${shown(value)}`, `e.g. { ${name}: 'coverage/admission.${name}' }`);
    options[name] = value as string;
  }
  if (raw.threshold !== undefined) {
    const threshold = raw.threshold;
    if (typeof threshold !== 'number' || !Number.isFinite(threshold) || threshold < 0 || threshold > 100) {
      fail(`option threshold must be a number from 0 to 100, got ${shown(threshold)}`, 'e.g. { threshold: 80 }: a percentage of cells covered');
    }
    options.threshold = threshold as number;
  }
  if (raw.of !== undefined) {
    const of = raw.of;
    if (typeof of !== 'string' || !(OF as readonly string[]).includes(of)) {
      fail(
        `option of must be "each" or "total", got ${shown(of)}${typeof of === 'string' ? didYouMean(of, OF) : ''}`,
        'each: every webhook must reach the threshold; total: all webhooks together',
      );
    }
    if (raw.threshold === undefined) fail('option of is given without threshold, which it qualifies', `e.g. { threshold: 80, of: ${JSON.stringify(of)} }`);
    options.of = of as ReporterOptions['of'];
  }
  return options;
}
