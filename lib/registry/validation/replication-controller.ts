/**
 * ReplicationController and PodTemplate (core validation ValidateReplicationController,
 * ValidatePodTemplateSpecForRC, ValidatePodTemplate and their updates).
 */
import type { JsonObject } from '../../kube/json';
import type { FieldError } from '../../kube/status';
import { has, numberOf, objectOf, stringMapOf, stringOf } from './access';
import { forbidden, invalid, json, notSupported, required } from '../../kube/field-errors';
import { goMap } from '../../go/json-marshal';
import { nameIsDnsSubdomain } from '../../kube/name-validators';
import { nonNegative } from './numbers';
import { metadataOf, validateObjectMeta, validateObjectMetaUpdate } from './object-meta';
import { Path } from '../../kube/field-path';
import { validatePodTemplateSpec } from './pod';

const METADATA = Path.of('metadata');

/** ValidateReplicationControllerSpec. */
function validateSpec(spec: JsonObject, allowPrivileged: boolean, path: Path): FieldError[] {
  const errors = nonNegative(numberOf(spec, 'minReadySeconds'), path.child('minReadySeconds'));
  const selector = stringMapOf(spec, 'selector') ?? {};
  const selectorEmpty = Object.keys(selector).length === 0;
  if (selectorEmpty) errors.push(required(path.child('selector')));
  errors.push(...nonNegative(numberOf(spec, 'replicas'), path.child('replicas')));
  const template = objectOf(spec, 'template');
  const templatePath = path.child('template');
  if (!template) return [...errors, required(templatePath)];
  const labels = stringMapOf(objectOf(template, 'metadata'), 'labels');
  if (!selectorEmpty && !Object.entries(selector).every(([k, v]) => labels?.[k] === v)) {
    errors.push(invalid(templatePath.child('metadata', 'labels'), json(labels ? goMap(labels) : null), '`selector` does not match template `labels`'));
  }
  errors.push(...validatePodTemplateSpec(template, templatePath, { allowPrivileged, resourceIsPod: false }));
  const podSpec = objectOf(template, 'spec') ?? {};
  const restartPolicy = stringOf(podSpec, 'restartPolicy');
  if (restartPolicy !== 'Always') errors.push(notSupported(templatePath.child('spec', 'restartPolicy'), json(restartPolicy), ['Always']));
  if (has(podSpec, 'activeDeadlineSeconds'))
    errors.push(forbidden(templatePath.child('spec', 'activeDeadlineSeconds'), 'activeDeadlineSeconds in ReplicationController is not Supported'));
  return errors;
}

export function validateReplicationController(object: JsonObject, allowPrivileged: boolean): FieldError[] {
  return [
    ...validateObjectMeta(metadataOf(object), true, nameIsDnsSubdomain, METADATA),
    ...validateSpec(objectOf(object, 'spec') ?? {}, allowPrivileged, Path.of('spec')),
  ];
}

export function validateReplicationControllerUpdate(object: JsonObject, old: JsonObject, allowPrivileged: boolean): FieldError[] {
  return [
    ...validateObjectMetaUpdate(metadataOf(object), metadataOf(old), METADATA),
    ...validateSpec(objectOf(object, 'spec') ?? {}, allowPrivileged, Path.of('spec')),
  ];
}

export function validatePodTemplate(object: JsonObject, allowPrivileged: boolean): FieldError[] {
  return [
    ...validateObjectMeta(metadataOf(object), true, nameIsDnsSubdomain, METADATA),
    ...validatePodTemplateSpec(objectOf(object, 'template') ?? {}, Path.of('template'), { allowPrivileged, resourceIsPod: false }),
  ];
}

export function validatePodTemplateUpdate(object: JsonObject, old: JsonObject, allowPrivileged: boolean): FieldError[] {
  return [
    ...validateObjectMetaUpdate(metadataOf(object), metadataOf(old), METADATA),
    ...validatePodTemplateSpec(objectOf(object, 'template') ?? {}, Path.of('template'), { allowPrivileged, resourceIsPod: false }),
  ];
}
