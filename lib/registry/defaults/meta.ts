import type { JsonRecord } from '../../kube/record';
import { at, each, shape, sortedMap } from '../shape';

// metav1.ObjectMeta's field order.
const OBJECT_META = [
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
];

const OWNER_REFERENCE = ['apiVersion', 'kind', 'name', 'uid', 'controller', 'blockOwnerDeletion'];

/** ObjectMeta in field order, with labels and annotations sorted as Go maps are. */
export function objectMeta(metadata: JsonRecord): JsonRecord {
  let sorted = at(at(metadata, 'labels', sortedMap), 'annotations', sortedMap);
  sorted = each(sorted, 'ownerReferences', (ref) => shape(ref, OWNER_REFERENCE));
  return shape(sorted, OBJECT_META);
}

/** A top-level object with `order`'s members first, the given defaults filled, and its metadata in order. */
export function typed(object: JsonRecord, order: readonly string[], defaults: JsonRecord = {}): JsonRecord {
  const shaped = shape(object, ['kind', 'apiVersion', 'metadata', ...order], defaults);
  return at(shaped, 'metadata', objectMeta);
}

/** A LabelSelector in field order, its matchLabels sorted as a Go map. */
export function labelSelector(selector: JsonRecord): JsonRecord {
  return shape(at(selector, 'matchLabels', sortedMap), ['matchLabels', 'matchExpressions']);
}
