import type { HarnessCallOutcome, WebhookHandle } from '../harness';
import type { Review } from '../review/review';

/** Nearest-rank percentiles of call durations, in milliseconds. */
export interface Percentiles {
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/** A pool of `concurrency` callers taking calls until `samples` have been made. */
export async function sampleCalls(handle: WebhookHandle, review: Review, samples: number, concurrency: number): Promise<HarnessCallOutcome[]> {
  const outcomes: HarnessCallOutcome[] = [];
  let started = 0;
  const caller = async (): Promise<void> => {
    while (started < samples) {
      started++;
      outcomes.push(await handle.call(review));
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, samples) }, caller));
  return outcomes;
}

/** Nearest-rank percentiles: each is a duration actually observed. */
export function percentiles(durations: number[]): Percentiles {
  const sorted = [...durations].sort((a, b) => a - b);
  const at = (p: number): number => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
  return { p50: at(50), p95: at(95), p99: at(99), max: sorted[sorted.length - 1] ?? 0 };
}

/** A call cut off by its deadline (kube-apiserver's `context deadline exceeded`), as the transport marks it. */
export function ranIntoDeadline(outcome: HarnessCallOutcome): boolean {
  return outcome.error?.transport === 'deadline';
}
