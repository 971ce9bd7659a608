import type { ImageReviewOutcome } from '../lib/imagepolicy';
import type { AsymmetricMatcherLike, MatcherContext, MatcherResult } from './context';

function asImageOutcome(received: unknown, matcher: string): ImageReviewOutcome {
  const outcome = received as Partial<ImageReviewOutcome> | null;
  if (!outcome || typeof outcome !== 'object' || typeof outcome.reviewed !== 'boolean' || typeof outcome.fromCache !== 'boolean') {
    throw new Error(
      `${matcher} expects the outcome of h.imageReview(pod | review), got ${typeof received === 'object' ? JSON.stringify(received)?.slice(0, 120) : String(received)}`,
    );
  }
  return outcome as ImageReviewOutcome;
}

/** What the plugin did, for a failure message: the images sent, where the answer came from, the backend's failure. */
function describe(outcome: ImageReviewOutcome): string {
  if (!outcome.reviewed) return `the plugin did not review the request: ${outcome.ignored ?? ''}`;
  const images = (outcome.review?.spec.containers ?? []).map((c) => c.image ?? '').join(', ') || '(no images)';
  const source = outcome.fromCache ? 'answered from the cache' : `${outcome.backendRequests} request(s) to ${outcome.url}`;
  const lines = [`images: ${images}`, source];
  if (outcome.error !== undefined) lines.push(`backend failure: ${outcome.error}${outcome.failedOpen ? ' (allowed by defaultAllow)' : ''}`);
  if (outcome.status?.message) lines.push(`refusal: ${outcome.status.message}`);
  return lines.map((line) => `  ${line}`).join('\n');
}

/**
 * Passes when ImagePolicyWebhook allowed the pod (`h.imageReview()`): the backend (or the cache) said
 * allowed, or the plugin does not review the request. A pod let through a backend failure by
 * defaultAllow does not pass: the backend never allowed it.
 */
export function toBeImageAllowed(this: MatcherContext, received: unknown): MatcherResult {
  const outcome = asImageOutcome(received, 'toBeImageAllowed');
  const pass = outcome.allowed && !outcome.failedOpen;
  const hint = this.utils.matcherHint('toBeImageAllowed', 'outcome', '', { isNot: this.isNot });
  return {
    pass,
    message: () => `${hint}\n\nexpected the image policy ${pass ? 'not to allow' : 'to allow'} the pod\n\n${describe(outcome)}`,
  };
}

/**
 * Passes when ImagePolicyWebhook refused the pod; with `message` (text, RegExp or asymmetric matcher),
 * when the client's Status message matches it, e.g. `pods "web" is forbidden: image policy webhook
 * backend denied one or more images: <reason>`.
 */
export function toBeImageDenied(this: MatcherContext, received: unknown, message?: string | RegExp | AsymmetricMatcherLike): MatcherResult {
  const outcome = asImageOutcome(received, 'toBeImageDenied');
  const text = outcome.status?.message ?? '';
  const matches = message === undefined || (message instanceof RegExp ? message.test(text) : this.equals(text, message));
  const pass = !outcome.allowed && matches;
  const hint = this.utils.matcherHint('toBeImageDenied', 'outcome', message === undefined ? '' : 'message', { isNot: this.isNot });
  return {
    pass,
    message: () => {
      const expected = message === undefined ? '' : ` with ${this.utils.printExpected(message)}`;
      return `${hint}\n\nexpected the image policy ${this.isNot ? 'not ' : ''}to refuse the pod${expected}\n\n${describe(outcome)}`;
    },
  };
}
