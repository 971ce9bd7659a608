/**
 * The quota evaluator that only counts objects, for every resource without a dedicated one.
 *
 * Upstream: `staging/src/k8s.io/apiserver/pkg/quota/v1/generic/evaluator.go` (NewObjectCountEvaluator,
 * MatchesNoScopeFunc) and the legacy aliases of `pkg/quota/v1/evaluator/core/registry.go`: configmaps,
 * resourcequotas, replicationcontrollers and secrets are also counted under their bare plural.
 */
import { objectCountName, type QuotaEvaluator } from './evaluator';
import { newQuantity } from './quantity-arithmetic';

/** legacyObjectCountAliases (all in the core group). */
const LEGACY_ALIASES = new Set(['configmaps', 'resourcequotas', 'replicationcontrollers', 'secrets']);

/** NewObjectCountEvaluator for a group and resource: `count/<resource>[.<group>]`, plus the legacy alias. */
export function objectCountEvaluator(resource: { group: string; resource: string }): QuotaEvaluator {
  const names = [objectCountName(resource)];
  if (resource.group === '' && LEGACY_ALIASES.has(resource.resource)) names.push(resource.resource);
  return {
    // Only a create adds an object. A subresource create (serviceaccounts/token, pods/eviction) does not.
    handles: ({ operation, subResource = '' }) => operation === 'CREATE' && subResource === '',
    matchingResources: (input) => input.filter((name) => names.includes(name)),
    matchesScope: () => false,
    constraints: () => undefined,
    usage: () => new Map(names.map((name) => [name, newQuantity(1)])),
  };
}
