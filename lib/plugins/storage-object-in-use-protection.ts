import { objectAt } from '../kube/record';
import { acts, notInvolved, type Involvement } from './involved';
import type { MutationPlugin, PluginAttributes } from './plugin';
import { isRequestFor } from './refusing-plugin';

// pkg/volume/util: the finalizers the protection controllers remove once nothing uses the object.
export const PROTECTION_FINALIZERS: readonly (readonly [group: string, resource: string, finalizer: string])[] = [
  ['', 'persistentvolumes', 'kubernetes.io/pv-protection'],
  ['', 'persistentvolumeclaims', 'kubernetes.io/pvc-protection'],
  // Behind the VolumeAttributesClass gate upstream, GA (on) since v1.34.
  ['storage.k8s.io', 'volumeattributesclasses', 'kubernetes.io/vac-protection'],
];

/** The protected kind a request creates, with its finalizer; undefined when the plugin does not act. */
function protectedCreate(attributes: PluginAttributes): (typeof PROTECTION_FINALIZERS)[number] | undefined {
  return PROTECTION_FINALIZERS.find(([group, resource]) => isRequestFor(attributes, 'CREATE', group, resource));
}

/** StorageObjectInUseProtection acts on creates of the kinds it protects. */
export function storageObjectInUseProtectionInvolvement(attributes: PluginAttributes): Involvement {
  const entry = protectedCreate(attributes);
  if (!entry) return notInvolved('handles only PersistentVolume, PersistentVolumeClaim and VolumeAttributesClass creates');
  return acts(`appends the ${entry[2]} finalizer`);
}

/**
 * StorageObjectInUseProtection (plugin/pkg/admission/storage/storageobjectinuseprotection), eighth in
 * the mutation phase: a created PersistentVolume, PersistentVolumeClaim or VolumeAttributesClass gets
 * its protection finalizer appended, unless it already has it. Reads nothing from the cluster.
 */
export const storageObjectInUseProtection: MutationPlugin = {
  name: 'StorageObjectInUseProtection',
  admit({ attributes, object }) {
    const entry = protectedCreate(attributes);
    if (!entry) return undefined;
    const finalizer = entry[2];
    const metadata = objectAt(object, 'metadata');
    const finalizers = Array.isArray(metadata.finalizers) ? (metadata.finalizers as unknown[]) : [];
    if (finalizers.includes(finalizer)) return undefined;
    return { ...object, metadata: { ...metadata, finalizers: [...finalizers, finalizer] } };
  },
};
