import { objectAt } from '../kube/record';
import { newestDefaultClass } from './default-class';
import { acts, notInvolved, type Involvement } from './involved';
import type { MutationPlugin, PluginAttributes } from './plugin';
import { isRequestFor } from './refusing-plugin';

// pkg/volume/util/storageclass.go: the annotations marking a default StorageClass (the beta one still counts).
const IS_DEFAULT = 'storageclass.kubernetes.io/is-default-class';
const BETA_IS_DEFAULT = 'storageclass.beta.kubernetes.io/is-default-class';
// core v1 BetaStorageClassAnnotation: a claim carrying it has asked for a class, whatever its value.
const BETA_CLAIM_CLASS = 'volume.beta.kubernetes.io/storage-class';

/** DefaultStorageClass acts on PersistentVolumeClaim creates. */
export function defaultStorageClassInvolvement(attributes: PluginAttributes): Involvement {
  if (!isRequestFor(attributes, 'CREATE', '', 'persistentvolumeclaims')) return notInvolved('handles only PersistentVolumeClaim creates');
  return acts("a claim naming no storage class gets the cluster's default StorageClass (if one is marked)");
}

/**
 * DefaultStorageClass (plugin/pkg/admission/storage/storageclass/setdefault), seventh in the mutation
 * phase: a created PersistentVolumeClaim that names no class (no `spec.storageClassName`, not even "",
 * and no beta class annotation) gets the cluster's default StorageClass, the newest when several are
 * marked default; nothing when none is. Reads the cluster's StorageClasses.
 */
export const defaultStorageClass: MutationPlugin = {
  name: 'DefaultStorageClass',
  admit({ attributes, object, cluster }) {
    if (!cluster || !defaultStorageClassInvolvement(attributes).involved) return undefined;
    // helper.PersistentVolumeClaimHasClass: the annotation's presence, or a non-nil storageClassName.
    const annotations = objectAt(objectAt(object, 'metadata'), 'annotations');
    const spec = objectAt(object, 'spec');
    if (BETA_CLAIM_CLASS in annotations || (spec.storageClassName !== undefined && spec.storageClassName !== null)) return undefined;
    const found = newestDefaultClass(cluster.list('storage.k8s.io/v1', 'StorageClass', ''), (a) => a[IS_DEFAULT] === 'true' || a[BETA_IS_DEFAULT] === 'true');
    const name = found?.metadata?.name;
    if (name === undefined) return undefined;
    return { ...object, spec: { ...spec, storageClassName: name } };
  },
};
