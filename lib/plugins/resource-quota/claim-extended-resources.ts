/**
 * A ResourceClaim's devices as extended resources (DRAExtendedResource, beta and on by default in
 * v1.36): a class's devices also count as `requests.deviceclass.resource.kubernetes.io/<class>` and,
 * when the DeviceClass names one, as `requests.<its extendedResourceName>` — less what the pod the
 * scheduler made the claim for is already charged.
 *
 * Upstream: `pkg/quota/v1/evaluator/core/resource_claims.go` (MatchingResources, addExtendedResourceQuota,
 * getVerifiedPodUsage) and `staging/src/k8s.io/dynamic-resource-allocation/deviceclass/
 * extendedresourcecache` (GetExtendedResource, GetDeviceClass, betterDeviceClass).
 */
import { compareQuantities } from '../../kube/quantity';
import { listAt, objectAt, stringAt, type JsonRecord } from '../../kube/record';
import type { QuotaContext } from './evaluator';
import { DEVICES_PER_CLASS_SUFFIX } from './claim-devices';
import { podEvaluator } from './pod-evaluator';
import { newQuantity, subtractQuantities } from './quantity-arithmetic';
import type { ResourceList } from './resource-list';

const REQUESTS_PREFIX = 'requests.';
/** resourceapi.ResourceDeviceClassPrefix: the implicit extended resource name of a class. */
export const DEVICE_CLASS_RESOURCE_PREFIX = 'deviceclass.resource.kubernetes.io/';
/** resourceapi.ExtendedResourceClaimAnnotation: set on the claims the scheduler creates for a pod. */
const EXTENDED_RESOURCE_CLAIM_ANNOTATION = 'resource.kubernetes.io/extended-resource-claim';

/** The extended resource cache: what the cluster's DeviceClasses map between classes and resource names. */
export interface DeviceClassMapping {
  /** GetExtendedResource: the class's explicit `spec.extendedResourceName`, '' when it has none or is unknown. */
  extendedResourceOf(className: string): string;
  /** GetDeviceClass: whether a class answers to this extended resource name (implicit or explicit). */
  hasDeviceClass(resourceName: string): boolean;
}

/** betterDeviceClass: of two classes claiming one explicit name the newer wins, then the lower name. */
function better(a: JsonRecord, b: JsonRecord | undefined): boolean {
  if (b === undefined) return true;
  const created = (c: JsonRecord) => Date.parse(stringAt(objectAt(c, 'metadata'), 'creationTimestamp') ?? '') || 0;
  if (created(a) !== created(b)) return created(a) > created(b);
  return (stringAt(objectAt(a, 'metadata'), 'name') ?? '') < (stringAt(objectAt(b, 'metadata'), 'name') ?? '');
}

/** The cache built from the cluster's DeviceClasses (any served version: the fields read are the same). */
export function deviceClassMapping(deviceClasses: readonly JsonRecord[]): DeviceClassMapping {
  const extendedByClass = new Map<string, string>();
  const classByResource = new Map<string, JsonRecord>();
  for (const deviceClass of deviceClasses) {
    const name = stringAt(objectAt(deviceClass, 'metadata'), 'name') ?? '';
    classByResource.set(DEVICE_CLASS_RESOURCE_PREFIX + name, deviceClass);
    const explicit = stringAt(objectAt(deviceClass, 'spec'), 'extendedResourceName');
    if (explicit === undefined) continue;
    extendedByClass.set(name, explicit);
    if (better(deviceClass, classByResource.get(explicit))) classByResource.set(explicit, deviceClass);
  }
  return { extendedResourceOf: (className) => extendedByClass.get(className) ?? '', hasDeviceClass: (resourceName) => classByResource.has(resourceName) };
}

/** The pod a claim's controller reference names, as the evaluator's pod lister sees it. */
function controllingPodRef(claim: JsonRecord): JsonRecord | undefined {
  const controller = listAt(objectAt(claim, 'metadata'), 'ownerReferences').find((ref) => ref.controller === true);
  return controller && controller.kind === 'Pod' && controller.apiVersion === 'v1' ? controller : undefined;
}

/** The scheduler's claim for a pod: annotated, controlled by a v1 Pod. */
function isExtendedResourceClaimOf(claim: JsonRecord, podUid: string): boolean {
  if (objectAt(objectAt(claim, 'metadata'), 'annotations')[EXTENDED_RESOURCE_CLAIM_ANNOTATION] !== 'true') return false;
  return controllingPodRef(claim)?.uid === podUid;
}

/** Whether another claim of the same pod was created before this one (the same instant: a lower name). */
function hasEarlierSibling(claim: JsonRecord, siblings: readonly JsonRecord[]): boolean {
  const metadata = objectAt(claim, 'metadata');
  const created = Date.parse(stringAt(metadata, 'creationTimestamp') ?? '') || 0;
  const name = stringAt(metadata, 'name') ?? '';
  return siblings.some((sibling) => {
    const other = objectAt(sibling, 'metadata');
    const otherCreated = Date.parse(stringAt(other, 'creationTimestamp') ?? '') || 0;
    return otherCreated < created || (otherCreated === created && (stringAt(other, 'name') ?? '') < name);
  });
}

/**
 * getVerifiedPodUsage: the quota usage of the pod this claim was made for, when the claim is the
 * scheduler's extended-resource claim of a pod that exists (same uid) and claims it — by name in
 * `status.extendedResourceClaimStatus`, or, before that is set, as the pod's first such claim.
 */
export function verifiedPodUsage(claim: JsonRecord, context: QuotaContext): ResourceList | undefined {
  const cluster = context.cluster;
  const metadata = objectAt(claim, 'metadata');
  if (!cluster || objectAt(metadata, 'annotations')[EXTENDED_RESOURCE_CLAIM_ANNOTATION] !== 'true') return undefined;
  const ref = controllingPodRef(claim);
  const namespace = stringAt(metadata, 'namespace') ?? '';
  const pod = ref && (cluster.get('v1', 'Pod', namespace, String(ref.name ?? '')) as JsonRecord | undefined);
  if (!ref || !pod || stringAt(objectAt(pod, 'metadata'), 'uid') !== ref.uid) return undefined;
  const status = objectAt(pod, 'status').extendedResourceClaimStatus;
  if (status !== undefined && status !== null) {
    if (stringAt(status as JsonRecord, 'resourceClaimName') !== stringAt(metadata, 'name')) return undefined;
  } else {
    const podUid = String(ref.uid ?? '');
    const siblings = (cluster.list('resource.k8s.io/v1', 'ResourceClaim', namespace) as unknown as JsonRecord[]).filter((other) =>
      isExtendedResourceClaimOf(other, podUid),
    );
    if (hasEarlierSibling(claim, siblings)) return undefined;
  }
  return podEvaluator.usage(pod, context);
}

/**
 * addExtendedResourceQuota: each class's devices under the class's extended resource names, less the
 * pod's own usage of those names; only what remains above zero is added.
 */
export function addExtendedResourceUsage(usage: ResourceList, mapping: DeviceClassMapping, podUsage: ResourceList | undefined): void {
  const extended: ResourceList = new Map();
  for (const [name, quantity] of usage) {
    if (!name.endsWith(DEVICES_PER_CLASS_SUFFIX)) continue;
    const className = name.slice(0, -DEVICES_PER_CLASS_SUFFIX.length);
    if (className === '') continue;
    extended.set(REQUESTS_PREFIX + DEVICE_CLASS_RESOURCE_PREFIX + className, quantity);
    const explicit = mapping.extendedResourceOf(className);
    if (explicit !== '') extended.set(REQUESTS_PREFIX + explicit, quantity);
  }
  for (const [name, quantity] of extended) {
    const charged = podUsage?.get(name);
    const remaining = charged === undefined ? quantity : subtractQuantities(quantity, charged);
    if (compareQuantities(remaining, newQuantity(0)) > 0) usage.set(name, remaining);
  }
}
