/**
 * What the custom-resource strategy validates before a create or update is stored
 * (apiextensions-apiserver pkg/registry/customresource/strategy.go `Validate`, `ValidateUpdate`,
 * status_strategy.go `ValidateUpdate`, validator.go), in its order:
 *
 * 1. apiVersion and kind (when the kind is given) — failing them skips the rest of this step;
 *    the custom resource's ObjectMeta (when its scope is given); the schema's value validations
 *    (kube-openapi; ratcheted on update); the scale subresource's replicas (and label selector) fields;
 * 2. embedded resources' TypeMeta and ObjectMeta (not on the status subresource);
 * 3. list-type set/map uniqueness (on update only when the old object had no such error);
 * 4. x-kubernetes-validations rules — unless an earlier error is of a type that makes them
 *    unreliable (Unsupported value, Required value, Too long, Too many, a wrong type), in which case a
 *    single `<nil>: Invalid value: "null": some validation rules were not checked because the object
 *    was invalid; correct the existing errors to complete validation` stands for them.
 *
 * kube-apiserver answers a non-empty list with 422 `<Kind>.<group> "<name>" is invalid: <errors>`
 * (lib/kube/status.ts `invalid`).
 */
import { isObject, type JsonObject } from '../../kube/json';
import { HarnessError } from '../../errors';
import type { FieldError } from '../../kube/status';
import { celModule } from '../../cel/runtime';
import { goQuote } from '../../go/strconv';
import { qualifiedNameErrors } from '../../kube/names';
import { invalid } from '../../kube/field-errors';
import { nameIsDnsSubdomain } from '../../kube/name-validators';
import { Path } from '../../kube/field-path';
import { Correlation, type Ratcheting } from './cel/correlation';
import { validateRules } from './cel/validate';
import { validateEmbeddedResources } from './embedded';
import { at } from './field-path';
import { validateListTypes } from './list-type';
import { validateObjectMeta, validateObjectMetaUpdate } from './object-meta-validation';
import { toFieldErrors } from './openapi/field-errors';
import { RatchetNode } from './openapi/ratchet';
import { validateValue } from './openapi/validator';
import { validateScaleSpec, validateScaleStatus, type ScaleSubresource } from './scale';
import type { StructuralSchema } from './schema-node';

/** What the strategy knows besides the schema; each check runs only when its input is given. */
export interface CustomResourceValidationOptions {
  /** The served kind: `kind` and `apiVersion` must match it (ValidateTypeMeta). */
  kind?: { group: string; version: string; kind: string };
  /**
   * The CRD's scope: validates the resource's own ObjectMeta (ValidateObjectMetaAccessor with
   * NameIsDNSSubdomain on create, ValidateObjectMetaAccessorUpdate on update). Left out, ObjectMeta is
   * not validated here (the shared registry validation may do it).
   */
  namespaced?: boolean;
  /** A write through the status subresource (statusStrategy). */
  subresource?: 'status';
  /** The version's `subresources.scale`. */
  scale?: ScaleSubresource;
}

export interface CustomResourceValidation {
  errors: FieldError[];
  /** Warnings kube-apiserver returns with a successful write (ratcheted rule failures, finalizer names). */
  warnings: string[];
}

const BLOCKING = new Set(['FieldValueNotSupported', 'FieldValueRequired', 'FieldValueTooLong', 'FieldValueTooMany', 'FieldValueTypeInvalid']);

/**
 * Validation errors for a create (`old` null) or an update, in kube's order, as FieldErrors. Schemas
 * with x-kubernetes-validations need CEL: `await prepareCustomResourceValidation(schema)` once first.
 */
export function validateCustomResource(
  schema: StructuralSchema,
  object: JsonObject,
  old: JsonObject | null,
  options: CustomResourceValidationOptions = {},
): FieldError[] {
  return customResourceValidation(schema, object, old, options).errors;
}

/** validateCustomResource with the warnings of a write that passes. */
export function customResourceValidation(
  schema: StructuralSchema,
  object: JsonObject,
  old: JsonObject | null,
  options: CustomResourceValidationOptions = {},
): CustomResourceValidation {
  if (schema.hasRules) requireCel();
  const status = options.subresource === 'status';
  const errors: FieldError[] = [];

  const typeMeta = validateTypeMeta(object, options.kind);
  if (typeMeta.length > 0) errors.push(...typeMeta);
  else {
    const meta = isObject(object.metadata) ? object.metadata : {};
    const oldMeta = old && isObject(old.metadata) ? old.metadata : {};
    const metadata = Path.of('metadata');
    if (options.namespaced !== undefined) {
      if (old) errors.push(...validateObjectMetaUpdate(meta, oldMeta, metadata));
      else errors.push(...validateObjectMeta(meta, options.namespaced, nameIsDnsSubdomain, metadata));
    }
    const result = old ? validateValueRatcheting(schema, object, old) : validateValue(schema.root, '', object);
    errors.push(...toFieldErrors(result.errors));
    if (!status) errors.push(...validateScaleSpec(object, options.scale));
    errors.push(...validateScaleStatus(object, options.scale));
  }

  if (!status) errors.push(...validateEmbeddedResources(schema.root, object));
  const listErrors = validateListTypes(schema.root, object);
  // On update the list invariants ratchet as a whole: they are only enforced if the old object met them.
  if (listErrors.length > 0 && (!old || validateListTypes(schema.root, old).length === 0)) errors.push(...listErrors);

  // The status strategy has no warnings of its own.
  const warnings = status ? [] : finalizerWarnings(object, old);
  if (schema.hasRules) {
    if (errors.some((error) => BLOCKING.has(error.type))) {
      errors.push(
        invalid(at(''), null, 'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation'),
      );
    } else {
      const ratcheting: Ratcheting = old ? { current: new Correlation(object, old, schema.root) } : {};
      const rules = validateRules(schema.root, object, old ?? undefined, ratcheting);
      errors.push(...rules.errors);
      warnings.push(...rules.warnings);
    }
  }
  return { errors, warnings };
}

/** `ValidateCustomResourceUpdate` with ratcheting: errors of unchanged fields are dropped. */
function validateValueRatcheting(schema: StructuralSchema, object: JsonObject, old: JsonObject) {
  const root = new RatchetNode(object, old);
  const result = validateValue(schema.root, '', object, root);
  if (result.valid || !root.unchanged()) return result;
  return { errors: [] };
}

/** validator.go `ValidateTypeMeta`. */
function validateTypeMeta(object: JsonObject, kind: CustomResourceValidationOptions['kind']): FieldError[] {
  if (!kind) return [];
  const errors: FieldError[] = [];
  const actualKind = typeof object.kind === 'string' ? object.kind : '';
  const apiVersion = typeof object.apiVersion === 'string' ? object.apiVersion : '';
  const expected = `${kind.group}/${kind.version}`;
  if (actualKind !== kind.kind) errors.push(invalid(Path.of('kind'), actualKind, `must be ${kind.kind}`));
  if (apiVersion !== expected) errors.push(invalid(Path.of('apiVersion'), apiVersion, `must be ${expected}`));
  return errors;
}

const STANDARD_FINALIZERS = new Set(['orphan', 'foregroundDeletion', 'kubernetes']);

/** strategy.go `WarningsOnCreate`/`WarningsOnUpdate` (`validateKubeFinalizerName`): added finalizers that are no qualified name or have no domain path. */
function finalizerWarnings(object: JsonObject, old: JsonObject | null): string[] {
  const list = (value: JsonObject | null) => {
    const meta = value && isObject(value.metadata) ? value.metadata : undefined;
    return Array.isArray(meta?.finalizers) ? meta.finalizers.filter((f): f is string => typeof f === 'string') : [];
  };
  const before = new Set(list(old));
  const added = [...new Set(list(object))].filter((finalizer) => !before.has(finalizer)).sort();
  return added.flatMap((finalizer) => {
    const at = `metadata.finalizers: ${goQuote(finalizer)}`;
    const warnings = qualifiedNameErrors(finalizer).map((message) => `${at}: ${message}`);
    if (!finalizer.includes('/') && !STANDARD_FINALIZERS.has(finalizer)) {
      warnings.push(`${at}: prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers`);
    }
    return warnings;
  });
}

function requireCel(): void {
  try {
    celModule();
  } catch {
    throw new HarnessError(
      'USAGE',
      'this custom resource schema has x-kubernetes-validations rules, which need the CEL library, not loaded yet',
      'await prepareCustomResourceValidation(schema) once before validating custom resources of this schema',
    );
  }
}
