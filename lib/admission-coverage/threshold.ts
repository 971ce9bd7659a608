import { HarnessError } from '../errors';
import type { CoverageSummary, WebhookSummary } from './summary';

export interface ThresholdOptions {
  /**
   * `each` (the default): every webhook must reach the threshold, so a webhook no test touches
   * cannot hide behind well-tested ones. `total`: the cells of all webhooks together, as Jest's
   * global coverageThreshold counts lines.
   */
  of?: 'each' | 'total';
}

function check(percent: number): void {
  if (typeof percent !== 'number' || Number.isNaN(percent) || percent < 0 || percent > 100) {
    throw new HarnessError('USAGE', `coverage threshold ${String(percent)} is not a percentage`, 'give a number from 0 to 100, e.g. meetsThreshold(80)');
  }
}

// The exact ratio, not the rounded `percent`: 2 of 3 cells is below a threshold of 66.67.
const reaches = (covered: number, total: number, percent: number): boolean => total === 0 || covered * 100 >= percent * total;

/** The webhooks below `percent`, in summary order (for a reporter's message). */
export function belowThreshold(summary: CoverageSummary, percent: number): WebhookSummary[] {
  check(percent);
  return summary.webhooks.filter((w) => !reaches(w.covered, w.total, percent));
}

/** Whether the coverage reaches `percent` (0–100), for each webhook or in total. */
export function meetsThreshold(summary: CoverageSummary, percent: number, options: ThresholdOptions = {}): boolean {
  check(percent);
  if (options.of === 'total') return reaches(summary.covered, summary.total, percent);
  return belowThreshold(summary, percent).length === 0;
}
