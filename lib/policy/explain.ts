import type { AdmissionAttributes } from '../kube/attributes';
import type { Explanation } from '../match/explain';
import { exemptionOf } from '../match/exempt';
import { matchResources, type PolicyMatchContext } from './match-resources';
import type { PreparedMutatingPolicy, PreparedValidatingPolicy } from './prepare';

/**
 * For each admission policy and binding, whether `attributes` would be evaluated and why:
 * matchConstraints, then the binding's matchResources. Matching only: no expression runs (matchConditions
 * and params are decided when the request is admitted).
 */
export function explainPolicies(
  policies: readonly (PreparedValidatingPolicy | PreparedMutatingPolicy)[],
  attributes: AdmissionAttributes,
  context: PolicyMatchContext,
): Explanation[] {
  const exempt = exemptionOf(attributes);
  return policies.flatMap(({ policy, bindings }): Explanation[] => {
    const base = {
      configuration: policy.metadata.name,
      type: policy.kind === 'MutatingAdmissionPolicy' ? ('mutating-policy' as const) : ('validating-policy' as const),
    };
    if (exempt) return [{ ...base, name: '', decision: 'skipped', reason: exempt, reasons: [exempt] }];
    const matched = matchResources(policy.spec.matchConstraints ?? {}, attributes, context);
    const last = (reasons: readonly string[]) => reasons[reasons.length - 1] ?? '';
    if (matched.error)
      return [
        {
          ...base,
          name: '',
          decision: 'error',
          reason: matched.error.message ?? '',
          reasons: matched.why,
          status: { code: matched.error.code, message: matched.error.message },
        },
      ];
    if (!matched.matches) return [{ ...base, name: '', decision: 'skipped', reason: last(matched.why), reasons: matched.why }];
    if (bindings.length === 0)
      return [{ ...base, name: '', decision: 'skipped', reason: 'no binding names the policy', reasons: [...matched.why, 'no binding names the policy'] }];
    return bindings.map(({ binding }): Explanation => {
      const name = binding.metadata.name;
      const own = binding.spec.matchResources ? matchResources(binding.spec.matchResources, attributes, context) : undefined;
      const reasons = [...matched.why, ...(own ? own.why.map((reason) => `binding: ${reason}`) : [])];
      if (own?.error)
        return { ...base, name, decision: 'error', reason: own.error.message ?? '', reasons, status: { code: own.error.code, message: own.error.message } };
      if (own && !own.matches) return { ...base, name, decision: 'skipped', reason: last(reasons), reasons };
      const actions = 'validationActions' in binding.spec ? `; validationActions ${binding.spec.validationActions.join(', ')}` : '';
      return {
        ...base,
        name,
        decision: 'called',
        reason: `${last(matched.why)}${actions}`,
        reasons,
        kind: matched.kind,
        resource: matched.resource,
        subResource: attributes.subResource,
      };
    });
  });
}
