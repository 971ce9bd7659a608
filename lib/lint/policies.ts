import type { ResourceCatalog } from '../kube/catalog';
import type { ValidatingAdmissionPolicy } from '../kube/admission-policy';
import { catalogKindResolver, catalogSchemaResolver, typeCheckPolicy } from '../policy/type-check';
import type { Finding } from './rules';

/**
 * kube-apiserver's type checking of ValidatingAdmissionPolicies (the warnings it writes into
 * `status.typeChecking`): each expression compiled against the schema of every kind the policy
 * matches. A policy with such a warning still loads and runs, in kube as here; the expression will
 * most likely fail on every request. Needs the CEL library loaded (the policies were compiled).
 */
export function lintPolicies(policies: readonly { policy: ValidatingAdmissionPolicy }[], catalog: ResourceCatalog): Finding[] {
  const kinds = catalogKindResolver(catalog);
  const schemas = catalogSchemaResolver(catalog);
  return policies.flatMap(({ policy }) =>
    typeCheckPolicy(policy, kinds, schemas).map((warning) => ({
      id: 'policy-type-check',
      severity: 'warning' as const,
      configuration: policy.metadata.name,
      webhook: warning.fieldRef,
      message: warning.warning,
      fix: 'name fields the matched kinds have (kube-apiserver reports this in the policy’s status.typeChecking, and the expression fails when it runs)',
    })),
  );
}
