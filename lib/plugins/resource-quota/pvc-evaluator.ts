/**
 * The quota evaluator for persistent volume claims.
 *
 * Upstream: `pkg/quota/v1/evaluator/core/persistent_volume_claims.go` (v1.36: VolumeAttributesClass
 * is GA, so quotas may be scoped by it) and `component-helpers/storage/volume`
 * (GetPersistentVolumeClaimClass).
 */
import { compareQuantities, type Quantity } from '../../kube/quantity';
import { objectAt, stringAt, type JsonRecord } from '../../kube/record';
import { objectCountName, type QuotaEvaluator } from './evaluator';
import { newQuantity, roundUpToInteger } from './quantity-arithmetic';
import { resourceListFrom, type ResourceList } from './resource-list';
import { scopeSelectorMatches, type ScopeSelector } from './scope-selectors';

const PVC_COUNT = objectCountName({ group: '', resource: 'persistentvolumeclaims' });
const PVC_RESOURCES = ['persistentvolumeclaims', 'requests.storage'];
/** `<storage-class>.storageclass.storage.k8s.io/<resource>`. */
const STORAGE_CLASS_SUFFIX = '.storageclass.storage.k8s.io/';
const BETA_STORAGE_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';

/** GetPersistentVolumeClaimClass: the beta annotation first, then spec.storageClassName. */
function storageClassOf(pvc: JsonRecord): string {
  const annotations = objectAt(objectAt(pvc, 'metadata'), 'annotations');
  const annotated = annotations[BETA_STORAGE_CLASS_ANNOTATION];
  if (typeof annotated === 'string') return annotated;
  return stringAt(objectAt(pvc, 'spec'), 'storageClassName') ?? '';
}

/**
 * getStorageUsage: the requested storage in whole bytes (RoundUp(0), issue 94313), or the allocated
 * storage (status.allocatedResources, after an expansion) when that is more.
 */
function storageUsage(pvc: JsonRecord): Quantity | undefined {
  const wholeBytes = (q: Quantity): Quantity => {
    const rounded = roundUpToInteger(q);
    return rounded.exact ? q : rounded.quantity;
  };
  const requested = resourceListFrom(objectAt(objectAt(pvc, 'spec'), 'resources').requests).get('storage');
  let result = requested === undefined ? undefined : wholeBytes(requested);
  const allocated = resourceListFrom(objectAt(pvc, 'status').allocatedResources);
  if (allocated.size === 0) return result;
  const allocatedStorage = allocated.get('storage');
  if (result !== undefined && allocatedStorage !== undefined && compareQuantities(allocatedStorage, result) > 0) result = wholeBytes(allocatedStorage);
  return result;
}

/** getReferencedVolumeAttributesClassNames: the spec's, the current and the modification target. */
function volumeAttributesClasses(pvc: JsonRecord): Set<string> {
  const status = objectAt(pvc, 'status');
  const names = [
    stringAt(objectAt(pvc, 'spec'), 'volumeAttributesClassName'),
    stringAt(status, 'currentVolumeAttributesClassName'),
    stringAt(objectAt(status, 'modifyVolumeStatus'), 'targetVolumeAttributesClassName'),
  ];
  return new Set(names.filter((name): name is string => name !== undefined && name !== ''));
}

/** pvcMatchesScopeFunc: only the VolumeAttributesClass scope applies to claims. */
function pvcMatchesScope(selector: ScopeSelector, pvc: JsonRecord): boolean {
  if (selector.scopeName !== 'VolumeAttributesClass') return false;
  const classes = volumeAttributesClasses(pvc);
  if (selector.operator === 'Exists') return classes.size > 0;
  if (classes.size === 0) return scopeSelectorMatches(selector, {});
  return [...classes].some((name) => scopeSelectorMatches(selector, { VolumeAttributesClass: name }));
}

export const pvcEvaluator: QuotaEvaluator = {
  handles({ operation, subResource = '' }) {
    switch (subResource) {
      case '':
        return operation === 'CREATE' || operation === 'UPDATE';
      case 'status':
        // RequiresQuotaReplenish compares two freshly allocated *Quantity pointers
        // (`ResourceList.Storage()`), which always differ: every status update is evaluated.
        return true;
      default:
        return false;
    }
  },

  matchingResources(names) {
    return names.filter(
      (name) => name === PVC_COUNT || PVC_RESOURCES.includes(name) || PVC_RESOURCES.some((resource) => name.endsWith(STORAGE_CLASS_SUFFIX + resource)),
    );
  },

  matchesScope: pvcMatchesScope,
  constraints: () => undefined,

  usage(pvc) {
    const result: ResourceList = new Map([
      ['persistentvolumeclaims', newQuantity(1)],
      [PVC_COUNT, newQuantity(1)],
    ]);
    const storageClass = storageClassOf(pvc);
    if (storageClass !== '') result.set(`${storageClass}${STORAGE_CLASS_SUFFIX}persistentvolumeclaims`, newQuantity(1));
    const storage = storageUsage(pvc);
    if (storage !== undefined) {
      result.set('requests.storage', storage);
      if (storageClass !== '') result.set(`${storageClass}${STORAGE_CLASS_SUFFIX}requests.storage`, storage);
    }
    return result;
  },
};
