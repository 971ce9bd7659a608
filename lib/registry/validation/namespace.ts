/** Namespace and ServiceAccount (core validation ValidateNamespace, ValidateServiceAccount and their updates). */
import type { JsonObject } from '../../kube/json';
import type { FieldError } from '../../kube/status';
import { objectOf, stringsOf } from './access';
import { invalid } from '../../kube/field-errors';
import { qualifiedNameErrors } from '../../kube/value-formats';
import { nameIsDnsLabel, nameIsDnsSubdomain } from '../../kube/name-validators';
import { metadataOf, validateKubeFinalizerName, validateObjectMeta, validateObjectMetaUpdate } from './object-meta';
import { Path } from '../../kube/field-path';

const METADATA = Path.of('metadata');

/** ValidateNamespace: a cluster-scoped DNS label; spec.finalizers (all reported at `spec.finalizers`). */
export function validateNamespace(object: JsonObject): FieldError[] {
  const errors = validateObjectMeta(metadataOf(object), false, nameIsDnsLabel, METADATA);
  const path = Path.of('spec', 'finalizers');
  for (const finalizer of stringsOf(objectOf(object, 'spec'), 'finalizers')) {
    errors.push(...qualifiedNameErrors(finalizer).map((message) => invalid(path, finalizer, message)));
    errors.push(...validateKubeFinalizerName(finalizer, path));
  }
  return errors;
}

/** ValidateNamespaceUpdate: metadata only. */
export function validateNamespaceUpdate(object: JsonObject, old: JsonObject): FieldError[] {
  return validateObjectMetaUpdate(metadataOf(object), metadataOf(old), METADATA);
}

/** ValidateServiceAccount. */
export function validateServiceAccount(object: JsonObject): FieldError[] {
  return validateObjectMeta(metadataOf(object), true, nameIsDnsSubdomain, METADATA);
}

/** ValidateServiceAccountUpdate. */
export function validateServiceAccountUpdate(object: JsonObject, old: JsonObject): FieldError[] {
  return [...validateObjectMetaUpdate(metadataOf(object), metadataOf(old), METADATA), ...validateServiceAccount(object)];
}
