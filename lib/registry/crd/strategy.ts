/**
 * What the custom-resource strategy changes before validating a write (apiextensions-apiserver
 * pkg/registry/customresource/strategy.go `PrepareForCreate`/`PrepareForUpdate`, status_strategy.go
 * `PrepareForUpdate`):
 *
 * - with a status subresource, a create drops `status`, and an update of the main resource keeps the
 *   old `status` (or none), while an update through `/status` keeps everything of the old object but
 *   `status` and `metadata.managedFields`;
 * - a create sets `metadata.generation` to 1; an update increments it when anything outside
 *   `metadata` changed.
 */
import { cloneJson, isObject, jsonEqual, type JsonObject } from '../../kube/json';

export interface StrategyOptions {
  /** Whether the served version has a status subresource. */
  statusSubresource: boolean;
}

function withGeneration(object: JsonObject, generation: number): JsonObject {
  const metadata = isObject(object.metadata) ? object.metadata : {};
  return { ...object, metadata: { ...metadata, generation } };
}

/** `PrepareForCreate`. */
export function prepareCustomResourceForCreate(object: JsonObject, options: StrategyOptions): JsonObject {
  const copy = cloneJson(object);
  if (options.statusSubresource) delete copy.status;
  return withGeneration(copy, 1);
}

function nonMetadata(object: JsonObject): JsonObject {
  const { metadata: _metadata, ...rest } = object;
  return rest;
}

/** `PrepareForUpdate` of the main resource. */
export function prepareCustomResourceForUpdate(object: JsonObject, old: JsonObject, options: StrategyOptions): JsonObject {
  const copy = cloneJson(object);
  if (options.statusSubresource) {
    if (Object.hasOwn(old, 'status')) copy.status = cloneJson(old.status ?? null);
    else delete copy.status;
  }
  const oldGeneration = isObject(old.metadata) && typeof old.metadata.generation === 'number' ? old.metadata.generation : 0;
  return jsonEqual(nonMetadata(copy), nonMetadata(old)) ? copy : withGeneration(copy, oldGeneration + 1);
}

/** status_strategy.go `PrepareForUpdate`: only `status` (and managedFields) come from the new object. */
export function prepareCustomResourceStatusUpdate(object: JsonObject, old: JsonObject): JsonObject {
  const copy = cloneJson(old);
  const metadata = isObject(copy.metadata) ? copy.metadata : {};
  const managedFields = isObject(object.metadata) ? object.metadata.managedFields : undefined;
  if (Array.isArray(managedFields) && managedFields.length > 0) metadata.managedFields = cloneJson(managedFields);
  else delete metadata.managedFields;
  copy.metadata = metadata;
  if (Object.hasOwn(object, 'status')) copy.status = cloneJson(object.status ?? null);
  else delete copy.status;
  return copy;
}
