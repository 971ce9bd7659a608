/**
 * Which evaluator measures a resource, and which resources quota ignores.
 *
 * Upstream: `pkg/quota/v1/evaluator/core/registry.go` (NewEvaluators: pods, services, persistent volume
 * claims and resource claims have their own), `pkg/quota/v1/install/registry.go` (DefaultIgnoredResources: core events), and
 * `quotaEvaluator.Evaluate` in `staging/src/k8s.io/apiserver/pkg/admission/plugin/resourcequota/
 * controller.go`, which gives any other resource an object-count evaluator on first sight.
 */
import { claimEvaluator } from './claim-evaluator';
import type { QuotaContext, QuotaEvaluator } from './evaluator';
import { objectCountEvaluator } from './object-count-evaluator';
import { podEvaluator } from './pod-evaluator';
import { pvcEvaluator } from './pvc-evaluator';
import { serviceEvaluator } from './service-evaluator';

const CORE_EVALUATORS: ReadonlyMap<string, QuotaEvaluator> = new Map([
  ['pods', podEvaluator],
  ['services', serviceEvaluator],
  ['persistentvolumeclaims', pvcEvaluator],
]);

/** Whether quota never looks at this resource. */
export function isIgnoredByQuota(resource: { group: string; resource: string }): boolean {
  return resource.group === '' && resource.resource === 'events';
}

/** The evaluator for a group and resource; the claim evaluator reads the cluster's DeviceClasses. */
export function evaluatorFor(resource: { group: string; resource: string }, context: Pick<QuotaContext, 'cluster'> = {}): QuotaEvaluator {
  if (resource.group === 'resource.k8s.io' && resource.resource === 'resourceclaims') return claimEvaluator(context);
  return (resource.group === '' ? CORE_EVALUATORS.get(resource.resource) : undefined) ?? objectCountEvaluator(resource);
}
