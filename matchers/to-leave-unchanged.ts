import { inconclusive, type MatcherContext, type MatcherResult } from './context';
import { changesSection, outcomeDetails, report } from '../lib/outcome/describe';
import { mutationOf } from '../lib/outcome/mutation';
import { asCallOutcome } from '../lib/outcome/subject';

/**
 * Passes when the webhook allowed the request and its answer leaves the object as it was: no patch,
 * an empty one, or one whose result equals the input (kube-apiserver records that as `mutated: false`
 * and schedules no reinvocation for it). Call outcomes only: an admission result does not carry the
 * object it started from.
 */
export function toLeaveUnchanged(this: MatcherContext, received: unknown): MatcherResult {
  const subject = asCallOutcome(received, 'toLeaveUnchanged');
  const hint = this.utils.matcherHint('toLeaveUnchanged', 'outcome', '', { isNot: this.isNot });
  const mutation = mutationOf(subject);
  if (!mutation.ok)
    return inconclusive(this, () => report(hint, `expected an allowed answer to check for changes, but ${mutation.why}`, outcomeDetails(subject)));
  const pass = mutation.changes.length === 0;
  return {
    pass,
    message: () => {
      if (!pass)
        return report(
          hint,
          'expected the webhook to leave the object unchanged, but its patch changes it',
          changesSection('Changes (request object → patched)', mutation.changes),
          outcomeDetails(subject),
        );
      const how =
        mutation.patch.length === 0
          ? 'it sent no patch'
          : `its patch (${mutation.patch.length} operation${mutation.patch.length === 1 ? '' : 's'}) leaves the object as it was`;
      return report(hint, `expected the webhook to change the object, but ${how}`, outcomeDetails(subject));
    },
  };
}
