import type { JsonPatchOperation } from '../lib/kube/admission';
import { containsAsymmetric, inconclusive, type AsymmetricMatcherLike, type MatcherContext, type MatcherResult } from './context';
import { changesSection, outcomeDetails, report } from '../lib/outcome/describe';
import { diffJson } from '../lib/diff/json-diff';
import { refusal } from '../lib/outcome/mutation';
import { asCallOutcome } from '../lib/outcome/subject';

/**
 * Passes when the decoded JSON Patch of an allowed answer equals `expected` (no patch reads as `[]`).
 * Asymmetric matchers work, e.g. `expect.arrayContaining([{ op: 'add', path: '/metadata/labels/env', value: 'prod' }])`.
 */
export function toHavePatchOps(this: MatcherContext, received: unknown, expected: readonly JsonPatchOperation[] | AsymmetricMatcherLike): MatcherResult {
  const subject = asCallOutcome(received, 'toHavePatchOps');
  const hint = this.utils.matcherHint('toHavePatchOps', 'outcome', 'ops', { isNot: this.isNot });
  const refused = refusal(subject);
  if (refused !== undefined)
    return inconclusive(this, () => report(hint, `expected an allowed answer to compare the patch of, but ${refused}`, outcomeDetails(subject)));
  const actual = subject.patch ?? [];
  const pass = this.equals(actual, expected);
  return {
    pass,
    message: () => {
      const comparison = `Expected: ${this.utils.printExpected(expected)}\nReceived: ${this.utils.printReceived(actual)}`;
      if (pass) return report(hint, 'expected the patch to differ, but it equals the expected operations', comparison, outcomeDetails(subject));
      const difference = containsAsymmetric(expected) ? undefined : changesSection('Difference (expected → received)', diffJson(expected, actual));
      return report(hint, 'expected the patch to equal the expected operations', comparison, difference, outcomeDetails(subject));
    },
  };
}
