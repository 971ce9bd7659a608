/**
 * ObjectMeta validation as the custom-resource strategy runs it (apimachinery
 * pkg/api/validation/objectmeta.go `ValidateObjectMetaAccessor` and `ValidateObjectMetaAccessorUpdate`):
 * on a custom resource's own metadata with NameIsDNSSubdomain, and on every embedded resource's
 * metadata with ValidatePathSegmentName.
 *
 * Covered: name/generateName, namespace, generation, labels, annotations, ownerReferences (the empty
 * members), finalizers; on update the resourceVersion, generation and immutable members. Not covered:
 * managedFields and the ownerReference controller/banned-owner rules.
 */
import { isObject, type Json, type JsonObject } from '../../kube/json';
import type { FieldError } from '../../kube/status';
import { qualifiedNameErrors } from '../../kube/names';
import { invalid, forbidden, required } from '../../kube/field-errors';
import { dns1123LabelErrors } from '../../kube/value-formats';
import { validateAnnotations, validateLabels } from '../validation/labels';
import type { NameValidator } from '../../kube/name-validators';
import type { Path } from '../../kube/field-path';

const str = (meta: JsonObject, name: string): string => (typeof meta[name] === 'string' ? (meta[name] as string) : '');

function stringMap(value: Json | undefined): Record<string, string> | undefined {
  if (!isObject(value)) return undefined;
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

/** `ValidateObjectMetaAccessor(meta, requiresNamespace, nameFn, fldPath)`. */
export function validateObjectMeta(meta: JsonObject, requiresNamespace: boolean, nameFn: NameValidator, path: Path): FieldError[] {
  const errors: FieldError[] = [];
  const generateName = str(meta, 'generateName');
  if (generateName !== '') for (const message of nameFn(generateName, true)) errors.push(invalid(path.child('generateName'), generateName, message));
  const name = str(meta, 'name');
  if (name === '') errors.push(required(path.child('name'), 'name or generateName is required'));
  else for (const message of nameFn(name, false)) errors.push(invalid(path.child('name'), name, message));
  const namespace = str(meta, 'namespace');
  if (requiresNamespace) {
    if (namespace === '') errors.push(required(path.child('namespace')));
    else for (const message of dns1123LabelErrors(namespace)) errors.push(invalid(path.child('namespace'), namespace, message));
  } else if (namespace !== '') errors.push(forbidden(path.child('namespace'), 'not allowed on this type'));
  const generation = typeof meta.generation === 'number' ? meta.generation : 0;
  if (generation < 0) errors.push(invalid(path.child('generation'), generation, 'must be greater than or equal to 0'));
  errors.push(...validateLabels(stringMap(meta.labels), path.child('labels')));
  errors.push(...validateAnnotations(stringMap(meta.annotations), path.child('annotations')));
  errors.push(...validateOwnerReferences(meta.ownerReferences, path.child('ownerReferences')));
  errors.push(...validateFinalizers(meta.finalizers, path.child('finalizers')));
  return errors;
}

/** `ValidateObjectMetaAccessorUpdate(newMeta, oldMeta, fldPath)`. */
export function validateObjectMetaUpdate(meta: JsonObject, old: JsonObject, path: Path): FieldError[] {
  const errors: FieldError[] = [];
  if (old.deletionTimestamp !== undefined && old.deletionTimestamp !== null) {
    const before = new Set(Array.isArray(old.finalizers) ? old.finalizers : []);
    for (const finalizer of Array.isArray(meta.finalizers) ? meta.finalizers : []) {
      if (typeof finalizer === 'string' && !before.has(finalizer)) {
        errors.push(
          forbidden(
            path.child('finalizers'),
            `no new finalizers can be added if the object is being deleted, found new finalizers []string{${JSON.stringify(finalizer)}}`,
          ),
        );
      }
    }
  }
  const resourceVersion = str(meta, 'resourceVersion');
  if (resourceVersion === '') errors.push(invalid(path.child('resourceVersion'), resourceVersion, 'must be specified for an update'));
  const generation = typeof meta.generation === 'number' ? meta.generation : 0;
  const oldGeneration = typeof old.generation === 'number' ? old.generation : 0;
  if (generation < oldGeneration) errors.push(invalid(path.child('generation'), generation, 'must not be decremented'));
  for (const name of ['name', 'namespace', 'uid']) {
    if (str(meta, name) !== str(old, name)) errors.push(invalid(path.child(name), str(meta, name), 'field is immutable'));
  }
  errors.push(...validateLabels(stringMap(meta.labels), path.child('labels')));
  errors.push(...validateAnnotations(stringMap(meta.annotations), path.child('annotations')));
  errors.push(...validateOwnerReferences(meta.ownerReferences, path.child('ownerReferences')));
  return errors;
}

/** `ValidateOwnerReferences`, the members that must not be empty. */
function validateOwnerReferences(references: Json | undefined, path: Path): FieldError[] {
  if (!Array.isArray(references)) return [];
  const errors: FieldError[] = [];
  for (const reference of references) {
    if (!isObject(reference)) continue;
    const apiVersion = str(reference, 'apiVersion');
    const version = apiVersion.includes('/') ? apiVersion.slice(apiVersion.indexOf('/') + 1) : apiVersion;
    if (version === '') errors.push(invalid(path.child('apiVersion'), apiVersion, 'version must not be empty'));
    for (const [name, text] of [
      ['kind', 'must not be empty'],
      ['name', 'must not be empty'],
      ['uid', 'must not be empty'],
    ] as const) {
      if (str(reference, name) === '') errors.push(invalid(path.child(name), '', text));
    }
  }
  return errors;
}

/** `ValidateFinalizers`: qualified names, and not both orphan and foreground deletion. */
function validateFinalizers(finalizers: Json | undefined, path: Path): FieldError[] {
  if (!Array.isArray(finalizers)) return [];
  const names = finalizers.filter((finalizer): finalizer is string => typeof finalizer === 'string');
  const errors = names.flatMap((finalizer) => qualifiedNameErrors(finalizer).map((message) => invalid(path, finalizer, message)));
  if (names.includes('orphan') && names.includes('foregroundDeletion')) {
    errors.push(invalid(path, { marshaled: JSON.stringify(names) }, 'finalizer orphan and foregroundDeletion cannot be both set'));
  }
  return errors;
}
