/**
 * ObjectMeta on create and update: apimachinery api/validation/objectmeta.go (ValidateObjectMetaAccessor,
 * ValidateObjectMetaAccessorUpdate, owner references, finalizers, managed fields), plus core
 * validation's ValidateObjectMeta/ValidateObjectMetaUpdate, which also check each finalizer is a
 * standard name or fully qualified (pkg/apis/core/validation/validation.go, validateKubeFinalizerName).
 */
import type { Json, JsonObject } from '../../kube/json';
import type { FieldError } from '../../kube/status';
import { has, listOf, objectOf, optionalBoolean, optionalNumber, optionalString, stringMapOf, stringOf, stringsOf } from './access';
import { forbidden, invalid, json, required, tooLong } from '../../kube/field-errors';
import { qualifiedNameErrors } from '../../kube/value-formats';
import { validateAnnotations, validateLabels } from './labels';
import { nameIsDnsLabel, type NameValidator } from '../../kube/name-validators';
import { nonNegative } from './numbers';
import type { Path } from '../../kube/field-path';

/** apimachinery validation.FieldImmutableErrorMsg. */
export const FIELD_IMMUTABLE = 'field is immutable';

const STANDARD_FINALIZERS = new Set(['kubernetes', 'orphan', 'foregroundDeletion']);

/** A metav1.OwnerReference as json.Marshal writes it. */
function ownerReferenceValue(reference: JsonObject): Json {
  const out: JsonObject = {
    apiVersion: stringOf(reference, 'apiVersion'),
    kind: stringOf(reference, 'kind'),
    name: stringOf(reference, 'name'),
    uid: stringOf(reference, 'uid'),
  };
  const controller = optionalBoolean(reference, 'controller');
  if (controller !== undefined) out.controller = controller;
  const block = optionalBoolean(reference, 'blockOwnerDeletion');
  if (block !== undefined) out.blockOwnerDeletion = block;
  return out;
}

/** schema.FromAPIVersionAndKind's group and version: an unparsable apiVersion gives neither. */
function groupVersion(apiVersion: string): { group: string; version: string } {
  if (apiVersion === '') return { group: '', version: '' };
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: apiVersion };
  if (parts.length === 2) return { group: parts[0] ?? '', version: parts[1] ?? '' };
  return { group: '', version: '' };
}

/** ValidateOwnerReferences: every error names `metadata.ownerReferences`, not an index. */
export function validateOwnerReferences(references: readonly JsonObject[], path: Path): FieldError[] {
  const errors: FieldError[] = [];
  let firstController = '';
  for (const reference of references) {
    const apiVersion = stringOf(reference, 'apiVersion');
    const kind = stringOf(reference, 'kind');
    const { group, version } = groupVersion(apiVersion);
    if (version === '') errors.push(invalid(path.child('apiVersion'), apiVersion, 'version must not be empty'));
    if (kind === '') errors.push(invalid(path.child('kind'), kind, 'must not be empty'));
    if (stringOf(reference, 'name') === '') errors.push(invalid(path.child('name'), '', 'must not be empty'));
    if (stringOf(reference, 'uid') === '') errors.push(invalid(path.child('uid'), json(''), 'must not be empty'));
    if (group === '' && version === 'v1' && kind === 'Event') {
      errors.push(invalid(path, json(ownerReferenceValue(reference)), `${group}/${version}, Kind=${kind} is disallowed from being an owner`));
    }
    if (optionalBoolean(reference, 'controller') === true) {
      const current = `${kind}/${stringOf(reference, 'name')}`;
      if (firstController !== '') {
        errors.push(
          invalid(
            path,
            json(references.map(ownerReferenceValue)),
            `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${current}`,
          ),
        );
      } else {
        firstController = current;
      }
    }
  }
  return errors;
}

/** ValidateFinalizers: qualified names, and not both orphan and foregroundDeletion. */
export function validateFinalizers(finalizers: string[], path: Path): FieldError[] {
  const errors: FieldError[] = [];
  for (const finalizer of finalizers) errors.push(...qualifiedNameErrors(finalizer).map((message) => invalid(path, finalizer, message)));
  if (finalizers.includes('orphan') && finalizers.includes('foregroundDeletion')) {
    errors.push(invalid(path, json(finalizers), 'finalizer orphan and foregroundDeletion cannot be both set'));
  }
  return errors;
}

/** validateKubeFinalizerName: a finalizer without a '/' must be one of kube's own. */
export function validateKubeFinalizerName(finalizer: string, path: Path): FieldError[] {
  if (finalizer.split('/').length === 1 && !STANDARD_FINALIZERS.has(finalizer)) {
    return [invalid(path, finalizer, 'name is neither a standard finalizer name nor is it fully qualified')];
  }
  return [];
}

/** %#U of a rune that is not printable: `U+0007`. */
function unicodeVerb(codePoint: number): string {
  return `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** ValidateFieldManager. */
function validateFieldManager(manager: string, path: Path): FieldError[] {
  const errors: FieldError[] = [];
  if (Buffer.byteLength(manager, 'utf8') > 128) errors.push(tooLong(path, 128));
  let position = 0;
  for (const ch of manager) {
    const code = ch.codePointAt(0) ?? 0;
    if (!/^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u.test(ch)) errors.push(invalid(path, manager, `invalid character ${unicodeVerb(code)} (at position ${position})`));
    position += Buffer.byteLength(ch, 'utf8');
  }
  return errors;
}

/** ValidateManagedFields. */
export function validateManagedFields(entries: readonly JsonObject[], path: Path): FieldError[] {
  const errors: FieldError[] = [];
  entries.forEach((entry, i) => {
    const at = path.index(i);
    const operation = stringOf(entry, 'operation');
    if (operation !== 'Apply' && operation !== 'Update') errors.push(invalid(at.child('operation'), json(operation), 'must be `Apply` or `Update`'));
    const fieldsType = stringOf(entry, 'fieldsType');
    if (fieldsType.length > 0 && fieldsType !== 'FieldsV1') errors.push(invalid(at.child('fieldsType'), fieldsType, 'must be `FieldsV1`'));
    errors.push(...validateFieldManager(stringOf(entry, 'manager'), at.child('manager')));
    if (Buffer.byteLength(stringOf(entry, 'subresource'), 'utf8') > 256) errors.push(tooLong(at.child('subresource'), 256));
  });
  return errors;
}

/** ValidateNamespaceName (a DNS label), as metadata.namespace is checked. */
const validateNamespaceName: NameValidator = nameIsDnsLabel;

/** validateObjectMetaAccessorWithOptsCommon: what create and the generic checks share. */
function validateCommon(meta: JsonObject, namespaced: boolean, path: Path): FieldError[] {
  const errors: FieldError[] = [];
  const namespace = stringOf(meta, 'namespace');
  if (namespaced) {
    if (namespace === '') errors.push(required(path.child('namespace')));
    else errors.push(...validateNamespaceName(namespace, false).map((message) => invalid(path.child('namespace'), namespace, message)));
  } else if (namespace !== '') {
    errors.push(forbidden(path.child('namespace'), 'not allowed on this type'));
  }
  errors.push(...nonNegative(optionalNumber(meta, 'generation') ?? 0, path.child('generation')));
  errors.push(...validateLabels(stringMapOf(meta, 'labels'), path.child('labels')));
  errors.push(...validateAnnotations(stringMapOf(meta, 'annotations'), path.child('annotations')));
  errors.push(...validateOwnerReferences(listOf(meta, 'ownerReferences'), path.child('ownerReferences')));
  errors.push(...validateFinalizers(stringsOf(meta, 'finalizers'), path.child('finalizers')));
  errors.push(...validateManagedFields(listOf(meta, 'managedFields'), path.child('managedFields')));
  return errors;
}

/**
 * apimachinery ValidateObjectMeta (ValidateObjectMetaAccessor): generateName as a prefix, then the
 * name (`name or generateName is required` when empty), then the common members.
 */
export function validateGenericObjectMeta(meta: JsonObject, namespaced: boolean, nameFn: NameValidator, path: Path): FieldError[] {
  const errors: FieldError[] = [];
  const generateName = stringOf(meta, 'generateName');
  if (generateName !== '') errors.push(...nameFn(generateName, true).map((message) => invalid(path.child('generateName'), generateName, message)));
  const name = stringOf(meta, 'name');
  if (name === '') errors.push(required(path.child('name'), 'name or generateName is required'));
  else errors.push(...nameFn(name, false).map((message) => invalid(path.child('name'), name, message)));
  return [...errors, ...validateCommon(meta, namespaced, path)];
}

/** core ValidateObjectMeta: the generic checks, then each finalizer's kube-specific name rule. */
export function validateObjectMeta(meta: JsonObject, namespaced: boolean, nameFn: NameValidator, path: Path): FieldError[] {
  const errors = validateGenericObjectMeta(meta, namespaced, nameFn, path);
  stringsOf(meta, 'finalizers').forEach((finalizer, i) => errors.push(...validateKubeFinalizerName(finalizer, path.child('finalizers').index(i))));
  return errors;
}

/** metav1.Time as json.Marshal writes it (null for the zero time). */
function timeValue(meta: JsonObject, key: string): Json {
  return optionalString(meta, key) ?? null;
}

function sameTime(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  const x = Date.parse(a);
  const y = Date.parse(b);
  return Number.isNaN(x) || Number.isNaN(y) ? a === b : x === y;
}

/** Go's %#v of a []string, as ValidateNoNewFinalizers prints the new ones. */
function goStringSlice(values: string[]): string {
  return `[]string{${values.map((v) => JSON.stringify(v)).join(', ')}}`;
}

/** apimachinery ValidateObjectMetaAccessorUpdate. */
export function validateGenericObjectMetaUpdate(meta: JsonObject, old: JsonObject, path: Path): FieldError[] {
  const errors: FieldError[] = [];
  if (has(old, 'deletionTimestamp')) {
    const known = new Set(stringsOf(old, 'finalizers'));
    const extra = [...new Set(stringsOf(meta, 'finalizers').filter((f) => !known.has(f)))].sort();
    if (extra.length > 0)
      errors.push(
        forbidden(path.child('finalizers'), `no new finalizers can be added if the object is being deleted, found new finalizers ${goStringSlice(extra)}`),
      );
  }
  const resourceVersion = stringOf(meta, 'resourceVersion');
  if (resourceVersion === '') errors.push(invalid(path.child('resourceVersion'), resourceVersion, 'must be specified for an update'));
  const generation = optionalNumber(meta, 'generation') ?? 0;
  if (generation < (optionalNumber(old, 'generation') ?? 0)) errors.push(invalid(path.child('generation'), generation, 'must not be decremented'));
  const immutable = (key: string, value: Parameters<typeof invalid>[1], same: boolean): void => {
    if (!same) errors.push(invalid(path.child(key), value, FIELD_IMMUTABLE));
  };
  immutable('name', stringOf(meta, 'name'), stringOf(meta, 'name') === stringOf(old, 'name'));
  immutable('namespace', stringOf(meta, 'namespace'), stringOf(meta, 'namespace') === stringOf(old, 'namespace'));
  immutable('uid', json(stringOf(meta, 'uid')), stringOf(meta, 'uid') === stringOf(old, 'uid'));
  immutable(
    'creationTimestamp',
    json(timeValue(meta, 'creationTimestamp')),
    sameTime(optionalString(meta, 'creationTimestamp'), optionalString(old, 'creationTimestamp')),
  );
  immutable(
    'deletionTimestamp',
    json(timeValue(meta, 'deletionTimestamp')),
    sameTime(optionalString(meta, 'deletionTimestamp'), optionalString(old, 'deletionTimestamp')),
  );
  const grace = optionalNumber(meta, 'deletionGracePeriodSeconds');
  immutable('deletionGracePeriodSeconds', grace ?? null, grace === optionalNumber(old, 'deletionGracePeriodSeconds'));
  errors.push(...validateLabels(stringMapOf(meta, 'labels'), path.child('labels')));
  errors.push(...validateAnnotations(stringMapOf(meta, 'annotations'), path.child('annotations')));
  errors.push(...validateOwnerReferences(listOf(meta, 'ownerReferences'), path.child('ownerReferences')));
  errors.push(...validateManagedFields(listOf(meta, 'managedFields'), path.child('managedFields')));
  return errors;
}

/** core ValidateObjectMetaUpdate: the generic update checks, then each finalizer's kube-specific name rule. */
export function validateObjectMetaUpdate(meta: JsonObject, old: JsonObject, path: Path): FieldError[] {
  const errors = validateGenericObjectMetaUpdate(meta, old, path);
  stringsOf(meta, 'finalizers').forEach((finalizer, i) => errors.push(...validateKubeFinalizerName(finalizer, path.child('finalizers').index(i))));
  return errors;
}

/** The metadata of an object (an empty one when it has none). */
export function metadataOf(object: JsonObject): JsonObject {
  return objectOf(object, 'metadata') ?? {};
}
