import type { JsonObject } from '../../kube/json';
import { AGE_COLUMN, CONTAINERS_COLUMN, IMAGES_COLUMN, NAME_COLUMN, ageCell, column, doc, nameCell } from './columns';
import { integer, list, optional, text } from './fields';
import { accessModes, containerCells, formatLabels } from './format';
import type { Printer } from './printer';

/*
 * printers.go (kubernetes pkg/printers/internalversion) for older core kinds: printPodTemplate,
 * printReplicationController and printPersistentVolume.
 */

export const podTemplates: Printer = {
  columns: [
    NAME_COLUMN,
    column('Containers', 'string', 'Names of each container in the template.'),
    column('Images', 'string', 'Images referenced by each container in the template.'),
    column('Pod Labels', 'string', 'The labels for the pod template.'),
  ],
  row: (object) => {
    const [names, images] = containerCells(list(object, 'template', 'spec', 'containers'));
    return { cells: [nameCell(object), names, images, formatLabels(optional(object, 'template', 'metadata', 'labels'))] };
  },
};

export const replicationControllers: Printer = {
  columns: [
    NAME_COLUMN,
    column('Desired', 'integer', doc('v1/ReplicationControllerSpec', 'replicas')),
    column('Current', 'integer', doc('v1/ReplicationControllerStatus', 'replicas')),
    column('Ready', 'integer', doc('v1/ReplicationControllerStatus', 'readyReplicas')),
    AGE_COLUMN,
    CONTAINERS_COLUMN,
    IMAGES_COLUMN,
    column('Selector', 'string', doc('v1/ReplicationControllerSpec', 'selector'), { priority: 1 }),
  ],
  row: (object, now) => {
    const [names, images] = containerCells(list(object, 'spec', 'template', 'spec', 'containers'));
    return {
      cells: [
        nameCell(object),
        integer(object, 'spec', 'replicas'),
        integer(object, 'status', 'replicas'),
        integer(object, 'status', 'readyReplicas'),
        ageCell(object, now),
        names,
        images,
        formatLabels(optional(object, 'spec', 'selector')),
      ],
    };
  },
};

/** helper.GetPersistentVolumeClass: the beta annotation first, then spec.storageClassName. */
function volumeClass(volume: JsonObject): string {
  const annotation = optional(volume, 'metadata', 'annotations', 'volume.beta.kubernetes.io/storage-class');
  return typeof annotation === 'string' ? annotation : text(volume, 'spec', 'storageClassName');
}

const PV_SPEC = 'v1/PersistentVolumeSpec';
export const persistentVolumes: Printer = {
  columns: [
    NAME_COLUMN,
    column('Capacity', 'string', doc(PV_SPEC, 'capacity')),
    column('Access Modes', 'string', doc(PV_SPEC, 'accessModes')),
    column('Reclaim Policy', 'string', doc(PV_SPEC, 'persistentVolumeReclaimPolicy')),
    column('Status', 'string', doc('v1/PersistentVolumeStatus', 'phase')),
    column('Claim', 'string', doc(PV_SPEC, 'claimRef')),
    column('StorageClass', 'string', 'StorageClass of the pv'),
    column('VolumeAttributesClass', 'string', 'VolumeAttributesClass of the pv'),
    column('Reason', 'string', doc('v1/PersistentVolumeStatus', 'reason')),
    AGE_COLUMN,
    column('VolumeMode', 'string', doc(PV_SPEC, 'volumeMode'), { priority: 1 }),
  ],
  row: (object, now) => {
    const claim = optional(object, 'spec', 'claimRef');
    const attributesClass = optional(object, 'spec', 'volumeAttributesClassName');
    const volumeMode = optional(object, 'spec', 'volumeMode');
    return {
      cells: [
        nameCell(object),
        text(object, 'spec', 'capacity', 'storage') || '0',
        accessModes(list(object, 'spec', 'accessModes')),
        text(object, 'spec', 'persistentVolumeReclaimPolicy'),
        optional(object, 'metadata', 'deletionTimestamp') !== undefined ? 'Terminating' : text(object, 'status', 'phase'),
        claim === undefined ? '' : `${text(claim, 'namespace')}/${text(claim, 'name')}`,
        volumeClass(object),
        typeof attributesClass === 'string' ? attributesClass : '<unset>',
        text(object, 'status', 'reason'),
        ageCell(object, now),
        typeof volumeMode === 'string' ? volumeMode : '<unset>',
      ],
    };
  },
};
