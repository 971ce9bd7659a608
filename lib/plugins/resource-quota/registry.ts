/**
 * Which evaluator measures a resource, and which resources quota ignores.
 *
 * Upstream: `pkg/quota/v1/evaluator/core/registry.go` (NewEvaluators: pods, services and claims have
 * their own), `pkg/quota/v1/install/registry.go` (DefaultIgnoredResources: core events), and
 * `quotaEvaluator.Evaluate` in `staging/src/k8s.io/apiserver/pkg/admission/plugin/resourcequota/
 * controller.go`, which gives any other resource an object-count evaluator on first sight.
 */
import type { QuotaEvaluator } from './evaluator';
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

/** The evaluator for a group and resource. */
export function evaluatorFor(resource: { group: string; resource: string }): QuotaEvaluator {
  return (resource.group === '' ? CORE_EVALUATORS.get(resource.resource) : undefined) ?? objectCountEvaluator(resource);
}
