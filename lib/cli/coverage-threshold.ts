import { HarnessError } from '../errors';
import { belowThreshold, type CoverageSummary } from '../admission-coverage';

/** `--coverage-threshold P`: a percentage from 0 to 100, checked before anything runs. */
export function parseCoverageThreshold(text: string, option = '--coverage-threshold'): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < 0 || value > 100) {
    throw new HarnessError('USAGE', `${option} takes a percentage from 0 to 100, got ${JSON.stringify(text)}`, `e.g. ${option} 80`);
  }
  return value;
}

/**
 * The lines that fail a run below the threshold, one per webhook under it (each webhook must reach it,
 * so one no request touched cannot hide behind well-covered ones); none when it is met.
 */
export function coverageThresholdFailures(summary: CoverageSummary, threshold: number): string[] {
  const below = belowThreshold(summary, threshold);
  if (below.length === 0) return [];
  return [
    `admission coverage below the threshold of ${threshold}%:`,
    ...below.map((w) => `  ${w.type} ${w.configuration}/${w.name}: ${w.percent}% (${w.covered}/${w.total} cells)`),
  ];
}
