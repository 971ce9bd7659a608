/** ConfigMap (core validation ValidateConfigMap, ValidateConfigMapUpdate). */
import type { JsonObject } from '../../kube/json';
import type { FieldError } from '../../kube/status';
import { objectOf, sortedEntries } from './access';
import { forbidden, invalid, tooLong } from '../../kube/field-errors';
import { configMapKeyErrors } from '../../kube/value-formats';
import { nameIsDnsSubdomain } from '../../kube/name-validators';
import { metadataOf, validateObjectMeta, validateObjectMetaUpdate } from './object-meta';
import { Path } from '../../kube/field-path';
import { semanticEqualAt } from '../equality';

/** core.MaxSecretSize: data and binaryData together at most 1 MiB. */
export const MAX_SECRET_SIZE = 1024 * 1024;

const METADATA = Path.of('metadata');

/** Bytes of a []byte member as JSON carries it (base64). */
export function base64Length(value: unknown): number {
  return typeof value === 'string' ? Buffer.from(value, 'base64').length : 0;
}

/** ValidateConfigMap. The size error names the whole object, which prints as `[]`. */
export function validateConfigMap(object: JsonObject): FieldError[] {
  const errors = validateObjectMeta(metadataOf(object), true, nameIsDnsSubdomain, METADATA);
  const data = objectOf(object, 'data');
  const binary = objectOf(object, 'binaryData');
  let size = 0;
  for (const [key, value] of sortedEntries(data)) {
    errors.push(...configMapKeyErrors(key).map((message) => invalid(Path.of('data').key(key), key, message)));
    if (binary && key in binary) errors.push(invalid(Path.of('data').key(key), key, 'duplicate of key present in binaryData'));
    size += typeof value === 'string' ? Buffer.byteLength(value, 'utf8') : 0;
  }
  for (const [key, value] of sortedEntries(binary)) {
    errors.push(...configMapKeyErrors(key).map((message) => invalid(Path.of('binaryData').key(key), key, message)));
    size += base64Length(value);
  }
  if (size > MAX_SECRET_SIZE) errors.push(tooLong(Path.of(''), MAX_SECRET_SIZE));
  return errors;
}

/** ValidateConfigMapUpdate: an immutable ConfigMap keeps its data. */
export function validateConfigMapUpdate(object: JsonObject, old: JsonObject): FieldError[] {
  const errors = validateObjectMetaUpdate(metadataOf(object), metadataOf(old), METADATA);
  if (old.immutable === true) {
    if (object.immutable !== true) errors.push(forbidden(Path.of('immutable'), 'field is immutable when `immutable` is set'));
    // reflect.DeepEqual: a nil and an empty map differ here.
    if (
      JSON.stringify(sortedEntries(objectOf(object, 'data'))) !== JSON.stringify(sortedEntries(objectOf(old, 'data'))) ||
      (object.data === undefined) !== (old.data === undefined)
    ) {
      errors.push(forbidden(Path.of('data'), 'field is immutable when `immutable` is set'));
    }
    if (
      !semanticEqualAt('io.k8s.api.core.v1.ConfigMap', 'binaryData', object.binaryData, old.binaryData) ||
      (object.binaryData === undefined) !== (old.binaryData === undefined)
    ) {
      errors.push(forbidden(Path.of('binaryData'), 'field is immutable when `immutable` is set'));
    }
  }
  return [...errors, ...validateConfigMap(object)];
}
