import type { ManifestSet } from '../config/load';
import { type Refusal, type RefusedKind, refusedField } from '../config/refusal';
import type { ResourceCatalog } from '../kube/catalog';
import { matchConditionRefusals } from '../match/conditions';
import { policyRefusals } from '../policy/prepare';
import type { Registry } from '../registry';
import type { Finding } from './rules';

/** The ids of the findings for objects kube-apiserver refuses on create. */
export const REFUSAL_FINDING_IDS = ['crd-rule-invalid', 'crd-rule-cost', 'match-condition-invalid', 'policy-expression-invalid'] as const;

/**
 * Every object of the manifests kube-apiserver would refuse on create for its CEL, all at once: the
 * CustomResourceDefinitions of the catalog (x-kubernetes-validations that do not compile, or whose
 * static cost estimate passes the limits), the webhook configurations (matchConditions) and the
 * admission policies (their expressions).
 */
export async function refusalsOnCreate(set: ManifestSet, registry: Registry): Promise<Refusal[]> {
  const definitions: Refusal[] = (await registry.prepare()).map(({ resource, storageKey, errors }) => ({
    kind: 'CustomResourceDefinition',
    name: resource,
    where: resource,
    storageKey,
    errors: errors.map((error) => `${error.field}: ${error.body}`),
  }));
  return [...definitions, ...(await matchConditionRefusals(set.webhooks)), ...(await policyRefusals(set))];
}

/**
 * The cluster after `kubectl apply` of every manifest, the refused ones failing: a refused webhook
 * configuration is not there (none of its webhooks), a refused policy does not run (its bindings bind
 * nothing), a refused CustomResourceDefinition is not served (every version leaves `catalog`).
 */
export function leaveOutRefused(set: ManifestSet, catalog: ResourceCatalog, refusals: readonly Refusal[]): ManifestSet {
  if (refusals.length === 0) return set;
  for (const { storageKey } of refusals) if (storageKey !== undefined) catalog.unregister(storageKey);
  const refused = (kinds: readonly RefusedKind[]) => new Set(refusals.filter((r) => kinds.includes(r.kind)).map((r) => r.where));
  const webhooks = refused(['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']);
  const validating = refused(['ValidatingAdmissionPolicy']);
  const mutating = refused(['MutatingAdmissionPolicy']);
  return {
    ...set,
    webhooks: set.webhooks.filter((entry) => !webhooks.has(entry.source)),
    validatingPolicies: set.validatingPolicies.filter((entry) => !validating.has(entry.source)),
    mutatingPolicies: set.mutatingPolicies.filter((entry) => !mutating.has(entry.source)),
  };
}

/** A CRD refusal is about cost when kube's text says so (validation.go `getCostErrorMessage` and the total's). */
const isCostError = (error: string): boolean => /estimated (rule|messageExpression) cost|estimated rule cost total/.test(error);

const CRD_COST_FIX =
  'add maxItems, maxProperties and maxLength where the arrays, maps and strings the rule reads are declared (kube estimates each from them), or simplify the rule';

/** Which finding an error of a refusal is, where it points and what to do. */
function kindOfFinding(refusal: Refusal, error: string): Pick<Finding, 'id' | 'webhook' | 'fix'> {
  switch (refusal.kind) {
    case 'CustomResourceDefinition':
      return isCostError(error)
        ? { id: 'crd-rule-cost', webhook: refusedField(error), fix: CRD_COST_FIX }
        : { id: 'crd-rule-invalid', webhook: refusedField(error), fix: 'fix the x-kubernetes-validations rule' };
    case 'MutatingWebhookConfiguration':
    case 'ValidatingWebhookConfiguration':
      return {
        id: 'match-condition-invalid',
        webhook: refusal.webhook ?? refusedField(error),
        fix: 'fix the matchCondition named: kube-apiserver refuses the whole configuration, so none of its webhooks is ever called',
      };
    default:
      return {
        id: 'policy-expression-invalid',
        webhook: refusedField(error),
        fix: 'fix the expression named: kube-apiserver refuses the policy, so it never runs and its bindings do nothing',
      };
  }
}

/**
 * The refusals as error findings with kube's texts: CRDs (`crd-rule-invalid`, `crd-rule-cost`), webhook
 * configurations (`match-condition-invalid`) and admission policies (`policy-expression-invalid`).
 */
export function refusalFindings(refusals: readonly Refusal[]): Finding[] {
  return refusals.flatMap((refusal) =>
    refusal.errors.map((error) => {
      const { id, webhook, fix } = kindOfFinding(refusal, error);
      return { id, severity: 'error' as const, configuration: refusal.name, webhook, message: `kube-apiserver refuses this ${refusal.kind}: ${error}`, fix };
    }),
  );
}
