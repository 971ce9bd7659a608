/**
 * Which pod updates PodSecurity evaluates (admission.go isSignificantPodUpdate). Most of a running pod's
 * spec is immutable, so only the changes that can alter a check's outcome count: a container added or
 * removed, a container's image, a container's seccomp annotation, an ephemeral container added (the
 * `ephemeralcontainers` subresource). Anything else — labels, annotations, status, a resize — is allowed
 * without evaluation.
 */
import { isRecord } from '../../kube/json';
import type { JsonRecord } from '../../kube/record';
import { containerName, listMember, member, stringMap, stringMember } from './pod-json';

const SECCOMP_CONTAINER_ANNOTATION_PREFIX = 'container.seccomp.security.alpha.kubernetes.io/';

function significantContainerUpdate(
  container: JsonRecord,
  old: JsonRecord,
  annotations: Record<string, string>,
  oldAnnotations: Record<string, string>,
): boolean {
  if (stringMember(container, 'image') !== stringMember(old, 'image')) return true;
  const key = SECCOMP_CONTAINER_ANNOTATION_PREFIX + containerName(container);
  return (annotations[key] ?? '') !== (oldAnnotations[key] ?? '');
}

export function isSignificantPodUpdate(pod: JsonRecord, oldPod: JsonRecord): boolean {
  const spec = member(pod, 'spec');
  const oldSpec = member(oldPod, 'spec');
  const annotations = stringMap(member(pod, 'metadata'), 'annotations');
  const oldAnnotations = stringMap(member(oldPod, 'metadata'), 'annotations');
  for (const list of ['containers', 'initContainers']) {
    const now = listMember(spec, list).filter(isRecord);
    const before = listMember(oldSpec, list).filter(isRecord);
    if (now.length !== before.length) return true;
    // Paired by position, as the lists cannot be reordered on a running pod.
    if (now.some((container, i) => significantContainerUpdate(container, before[i] ?? {}, annotations, oldAnnotations))) return true;
  }
  const oldEphemeral = listMember(oldSpec, 'ephemeralContainers').filter(isRecord);
  for (const container of listMember(spec, 'ephemeralContainers').filter(isRecord)) {
    const old = oldEphemeral.find((o) => containerName(o) === containerName(container));
    if (old === undefined || significantContainerUpdate(container, old, annotations, oldAnnotations)) return true;
  }
  return false;
}
