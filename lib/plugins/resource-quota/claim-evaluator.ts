/**
 * The quota evaluator for resource claims (resource.k8s.io resourceclaims): the claim as an object, its
 * devices per class, and (DRAExtendedResource, on by default in v1.36) those devices as extended resources.
 *
 * Upstream: `pkg/quota/v1/evaluator/core/resource_claims.go` (v1.36: Handles, MatchingResources, Usage;
 * no scopes, no constraints), registered for `resourceclaims.resource.k8s.io` by `registry.go` NewEvaluators.
 */
import type { JsonRecord } from '../../kube/record';
import { claimDevicesPerClass, DEVICES_PER_CLASS_SUFFIX } from './claim-devices';
import {
  addExtendedResourceUsage,
  DEVICE_CLASS_RESOURCE_PREFIX,
  deviceClassMapping,
  verifiedPodUsage,
  type DeviceClassMapping,
} from './claim-extended-resources';
import { objectCountName, type QuotaContext, type QuotaEvaluator } from './evaluator';
import { isExtendedResourceNameForQuota } from './pod-evaluator';
import { newQuantity } from './quantity-arithmetic';
import type { ResourceList } from './resource-list';

/** ClaimObjectCountName: this evaluator takes over the object count of its resource. */
const CLAIM_COUNT = objectCountName({ group: 'resource.k8s.io', resource: 'resourceclaims' });
const REQUESTS_PREFIX = 'requests.';
/** corev1.ResourceImplicitExtendedClaimsPerClass. */
const IMPLICIT_EXTENDED_PREFIX = REQUESTS_PREFIX + DEVICE_CLASS_RESOURCE_PREFIX;

/** MatchingResources: the count, any class's devices, and the extended resource names a DeviceClass answers to. */
function matchingClaimResources(names: readonly string[], mapping: DeviceClassMapping): string[] {
  const result: string[] = [];
  for (const name of names) {
    if (name === CLAIM_COUNT || name.endsWith(DEVICES_PER_CLASS_SUFFIX)) {
      result.push(name);
      continue;
    }
    if (name.startsWith(IMPLICIT_EXTENDED_PREFIX) && mapping.extendedResourceOf(name.slice(IMPLICIT_EXTENDED_PREFIX.length)) !== '') {
      result.push(name);
      continue;
    }
    if (isExtendedResourceNameForQuota(name) && mapping.hasDeviceClass(name.slice(REQUESTS_PREFIX.length))) result.push(name);
  }
  return result;
}

/** The DeviceClasses of the cluster (none without one). */
function deviceClassesOf(context: Pick<QuotaContext, 'cluster'>): JsonRecord[] {
  return (context.cluster?.list('resource.k8s.io/v1', 'DeviceClass', '') ?? []) as unknown as JsonRecord[];
}

/** The claim evaluator, with the extended resource cache of the cluster it judges against. */
export function claimEvaluator(context: Pick<QuotaContext, 'cluster'>): QuotaEvaluator {
  const mapping = deviceClassMapping(deviceClassesOf(context));
  return {
    // Creates and updates of the claim itself; its status (the allocation) is never charged.
    handles: ({ operation, subResource = '' }) => subResource === '' && (operation === 'CREATE' || operation === 'UPDATE'),
    matchingResources: (names) => matchingClaimResources(names, mapping),
    matchesScope: () => false,
    constraints: () => undefined,
    usage(claim, usageContext) {
      const result: ResourceList = new Map([[CLAIM_COUNT, newQuantity(1)]]);
      for (const [name, devices] of claimDevicesPerClass(claim)) result.set(name, devices);
      addExtendedResourceUsage(result, mapping, verifiedPodUsage(claim, usageContext));
      return result;
    },
  };
}
