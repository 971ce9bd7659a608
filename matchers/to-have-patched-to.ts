import type { KubeObject } from '../lib/kube/admission';
import { containsAsymmetric, inconclusive, type AsymmetricMatcherLike, type MatcherContext, type MatcherResult } from './context';
import { changesSection, report, subjectDetails } from '../lib/outcome/describe';
import { diffExpected, diffJson } from '../lib/diff/json-diff';
import { patchedObjectOf } from '../lib/outcome/patched-object';
import { asCallOrAdmit } from '../lib/outcome/subject';

// What it asserts is documented once, where editors show it: HarnessMatchers.toHavePatchedTo (./index.ts).
export function toHavePatchedTo(this: MatcherContext, received: unknown, expected: KubeObject | AsymmetricMatcherLike): MatcherResult {
  const subject = asCallOrAdmit(received, 'toHavePatchedTo');
  const hint = this.utils.matcherHint('toHavePatchedTo', subject.source === 'call' ? 'outcome' : 'result', 'object', { isNot: this.isNot });
  const patched = patchedObjectOf(subject);
  if (!patched.ok) return inconclusive(this, () => report(hint, `expected a patched object to compare, but ${patched.why}`, subjectDetails(subject)));
  const pass = this.equals(patched.object, expected);
  const effect = patched.changes ? changesSection('The patch changed (request object → patched)', patched.changes) : undefined;
  return {
    pass,
    message: () => {
      if (pass) return report(hint, 'expected the patched object to differ from the expected one, but it equals it', effect, subjectDetails(subject));
      // Only where they disagree: an object of a hundred lines differing in one is one line here.
      const changes = containsAsymmetric(expected) ? diffExpected(expected, patched.object, (a, b) => this.equals(a, b)) : diffJson(expected, patched.object);
      const difference = changesSection('Difference (expected → patched)', changes);
      return report(hint, 'expected the patched object to equal the expected one', difference, effect, subjectDetails(subject));
    },
  };
}
