/**
 * The annotations a pod (or pod template) is validated for (core validation
 * ValidatePodSpecificAnnotations, ValidatePodSpecificAnnotationUpdates, ValidateSeccompPodAnnotations,
 * ValidateAppArmorPodAnnotations, and the seccomp/AppArmor annotation-vs-field checks).
 */
import { isObject, type JsonObject } from '../../kube/json';
import type { FieldError } from '../../kube/status';
import { listOf, objectOf, optionalString, sortedEntries, stringMapOf, stringOf } from './access';
import { visitContainers } from './visit-containers';
import { forbidden, invalid } from '../../kube/field-errors';
import { goUnmarshalError } from './go-unmarshal';
import type { Path } from '../../kube/field-path';
import { validateLocalDescendingPath } from './paths-local';
import { validateTolerations } from './scheduling';

const MIRROR_POD = 'kubernetes.io/config.mirror';
const TOLERATIONS = 'scheduler.alpha.kubernetes.io/tolerations';
const DELETION_COST = 'controller.kubernetes.io/pod-deletion-cost';
const SECCOMP_POD = 'seccomp.security.alpha.kubernetes.io/pod';
const SECCOMP_CONTAINER_PREFIX = 'container.seccomp.security.alpha.kubernetes.io/';
const APPARMOR_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';

/** helper.GetDeletionCostFromPodAnnotations's acceptance: a canonical int32. */
function isDeletionCost(value: string): boolean {
  const first = value.charAt(0);
  const firstDigitOk = value.length > 0 && (first === '-' || value === '0' || (first >= '1' && first <= '9'));
  if (!firstDigitOk || !/^-?[0-9]+$/.test(value)) return false;
  const n = Number(value);
  return n >= -2147483648 && n <= 2147483647;
}

/** ValidateSeccompProfile (the deprecated annotations' values). */
function validateSeccompAnnotation(profile: string, path: Path): FieldError[] {
  if (profile === 'runtime/default' || profile === 'docker/default' || profile === 'unconfined') return [];
  if (profile.startsWith('localhost/')) return validateLocalDescendingPath(profile.slice('localhost/'.length), path);
  return [invalid(path, profile, 'must be a valid seccomp profile')];
}

/** The names of all the pod's containers (podSpecHasContainer). */
function containerNames(spec: JsonObject): Set<string> {
  return new Set(['initContainers', 'containers', 'ephemeralContainers'].flatMap((key) => listOf(spec, key).map((c) => stringOf(c, 'name'))));
}

/** ValidatePodSpecificAnnotations. Map order is random upstream; sorted here. */
export function validatePodAnnotations(annotations: Readonly<Record<string, string>> | undefined, spec: JsonObject, path: Path): FieldError[] {
  const errors: FieldError[] = [];
  const map = annotations ?? {};
  if (MIRROR_POD in map && stringOf(spec, 'nodeName') === '')
    errors.push(invalid(path.key(MIRROR_POD), map[MIRROR_POD] ?? '', 'must set spec.nodeName if mirror pod annotation is set'));
  const tolerations = map[TOLERATIONS];
  if (tolerations !== undefined && tolerations !== '') {
    const problem = goUnmarshalError(
      tolerations,
      '[]core.Toleration',
      (value) => value === null || (Array.isArray(value) && value.every((t) => t === null || isObject(t))),
    );
    if (problem !== undefined) errors.push(invalid(path, TOLERATIONS, problem));
    else {
      const parsed: unknown = JSON.parse(tolerations);
      const list = Array.isArray(parsed) ? parsed.filter(isObject) : [];
      if (list.length > 0) errors.push(...validateTolerations(list, path.child(TOLERATIONS)));
    }
  }
  // PodDeletionCost is on by default: an invalid cost is refused.
  const cost = map[DELETION_COST];
  if (cost !== undefined && !isDeletionCost(cost)) errors.push(invalid(path.key(DELETION_COST), cost, 'must be a 32bit integer'));
  if (SECCOMP_POD in map) errors.push(...validateSeccompAnnotation(map[SECCOMP_POD] ?? '', path.child(SECCOMP_POD)));
  for (const [key, value] of sortedEntries(map))
    if (key.startsWith(SECCOMP_CONTAINER_PREFIX)) errors.push(...validateSeccompAnnotation(value, path.child(key)));
  const names = containerNames(spec);
  for (const [key, value] of sortedEntries(map)) {
    if (!key.startsWith(APPARMOR_PREFIX)) continue;
    const container = key.slice(APPARMOR_PREFIX.length);
    if (!names.has(container)) errors.push(invalid(path.key(key), container, 'container not found'));
    if (value !== '' && value !== 'runtime/default' && value !== 'unconfined' && !value.startsWith('localhost/')) {
      errors.push(invalid(path.key(key), value, `invalid AppArmor profile name: ${JSON.stringify(value)}`));
    }
  }
  return errors;
}

/** ValidatePodSpecificAnnotationUpdates: AppArmor and mirror annotations are fixed at creation. */
export function validatePodAnnotationUpdates(pod: JsonObject, old: JsonObject, path: Path): FieldError[] {
  const errors: FieldError[] = [];
  const annotations = stringMapOf(objectOf(pod, 'metadata'), 'annotations') ?? {};
  const oldAnnotations = stringMapOf(objectOf(old, 'metadata'), 'annotations') ?? {};
  for (const [key, value] of sortedEntries(oldAnnotations)) {
    if (key in annotations && annotations[key] === value) continue;
    if (key.startsWith(APPARMOR_PREFIX)) errors.push(forbidden(path.key(key), 'may not remove or update AppArmor annotations'));
    if (key === MIRROR_POD) errors.push(forbidden(path.key(key), 'may not remove or update mirror pod annotation'));
  }
  for (const [key] of sortedEntries(annotations)) {
    if (key in oldAnnotations) continue;
    if (key.startsWith(APPARMOR_PREFIX)) errors.push(forbidden(path.key(key), 'may not add AppArmor annotations'));
    if (key === MIRROR_POD) errors.push(forbidden(path.key(key), 'may not add mirror pod annotation'));
  }
  errors.push(...validatePodAnnotations(annotations, objectOf(pod, 'spec') ?? {}, path));
  return errors;
}

/** validateSeccompAnnotationsAndFieldsMatch. */
function seccompMismatch(annotation: string, profile: JsonObject, path: Path): FieldError | undefined {
  const type = stringOf(profile, 'type');
  if (type === 'Unconfined' && annotation !== 'unconfined') return forbidden(path.child('type'), 'seccomp type in annotation and field must match');
  if (type === 'RuntimeDefault' && annotation !== 'runtime/default' && annotation !== 'docker/default')
    return forbidden(path.child('type'), 'seccomp type in annotation and field must match');
  if (type === 'Localhost') {
    if (!annotation.startsWith('localhost/')) return forbidden(path.child('type'), 'seccomp type in annotation and field must match');
    if (optionalString(profile, 'localhostProfile') !== annotation.slice('localhost/'.length))
      return forbidden(path.child('localhostProfile'), 'seccomp profile in annotation and field must match');
  }
  return undefined;
}

/** validateSeccompAnnotationsAndFields: where both an annotation and a field say something, they must agree. */
export function validateSeccompAnnotationsAndFields(meta: JsonObject, spec: JsonObject, path: Path): FieldError[] {
  const errors: FieldError[] = [];
  const annotations = stringMapOf(meta, 'annotations') ?? {};
  const podProfile = objectOf(objectOf(spec, 'securityContext'), 'seccompProfile');
  const podAnnotation = annotations[SECCOMP_POD];
  if (podProfile && podAnnotation !== undefined) {
    const mismatch = seccompMismatch(podAnnotation, podProfile, path.child('securityContext').child('seccompProfile'));
    if (mismatch) errors.push(mismatch);
  }
  visitContainers(spec, path, (container, at) => {
    const profile = objectOf(objectOf(container, 'securityContext'), 'seccompProfile');
    const annotation = annotations[`${SECCOMP_CONTAINER_PREFIX}${stringOf(container, 'name')}`];
    if (!profile || annotation === undefined) return;
    const mismatch = seccompMismatch(annotation, profile, at().child('securityContext').child('seccompProfile'));
    if (mismatch) errors.push(mismatch);
  });
  return errors;
}

/** validateAppArmorAnnotationsAndFieldsMatchOnCreate (skipped for Windows pods). */
export function validateAppArmorAnnotationsAndFields(meta: JsonObject, spec: JsonObject, path: Path): FieldError[] {
  if (stringOf(objectOf(spec, 'os'), 'name') === 'windows') return [];
  const errors: FieldError[] = [];
  const annotations = stringMapOf(meta, 'annotations') ?? {};
  const podProfile = objectOf(objectOf(spec, 'securityContext'), 'appArmorProfile');
  visitContainers(spec, path, (container, at) => {
    const profile = objectOf(objectOf(container, 'securityContext'), 'appArmorProfile') ?? podProfile;
    if (!profile) return;
    const annotation = annotations[`${APPARMOR_PREFIX}${stringOf(container, 'name')}`];
    if (annotation === undefined) return;
    const at2 = at().child('securityContext').child('appArmorProfile');
    const type = stringOf(profile, 'type');
    if (type === 'Unconfined' && annotation !== 'unconfined') errors.push(forbidden(at2.child('type'), 'apparmor type in annotation and field must match'));
    else if (type === 'RuntimeDefault' && annotation !== 'runtime/default')
      errors.push(forbidden(at2.child('type'), 'apparmor type in annotation and field must match'));
    else if (type === 'Localhost') {
      if (!annotation.startsWith('localhost/')) errors.push(forbidden(at2.child('type'), 'apparmor type in annotation and field must match'));
      else if (optionalString(profile, 'localhostProfile') !== annotation.slice('localhost/'.length))
        errors.push(forbidden(at2.child('localhostProfile'), 'apparmor profile in annotation and field must match'));
    }
  });
  return errors;
}
