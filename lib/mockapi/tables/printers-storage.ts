import type { Json } from '../../kube/json';
import { AGE_COLUMN, NAME_COLUMN, ageCell, column, doc, nameCell } from './columns';
import { list, optional, text } from './fields';
import type { Printer } from './printer';
import { quantityText } from './printers-autoscaling';

/*
 * printers.go (kubernetes pkg/printers/internalversion) for storage and node kinds: printVolumeAttachment,
 * printCSINode, printCSIDriver, printCSIStorageCapacity and printRuntimeClass.
 */

/** A *bool of the spec: its value, `otherwise` when unset. */
const flag = (value: Json | undefined, otherwise: boolean): boolean => (typeof value === 'boolean' ? value : otherwise);

const ATTACHMENT_SPEC = 'storage.k8s.io/v1/VolumeAttachmentSpec';

export const volumeAttachments: Printer = {
  columns: [
    NAME_COLUMN,
    // printers.go gives this column the name format too.
    column('Attacher', 'string', doc(ATTACHMENT_SPEC, 'attacher'), { format: 'name' }),
    column('PV', 'string', doc('storage.k8s.io/v1/VolumeAttachmentSource', 'persistentVolumeName')),
    column('Node', 'string', doc(ATTACHMENT_SPEC, 'nodeName')),
    column('Attached', 'boolean', doc('storage.k8s.io/v1/VolumeAttachmentStatus', 'attached')),
    AGE_COLUMN,
  ],
  row: (object, now) => ({
    cells: [
      nameCell(object),
      text(object, 'spec', 'attacher'),
      text(object, 'spec', 'source', 'persistentVolumeName'),
      text(object, 'spec', 'nodeName'),
      optional(object, 'status', 'attached') === true,
      ageCell(object, now),
    ],
  }),
};

export const csiNodes: Printer = {
  columns: [NAME_COLUMN, column('Drivers', 'integer', 'Drivers indicates the number of CSI drivers registered on the node'), AGE_COLUMN],
  row: (object, now) => ({ cells: [nameCell(object), list(object, 'spec', 'drivers').length, ageCell(object, now)] }),
};

const DRIVER_SPEC = 'storage.k8s.io/v1/CSIDriverSpec';

export const csiDrivers: Printer = {
  columns: [
    NAME_COLUMN,
    column('AttachRequired', 'boolean', doc(DRIVER_SPEC, 'attachRequired')),
    column('PodInfoOnMount', 'boolean', doc(DRIVER_SPEC, 'podInfoOnMount')),
    column('StorageCapacity', 'boolean', doc(DRIVER_SPEC, 'storageCapacity')),
    column('TokenRequests', 'string', doc(DRIVER_SPEC, 'tokenRequests')),
    column('RequiresRepublish', 'boolean', doc(DRIVER_SPEC, 'requiresRepublish')),
    column('Modes', 'string', doc(DRIVER_SPEC, 'volumeLifecycleModes')),
    AGE_COLUMN,
  ],
  row: (object, now) => {
    const tokenRequests = optional(object, 'spec', 'tokenRequests');
    const modes = list(object, 'spec', 'volumeLifecycleModes').map((mode) => (typeof mode === 'string' ? mode : ''));
    return {
      cells: [
        nameCell(object),
        flag(optional(object, 'spec', 'attachRequired'), true),
        flag(optional(object, 'spec', 'podInfoOnMount'), false),
        flag(optional(object, 'spec', 'storageCapacity'), false),
        Array.isArray(tokenRequests) ? tokenRequests.map((request) => text(request, 'audience')).join(',') : '<unset>',
        flag(optional(object, 'spec', 'requiresRepublish'), false),
        modes.join(',') || '<none>',
        ageCell(object, now),
      ],
    };
  },
};

const CAPACITY = 'storage.k8s.io/v1/CSIStorageCapacity';

export const csiStorageCapacities: Printer = {
  columns: [NAME_COLUMN, column('StorageClassName', 'string', doc(CAPACITY, 'storageClassName')), column('Capacity', 'string', doc(CAPACITY, 'capacity'))],
  row: (object) => {
    const capacity = optional(object, 'capacity');
    return { cells: [nameCell(object), text(object, 'storageClassName'), capacity === undefined ? '<unset>' : quantityText(capacity)] };
  },
};

export const runtimeClasses: Printer = {
  // The Handler column's description is `metav1.ObjectMeta{}.SwaggerDoc()["handler"]`, a key ObjectMeta lacks: "".
  columns: [NAME_COLUMN, column('Handler', 'string', ''), AGE_COLUMN],
  row: (object, now) => ({ cells: [nameCell(object), text(object, 'handler'), ageCell(object, now)] }),
};
