import { objectAt } from '../kube/record';
import type { MutationPlugin } from './plugin';
import { isRequestFor } from './refusing-plugin';

// pkg/volume/util: the finalizers the protection controllers remove once nothing uses the object.
export const PROTECTION_FINALIZERS: readonly (readonly [group: string, resource: string, finalizer: string])[] = [
  ['', 'persistentvolumes', 'kubernetes.io/pv-protection'],
  ['', 'persistentvolumeclaims', 'kubernetes.io/pvc-protection'],
  // Behind the VolumeAttributesClass gate upstream, GA (on) since v1.34.
  ['storage.k8s.io', 'volumeattributesclasses', 'kubernetes.io/vac-protection'],
];

/**
 * StorageObjectInUseProtection (plugin/pkg/admission/storage/storageobjectinuseprotection), eighth in
 * the mutation phase: a created PersistentVolume, PersistentVolumeClaim or VolumeAttributesClass gets
 * its protection finalizer appended, unless it already has it. Reads nothing from the cluster.
 */
export const storageObjectInUseProtection: MutationPlugin = {
  name: 'StorageObjectInUseProtection',
  admit({ attributes, object }) {
    const entry = PROTECTION_FINALIZERS.find(([group, resource]) => isRequestFor(attributes, 'CREATE', group, resource));
    if (!entry) return undefined;
    const finalizer = entry[2];
    const metadata = objectAt(object, 'metadata');
    const finalizers = Array.isArray(metadata.finalizers) ? (metadata.finalizers as unknown[]) : [];
    if (finalizers.includes(finalizer)) return undefined;
    return { ...object, metadata: { ...metadata, finalizers: [...finalizers, finalizer] } };
  },
};
