import { isRecord as isObject } from '../../kube/json';
import { type JsonRecord } from '../../kube/record';
import { shape, sortedMap } from '../shape';

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
  const sorted: JsonRecord = { ...metadata };
  for (const key of ['labels', 'annotations']) {
    const map = sorted[key];
    if (isObject(map)) sorted[key] = sortedMap(map);
  }
  if (Array.isArray(sorted.ownerReferences)) {
    sorted.ownerReferences = sorted.ownerReferences.map((ref: unknown) => (isObject(ref) ? shape(ref, OWNER_REFERENCE) : ref));
  }
  return shape(sorted, OBJECT_META);
}

/** A top-level object with `order`'s members first, the given defaults filled, and its metadata in order. */
export function typed(object: JsonRecord, order: readonly string[], defaults: JsonRecord = {}): JsonRecord {
  const shaped = shape(object, ['kind', 'apiVersion', 'metadata', ...order], defaults);
  return isObject(shaped.metadata) ? { ...shaped, metadata: objectMeta(shaped.metadata) } : shaped;
}

/** A LabelSelector in field order, its matchLabels sorted as a Go map. */
export function labelSelector(selector: JsonRecord): JsonRecord {
  const matchLabels = selector.matchLabels;
  return shape(isObject(matchLabels) ? { ...selector, matchLabels: sortedMap(matchLabels) } : selector, ['matchLabels', 'matchExpressions']);
}
