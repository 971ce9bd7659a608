import type { JsonObject } from '../kube/json';
import type { JsonRecord } from '../kube/record';
import type { FieldError } from '../kube/status';
import { prepareCustomResourceForCreate, prepareCustomResourceForUpdate, structuralSchema, validateCustomResource } from './crd';
import { validateCreate, validateUpdate, type KindInfo } from './validation';

/** The kind of the object being validated, its scope, and for a custom resource whether it has a status subresource. */
export type ValidatedKind = KindInfo & { statusSubresource?: boolean };

/**
 * The strategy's Validate (old null) or ValidateUpdate, as kube-apiserver runs it between mutating and
 * validating admission: the built-in kinds' rules (lib/registry/validation); for a custom resource its
 * strategy's PrepareForCreate/Update, then its CRD's schema, list types and CEL rules (lib/registry/crd).
 */
export function validateObject(
  kind: ValidatedKind,
  object: JsonRecord,
  old: JsonRecord | null,
  schema: unknown,
  options: { allowPrivileged: boolean },
): FieldError[] {
  const typed = object as JsonObject;
  if (schema === undefined) return old ? validateUpdate(kind, typed, old as JsonObject, options) : validateCreate(kind, typed, options);
  const strategy = { statusSubresource: kind.statusSubresource ?? false };
  const prepared = old ? prepareCustomResourceForUpdate(typed, old as JsonObject, strategy) : prepareCustomResourceForCreate(typed, strategy);
  return validateCustomResource(structuralSchema(schema), prepared, (old as JsonObject | null) ?? null, {
    kind: { group: kind.group, version: kind.version, kind: kind.kind },
    namespaced: kind.namespaced,
  });
}
