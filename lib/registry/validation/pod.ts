/**
 * Pods and pod templates: ValidatePodCreate and ValidatePodUpdate (the pod strategy's Validate and
 * ValidateUpdate, pkg/registry/core/pod/strategy.go), and ValidatePodTemplateSpec, which the workload
 * kinds apply to their templates.
 */
import { cloneJson, type JsonObject } from '../../kube/json';
import type { FieldError } from '../../kube/status';
import { listOf, objectOf, optionalNumber, stringMapOf, stringOf } from './access';
import { imageWhitespace } from './containers';
import { forbidden, invalid, json, required } from '../../kube/field-errors';
import { goMap } from '../../go/json-marshal';
import { inclusiveRangeError } from '../../kube/value-formats';
import { validateAnnotations, validateLabels } from './labels';
import { nameIsDnsSubdomain } from '../../kube/name-validators';
import { MAX_INT32 } from './numbers';
import { metadataOf, validateObjectMeta, validateObjectMetaUpdate } from './object-meta';
import { Path } from '../../kube/field-path';
import {
  validateAppArmorAnnotationsAndFields,
  validatePodAnnotations,
  validatePodAnnotationUpdates,
  validateSeccompAnnotationsAndFields,
} from './pod-annotations';
import { validatePodSpec, type PodSpecOptions } from './pod-spec';
import { validateTolerations } from './scheduling';
import { semanticEqualAt } from '../equality';
import { podSpecDiff } from './spec-diff';

const METADATA = Path.of('metadata');
const SPEC = Path.of('spec');
const POD_SPEC_DEFINITION = 'io.k8s.api.core.v1.PodSpec';

/** validatePodMetadataAndSpec: what pod create and update both check. */
function validatePodMetadataAndSpec(pod: JsonObject, allowPrivileged: boolean): FieldError[] {
  const meta = metadataOf(pod);
  const spec = objectOf(pod, 'spec') ?? {};
  const errors = validateObjectMeta(meta, true, nameIsDnsSubdomain, METADATA);
  errors.push(...validatePodAnnotations(stringMapOf(meta, 'annotations'), spec, METADATA.child('annotations')));
  const name = stringOf(meta, 'name');
  errors.push(...validatePodSpec(spec, name === '' ? undefined : name, SPEC, { allowPrivileged, resourceIsPod: true }));
  if (stringOf(spec, 'serviceAccountName') === '' && stringOf(spec, 'serviceAccount') === '') {
    listOf(spec, 'volumes').forEach((volume, i) => {
      listOf(objectOf(volume, 'projected'), 'sources').forEach((source, j) => {
        if (objectOf(source, 'serviceAccountToken')) {
          errors.push(
            forbidden(
              SPEC.child('volumes').index(i).child('projected').child('sources').index(j).child('serviceAccountToken'),
              'must not be specified when serviceAccountName is not set',
            ),
          );
        }
      });
    });
  }
  for (const key of ['containers', 'initContainers'])
    listOf(spec, key).forEach((container, i) => errors.push(...imageWhitespace(container, SPEC.child(key).index(i))));
  return errors;
}

/** ValidatePodCreate. */
export function validatePodCreate(pod: JsonObject, allowPrivileged: boolean): FieldError[] {
  const errors = validatePodMetadataAndSpec(pod, allowPrivileged);
  const spec = objectOf(pod, 'spec') ?? {};
  if (listOf(spec, 'ephemeralContainers').length > 0) errors.push(forbidden(SPEC.child('ephemeralContainers'), 'cannot be set on create'));
  if (stringOf(spec, 'nodeName') !== '' && listOf(spec, 'schedulingGates').length !== 0)
    errors.push(forbidden(SPEC.child('nodeName'), 'cannot be set until all schedulingGates have been cleared'));
  errors.push(...validateSeccompAnnotationsAndFields(metadataOf(pod), spec, SPEC));
  errors.push(...validateAppArmorAnnotationsAndFields(metadataOf(pod), spec, SPEC));
  return errors;
}

/** ValidateContainerUpdates: the same number of containers, each with an image; `stop` when the count changed. */
function validateContainerUpdates(containers: readonly JsonObject[], old: readonly JsonObject[], path: Path): { errors: FieldError[]; stop: boolean } {
  if (containers.length !== old.length) return { errors: [forbidden(path, 'pod updates may not add or remove containers')], stop: true };
  const errors: FieldError[] = [];
  containers.forEach((container, i) => {
    const image = stringOf(container, 'image');
    if (image === '') errors.push(required(path.index(i).child('image')));
    if (image.trim().length !== image.length) errors.push(invalid(path.index(i).child('image'), image, 'must not have leading or trailing whitespace'));
  });
  return { errors, stop: false };
}

/** The internal Toleration compared with reflect.DeepEqual (strings default to ""). */
function sameToleration(a: JsonObject, b: JsonObject, ignoreSeconds: boolean): boolean {
  return (
    ['key', 'operator', 'value', 'effect'].every((k) => stringOf(a, k) === stringOf(b, k)) &&
    (ignoreSeconds || optionalNumber(a, 'tolerationSeconds') === optionalNumber(b, 'tolerationSeconds'))
  );
}

/** validateOnlyAddedTolerations. */
function validateOnlyAddedTolerations(tolerations: readonly JsonObject[], old: readonly JsonObject[], path: Path): FieldError[] {
  for (const previous of old) {
    if (!tolerations.some((t) => sameToleration(previous, t, true)))
      return [forbidden(path, 'existing toleration can not be modified except its tolerationSeconds')];
  }
  return validateTolerations(tolerations, path);
}

/** validateOnlyDeletedSchedulingGates. */
function validateOnlyDeletedSchedulingGates(gates: readonly JsonObject[], old: readonly JsonObject[], path: Path): FieldError[] {
  const known = new Set(old.map((g) => stringOf(g, 'name')));
  const added = new Map<string, number>();
  gates.forEach((gate, i) => added.set(stringOf(gate, 'name'), i));
  return [...added]
    .filter(([name]) => !known.has(name))
    .sort(([, a], [, b]) => a - b)
    .map(([name, i]) => forbidden(path.index(i).child('name'), `only deletion is allowed, but found new scheduling gate '${name}'`));
}

/** The fields a pod update may change, as the Forbidden error lists them (updatablePodSpecFields). */
const UPDATABLE_POD_SPEC_FIELDS = [
  '`spec.containers[*].image`',
  '`spec.initContainers[*].image`',
  '`spec.activeDeadlineSeconds`',
  '`spec.tolerations` (only additions to existing tolerations)',
  '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
];

/** The text before the diff in the pod update error. */
export const POD_UPDATE_FORBIDDEN_PREFIX = `pod updates may not change fields other than ${UPDATABLE_POD_SPEC_FIELDS.join(',')}`;

/** The gated-pod rule for nodeSelector: only additions (validateNodeSelectorMutation). */
function nodeSelectorMutation(selector: Record<string, string> | undefined, old: Record<string, string> | undefined, path: Path): FieldError[] {
  for (const [key, value] of Object.entries(old ?? {})) {
    if (selector?.[key] !== value)
      return [invalid(path, json(goMap(selector ?? {})), 'only additions to spec.nodeSelector are allowed (no mutations or deletions)')];
  }
  return [];
}

/** ValidatePodUpdate. */
export function validatePodUpdate(pod: JsonObject, old: JsonObject, allowPrivileged: boolean): FieldError[] {
  const errors = validateObjectMetaUpdate(metadataOf(pod), metadataOf(old), METADATA);
  errors.push(...validatePodMetadataAndSpec(pod, allowPrivileged));
  errors.push(...validatePodAnnotationUpdates(pod, old, METADATA.child('annotations')));
  const spec = objectOf(pod, 'spec') ?? {};
  const oldSpec = objectOf(old, 'spec') ?? {};
  for (const key of ['containers', 'initContainers']) {
    const result = validateContainerUpdates(listOf(spec, key), listOf(oldSpec, key), SPEC.child(key));
    errors.push(...result.errors);
    if (result.stop) return errors;
  }
  const deadline = optionalNumber(spec, 'activeDeadlineSeconds');
  const oldDeadline = optionalNumber(oldSpec, 'activeDeadlineSeconds');
  if (deadline !== undefined) {
    if (deadline < 0 || deadline > MAX_INT32) return [...errors, invalid(SPEC.child('activeDeadlineSeconds'), deadline, inclusiveRangeError(0, MAX_INT32))];
    if (oldDeadline !== undefined && oldDeadline < deadline)
      return [...errors, invalid(SPEC.child('activeDeadlineSeconds'), deadline, 'must be less than or equal to previous value')];
  } else if (oldDeadline !== undefined) {
    errors.push(invalid(SPEC.child('activeDeadlineSeconds'), null, 'must not update from a positive integer to nil value'));
  }
  errors.push(...validateOnlyAddedTolerations(listOf(spec, 'tolerations'), listOf(oldSpec, 'tolerations'), SPEC.child('tolerations')));
  errors.push(...validateOnlyDeletedSchedulingGates(listOf(spec, 'schedulingGates'), listOf(oldSpec, 'schedulingGates'), SPEC.child('schedulingGates')));
  if (semanticEqualAt(POD_SPEC_DEFINITION, undefined, spec, oldSpec)) return errors;

  // Put back what an update may change, then anything left over is a forbidden change.
  const munged = cloneJson(spec);
  for (const key of ['containers', 'initContainers']) {
    const oldContainers = listOf(oldSpec, key);
    if (Array.isArray(munged[key])) munged[key] = listOf(munged, key).map((c, i) => ({ ...c, image: oldContainers[i]?.image ?? null }));
  }
  munged.activeDeadlineSeconds = oldSpec.activeDeadlineSeconds ?? null;
  munged.schedulingGates = oldSpec.schedulingGates ?? null;
  munged.tolerations = oldSpec.tolerations ?? null;
  const oldGrace = optionalNumber(oldSpec, 'terminationGracePeriodSeconds');
  if (oldGrace !== undefined && oldGrace < 0 && munged.terminationGracePeriodSeconds === 1) munged.terminationGracePeriodSeconds = oldGrace;
  if (listOf(oldSpec, 'schedulingGates').length > 0 && !semanticEqualAt(POD_SPEC_DEFINITION, 'nodeSelector', munged.nodeSelector, oldSpec.nodeSelector)) {
    errors.push(...nodeSelectorMutation(stringMapOf(munged, 'nodeSelector'), stringMapOf(oldSpec, 'nodeSelector'), SPEC.child('nodeSelector')));
    munged.nodeSelector = oldSpec.nodeSelector ?? null;
  }
  if (!semanticEqualAt(POD_SPEC_DEFINITION, undefined, munged, oldSpec))
    errors.push(forbidden(SPEC, `${POD_UPDATE_FORBIDDEN_PREFIX}\n${podSpecDiff(oldSpec, munged)}`));
  return errors;
}

/**
 * ValidatePodTemplateSpec. Note upstream's paths: the template's labels and annotations are reported as
 * `<path>.labels` / `<path>.annotations`, without `metadata`.
 */
export function validatePodTemplateSpec(template: JsonObject, path: Path, options: PodSpecOptions): FieldError[] {
  const meta = objectOf(template, 'metadata') ?? {};
  const spec = objectOf(template, 'spec') ?? {};
  const annotations = stringMapOf(meta, 'annotations');
  const errors = validateLabels(stringMapOf(meta, 'labels'), path.child('labels'));
  errors.push(...validateAnnotations(annotations, path.child('annotations')));
  errors.push(...validatePodAnnotations(annotations, spec, path.child('annotations')));
  errors.push(...validatePodSpec(spec, undefined, path.child('spec'), options));
  errors.push(...validateSeccompAnnotationsAndFields(meta, spec, path.child('spec')));
  errors.push(...validateAppArmorAnnotationsAndFields(meta, spec, path.child('spec')));
  if (listOf(spec, 'ephemeralContainers').length > 0)
    errors.push(forbidden(path.child('spec', 'ephemeralContainers'), 'ephemeral containers not allowed in pod template'));
  return errors;
}
