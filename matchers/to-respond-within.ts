import type { HarnessCallOutcome } from '../lib/harness';
import { percentiles, ranIntoDeadline, sampleCalls } from '../lib/outcome/latency';
import type { Review } from '../lib/review/review';
import type { MatcherContext, MatcherResult } from './context';
import { outcomeDetails, report, requestSummary } from '../lib/outcome/describe';
import { asWebhookHandle } from '../lib/outcome/subject';

export interface LatencyOptions {
  /** The request to send on every call. */
  review: Review;
  /** Calls in flight at once; default 4. */
  concurrency?: number;
  /** Calls in all; default 20. */
  samples?: number;
}

/** A budget in real milliseconds, or the webhook's own timeoutSeconds (scaled by the harness's timeScale). */
export type LatencyBudget = number | 'timeoutSeconds';

/**
 * Sends `samples` calls, `concurrency` at a time, and passes when the 99th percentile of their
 * durations is within the budget and none ran into its deadline (which kube-apiserver turns into a
 * calling error, failing the request under failurePolicy Fail). Async:
 * `await expect(h.webhook(name)).toRespondWithin(200, { review })`.
 */
export async function toRespondWithin(this: MatcherContext, received: unknown, budget: LatencyBudget, options: LatencyOptions): Promise<MatcherResult> {
  const handle = asWebhookHandle(received, 'toRespondWithin');
  if (typeof options?.review?.attributes !== 'object') throw new TypeError('toRespondWithin needs the request to send: toRespondWithin(budget, { review })');
  const concurrency = positiveInteger(options.concurrency ?? 4, 'concurrency');
  const samples = positiveInteger(options.samples ?? 20, 'samples');
  if (budget !== 'timeoutSeconds' && !(typeof budget === 'number' && budget > 0))
    throw new TypeError(`toRespondWithin expects a budget in milliseconds or 'timeoutSeconds', got ${String(budget)}`);
  const budgetMs = budget === 'timeoutSeconds' ? handle.timeoutSeconds * handle.timeScale * 1000 : budget;

  const outcomes = await sampleCalls(handle, options.review, samples, concurrency);
  const stats = percentiles(outcomes.map((o) => o.durationMs));
  const timedOut = outcomes.filter(ranIntoDeadline);
  const pass = stats.p99 <= budgetMs && timedOut.length === 0;
  const hint = this.utils.matcherHint('toRespondWithin', 'webhook', 'budget', { isNot: this.isNot });
  const budgetText = budget === 'timeoutSeconds' ? `${ms(budgetMs)} (timeoutSeconds ${handle.timeoutSeconds} × timeScale ${handle.timeScale})` : ms(budgetMs);
  const slowest = outcomes.reduce((a, b) => (b.durationMs > a.durationMs ? b : a));
  return {
    pass,
    message: () => {
      const latency = `Latency:  p50 ${ms(stats.p50)} · p95 ${ms(stats.p95)} · p99 ${ms(stats.p99)} · max ${ms(stats.max)} over ${samples} calls, ${Math.min(concurrency, samples)} in flight\nBudget:   ${budgetText}`;
      const failures = failureSummary(outcomes, timedOut);
      const why = pass
        ? `expected ${handle.name} to exceed ${budgetText} at p99, but p99 was ${ms(stats.p99)} and no call ran into its deadline`
        : `expected ${handle.name} to answer within ${budgetText} at p99, but ${[stats.p99 > budgetMs ? `p99 was ${ms(stats.p99)}` : '', timedOut.length > 0 ? `${timedOut.length} of ${samples} calls ran into their deadline` : ''].filter(Boolean).join(' and ')}`;
      return report(hint, why, `Request:  ${requestSummary(slowest)}\n${latency}`, failures, `Slowest call:\n${indent(outcomeDetails(slowest))}`);
    },
  };
}

function failureSummary(outcomes: readonly HarnessCallOutcome[], timedOut: readonly HarnessCallOutcome[]): string | undefined {
  const failed = outcomes.filter((o) => o.error);
  if (failed.length === 0) return undefined;
  const first = timedOut[0] ?? failed[0];
  const other = failed.length - timedOut.length;
  const counts = [
    timedOut.length > 0 ? `${timedOut.length} ran into their deadline` : '',
    other > 0 ? `${other} failed otherwise (not counted against the budget)` : '',
  ]
    .filter(Boolean)
    .join(', ');
  return `Failures: ${counts}; the first:\n  ${first?.error?.message ?? ''}`;
}

function positiveInteger(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1) throw new TypeError(`toRespondWithin: ${name} must be a positive integer, got ${value}`);
  return value;
}

function ms(value: number): string {
  return `${value.toFixed(1)} ms`;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
}
