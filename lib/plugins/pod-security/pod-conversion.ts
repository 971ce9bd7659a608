/**
 * Whether ValidatePod can read the request's object as a Pod. The in-tree plugin converts the internal
 * object to its v1 type before admission.go's ValidatePod sees it (plugin/pkg/admission/security/
 * podsecurity/admission.go, lazyConvertingAttributes and convert): only the kinds PodSecurity knows
 * convert, so a pod subresource carrying anything but a Pod (say, a Scale) fails there, and ValidatePod
 * answers that error as 400 `failed to decode object`.
 */
import { isRecord } from '../../kube/json';
import type { JsonRecord } from '../../kube/record';
import type { AdmissionAttributes } from '../../kube/attributes';
import { stringMember } from './pod-json';

/** Go's `%v` of convert()'s error for a missing object (`%T` of a nil interface). */
export const NIL_OBJECT_ERROR = 'unexpected type <nil>';

/**
 * The API group and kind of the object kube-apiserver decoded: the object's own apiVersion and kind,
 * else (a body that leaves them out) the request's kind.
 */
function decodedKind(object: JsonRecord, requestKind: AdmissionAttributes['kind']): { group: string; kind: string } {
  const apiVersion = stringMember(object, 'apiVersion');
  const kind = stringMember(object, 'kind');
  if (apiVersion === '' || kind === '') return { group: requestKind.group, kind: requestKind.kind };
  const slash = apiVersion.indexOf('/');
  return { group: slash < 0 ? '' : apiVersion.slice(0, slash), kind };
}

/**
 * convert()'s error for an object ValidatePod cannot take, else undefined: Go's `unexpected type %T`
 * of the internal object, `*<package>.<Kind>` with the group's internal package (`core` for the legacy
 * group, else the group's first label: `*autoscaling.Scale`, `*policy.Eviction`).
 */
export function podConversionError(object: unknown, requestKind: AdmissionAttributes['kind']): string | undefined {
  if (!isRecord(object)) return NIL_OBJECT_ERROR;
  const { group, kind } = decodedKind(object, requestKind);
  if (group === '' && kind === 'Pod') return undefined;
  return `unexpected type *${group === '' ? 'core' : group.split('.')[0]}.${kind}`;
}
