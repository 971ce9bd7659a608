/**
 * Conversion of built-in objects between the versions kube-apiserver serves them at, as its scheme's
 * conversion functions do (k8s.io/kubernetes pkg/apis/<group>/<version>/conversion.go). In 1.36 the only
 * built-in resource served at two versions by default is autoscaling's horizontalpodautoscalers (v2 and
 * v1, stored as v2), so that is the only conversion here; every other built-in kind is served at one
 * version, where moving an object between versions only relabels it.
 */
import type { GroupVersionKind, KubeObject } from '../admission';
import { splitApiVersion } from '../api-version';
import { convertHorizontalPodAutoscaler, HPA_VERSIONS } from './hpa';

export { HPA_VERSIONS } from './hpa';

const isHorizontalPodAutoscaler = (group: string, version: string, kind: string | undefined): boolean =>
  group === 'autoscaling' && kind === 'HorizontalPodAutoscaler' && HPA_VERSIONS.includes(version);

/** True when kube-apiserver converts `kind`'s objects between versions with functions of its own (not by relabelling). */
export function hasBuiltinConversion(kind: GroupVersionKind): boolean {
  return isHorizontalPodAutoscaler(kind.group, kind.version, kind.kind);
}

/**
 * `object` converted to `kind` by kube-apiserver's conversion functions, or undefined when kube has
 * none for it (another kind, or a version it does not serve): callers then relabel. An object already
 * at `kind` comes back itself.
 */
export function convertBuiltinObject(object: KubeObject, kind: GroupVersionKind): KubeObject | undefined {
  const [group, version] = splitApiVersion(object.apiVersion ?? '');
  if (!isHorizontalPodAutoscaler(group, version, object.kind) || !hasBuiltinConversion(kind) || group !== kind.group) return undefined;
  if (version === kind.version) return object;
  return convertHorizontalPodAutoscaler(object, version, kind.version);
}

/**
 * `object` (of a kind `hasBuiltinConversion` answers for, at a version it serves) through the internal
 * version and back to its own, as decoding then encoding it does: the form storage writes. Undefined
 * for every other object.
 */
export function roundTripBuiltinObject(object: KubeObject): KubeObject | undefined {
  const [group, version] = splitApiVersion(object.apiVersion ?? '');
  if (!isHorizontalPodAutoscaler(group, version, object.kind)) return undefined;
  return convertHorizontalPodAutoscaler(object, version, version);
}

/**
 * `object` in the form kube-apiserver's handlers hold it before encoding (the internal version): for an HPA,
 * autoscaling/v2's shape, without the annotations autoscaling/v1's encoding keeps v2's fields in; every other
 * object as it is. What a handler makes of that form itself (a Table's cells, a PartialObjectMetadata) reads it.
 */
export function internalShaped(object: KubeObject): KubeObject {
  const [group, version] = splitApiVersion(object.apiVersion ?? '');
  if (!isHorizontalPodAutoscaler(group, version, object.kind)) return object;
  return convertHorizontalPodAutoscaler(object, version, 'v2');
}
