import { inconclusive, type MatcherContext, type MatcherResult } from './context';
import { changesSection, outcomeDetails, report } from '../lib/outcome/describe';
import { mutationOf, refusal } from '../lib/outcome/mutation';
import { asCallOutcome } from '../lib/outcome/subject';

/**
 * Passes when the webhook allowed the request with a non-empty JSON Patch (`h.call()` only: an
 * admission result merges every webhook's patch). A failed call or a denial fails either way, since
 * kube-apiserver applies no patch then.
 */
export function toHavePatch(this: MatcherContext, received: unknown): MatcherResult {
  const subject = asCallOutcome(received, 'toHavePatch');
  const hint = this.utils.matcherHint('toHavePatch', 'outcome', '', { isNot: this.isNot });
  const refused = refusal(subject);
  if (refused !== undefined)
    return inconclusive(this, () => report(hint, `expected an allowed answer to inspect for a patch, but ${refused}`, outcomeDetails(subject)));
  const patch = subject.patch ?? [];
  const pass = patch.length > 0;
  return {
    pass,
    message: () => {
      if (!pass) {
        const carried = subject.response?.patch ? 'an empty patch' : 'no patch';
        return report(hint, `expected the webhook to answer with a patch, but it answered with ${carried}`, outcomeDetails(subject));
      }
      const mutation = mutationOf(subject);
      const effect = mutation.ok ? changesSection('Changes (request object → patched)', mutation.changes) : `Applying it fails: ${mutation.why}`;
      return report(
        hint,
        `expected the webhook to answer without a patch, but it sent ${patch.length} operation${patch.length === 1 ? '' : 's'}`,
        effect,
        outcomeDetails(subject),
      );
    },
  };
}
