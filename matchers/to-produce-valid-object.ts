import { inconclusive, type MatcherContext, type MatcherResult } from './context';
import { outcomeDetails, report } from '../lib/outcome/describe';
import { refusal } from '../lib/outcome/mutation';
import { asCallOutcome } from '../lib/outcome/subject';

const WHY_IT_MATTERS =
  'Why it matters: after the mutating webhooks, kube-apiserver decodes the object into its type and runs the ' +
  'resource’s own validation before any validating webhook; an object that fails is refused with 422 Invalid ' +
  '(or 500 when it does not decode), whatever the webhooks allowed.';

/**
 * `h.call()` outcomes of mutating webhooks: passes when the object the webhook's patch produces is one
 * the API accepts — it decodes into its kind and passes the resource's validation (names, labels,
 * unique container names, volume mounts, quantities…; k8s.io/kubernetes/pkg/apis/core/validation/validation.go), judged as if this webhook
 * were the only one. An answer without a patch leaves the object as the test sent it, and passes.
 */
export function toProduceValidObject(this: MatcherContext, received: unknown): MatcherResult {
  const subject = asCallOutcome(received, 'toProduceValidObject');
  const hint = this.utils.matcherHint('toProduceValidObject', 'outcome', '', { isNot: this.isNot });
  const refused = refusal(subject);
  if (refused !== undefined)
    return inconclusive(this, () => report(hint, `expected an allowed answer whose object to validate, but ${refused}`, outcomeDetails(subject)));
  const patched = subject.patched;
  if (!patched) {
    return {
      pass: true,
      message: () =>
        report(
          hint,
          'expected the webhook to produce an object the API refuses, but it sent no patch: the object is as the test sent it',
          outcomeDetails(subject),
        ),
    };
  }
  if (!patched.ok) {
    return {
      pass: false,
      message: () =>
        report(
          hint,
          `expected the patched object to be accepted by the API, but kube-apiserver answers:\n  ${patched.status.code} ${patched.status.message ?? ''}`,
          WHY_IT_MATTERS,
          outcomeDetails(subject),
        ),
    };
  }
  const invalid = patched.invalid;
  if (!invalid) {
    return { pass: true, message: () => report(hint, 'expected the API to refuse the patched object, but it is valid', outcomeDetails(subject)) };
  }
  const causes = (invalid.details?.causes ?? []).map((c) => `  - ${c.field ?? ''}: ${c.message ?? ''}`).join('\n');
  return {
    pass: false,
    message: () =>
      report(
        hint,
        `expected the patched object to be accepted by the API, but kube-apiserver answers:\n  ${invalid.code} ${invalid.message ?? ''}`,
        causes ? `Causes:\n${causes}` : undefined,
        WHY_IT_MATTERS,
        outcomeDetails(subject),
      ),
  };
}
