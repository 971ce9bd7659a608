import type { KubeObject, Status } from '../kube/admission';
import type { AdmissionAttributes } from '../kube/attributes';
import { isRecord } from '../kube/json';
import { compareQuantities, quantityFromJson, type Quantity } from '../kube/quantity';
import { objectAt, stringAt, type JsonRecord } from '../kube/record';
import { acts, notInvolved, type Involvement } from './involved';
import type { PluginAttributes, PluginCluster } from './plugin';
import { isRequestFor, pluginForbidden } from './refusing-plugin';

// core v1 BetaStorageClassAnnotation, which apihelper.GetPersistentVolumeClaimClass reads before the field.
const BETA_CLAIM_CLASS = 'volume.beta.kubernetes.io/storage-class';
const ZERO: Quantity = { mantissa: 0n, exponent: 0, format: 'DecimalSI' };

/** `spec.resources.requests.storage`, the zero quantity when absent (a Go map's missing entry). */
function requestedStorage(claim: JsonRecord): Quantity {
  return quantityFromJson(objectAt(objectAt(objectAt(claim, 'spec'), 'resources'), 'requests').storage) ?? ZERO;
}

/** apihelper.GetPersistentVolumeClaimClass: the beta annotation first, then `spec.storageClassName`, else "". */
function claimClass(claim: JsonRecord): string {
  const annotations = objectAt(objectAt(claim, 'metadata'), 'annotations');
  if (BETA_CLAIM_CLASS in annotations) return typeof annotations[BETA_CLAIM_CLASS] === 'string' ? annotations[BETA_CLAIM_CLASS] : '';
  return stringAt(objectAt(claim, 'spec'), 'storageClassName') ?? '';
}

/** PersistentVolumeClaimResize acts on PersistentVolumeClaim updates. */
export function pvcResizeInvolvement(attributes: PluginAttributes): Involvement {
  if (!isRequestFor(attributes, 'UPDATE', '', 'persistentvolumeclaims')) return notInvolved('handles only PersistentVolumeClaim updates');
  return acts('refuses growing the storage request unless the claim is Bound and its StorageClass allows expansion');
}

/**
 * PersistentVolumeClaimResize (plugin/pkg/admission/storage/persistentvolume/resize), fifth in the
 * validation phase (after Priority): an update that grows a claim's `spec.resources.requests.storage`
 * is refused unless the claim was Bound and names (before and after, the same) a StorageClass with
 * `allowVolumeExpansion: true`. Shrinking or keeping the size is not its business. Reads the cluster's
 * StorageClasses.
 */
export function pvcResizeValidate(attributes: AdmissionAttributes, cluster: PluginCluster): Status | undefined {
  if (!pvcResizeInvolvement(attributes).involved) return undefined;
  if (!isRecord(attributes.object) || !isRecord(attributes.oldObject)) return undefined;
  const claim = attributes.object as JsonRecord;
  const old = attributes.oldObject as JsonRecord;
  if (compareQuantities(requestedStorage(claim), requestedStorage(old)) <= 0) return undefined;
  if (stringAt(objectAt(old, 'status'), 'phase') !== 'Bound') return pluginForbidden(attributes, claim, 'Only bound persistent volume claims can be expanded');
  if (!allowResize(claim, old, cluster)) {
    return pluginForbidden(
      attributes,
      claim,
      'only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize',
    );
  }
  return undefined;
}

// allowResize: both versions name the same, non-empty class, which exists and allows expansion.
function allowResize(claim: JsonRecord, old: JsonRecord, cluster: PluginCluster): boolean {
  const name = claimClass(claim);
  if (name === '' || name !== claimClass(old)) return false;
  const storageClass = cluster.list('storage.k8s.io/v1', 'StorageClass', '').find((c: KubeObject) => c.metadata?.name === name);
  return storageClass?.allowVolumeExpansion === true;
}
