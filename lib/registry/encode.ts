import type { KubeObject } from '../kube/admission';
import { isRecord } from '../kube/json';
import { isUnstructured } from '../kube/unstructured';
import { objectMeta } from './defaults/meta';
import { sortedDeep } from './shape';

/**
 * `object` as kube-apiserver serializes it: metadata in ObjectMeta's field order, or, for a custom
 * resource (an unstructured map), every member sorted as Go writes maps.
 */
export function canonical(object: KubeObject): KubeObject {
  if (isUnstructured(object.apiVersion)) return sortedDeep(object) as KubeObject;
  return isRecord(object.metadata) ? { ...object, metadata: objectMeta(object.metadata) } : object;
}
