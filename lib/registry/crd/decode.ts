/**
 * What kube-apiserver's decoder does to a custom resource, around the JSON unmarshalling
 * (apiextensions-apiserver pkg/apiserver/customresource_handler.go `unstructuredSchemaCoercer.apply`,
 * objectmeta/algorithm.go `Coerce`):
 *
 * 1. `metadata` is read as typed ObjectMeta (unknown members dropped, see object-meta.ts);
 * 2. the object is pruned by the schema (prune-fields.ts), then non-nullable nulls without a default
 *    are removed;
 * 3. every `x-kubernetes-embedded-resource` object gets the same ObjectMeta treatment, and its
 *    `apiVersion` and `kind` must be strings;
 * 4. `apiVersion`, `kind` and the typed `metadata` are written back.
 *
 * It runs on request bodies (errors fail the request), on objects read back from storage (malformed
 * metadata members are dropped instead) and after a conversion between versions. It does **not** run
 * after a mutating webhook's patch: kube-apiserver decodes the patched JSON with a plain serializer and
 * only defaults it, so unknown fields a webhook adds are still there for the next webhooks and the
 * validating admission, and disappear when the object is read back from storage (the create/update
 * response and every later read).
 */
import { cloneJson, isObject, type Json, type JsonObject } from '../../kube/json';
import { invalid } from '../../kube/field-errors';
import { compareBytes } from '../../go/json-marshal';
import { at, child, index, key } from './field-path';
import { applyDefaults, pruneNonNullableNulls } from './default';
import { readObjectMeta } from './object-meta';
import { badValue, goTypeName, goValueText } from './openapi/go-values';
import { pruneFields } from './prune-fields';
import type { SchemaNode, StructuralSchema } from './schema-node';

/** A custom resource after the decoder's coercion. */
export interface CoercedCustomResource {
  object: JsonObject;
  /**
   * Fields that were dropped, as strict field validation reports them (`unknown field "<path>"`):
   * unknown metadata members first, then pruned fields (sorted), then embedded metadata members.
   */
  pruned: string[];
}

/** The decoder's coercion failed (a 400 for a request body): the Go error text. */
export interface CoercionFailure {
  error: string;
}

/**
 * Structural pruning as a custom resource read back from storage gets it: unknown fields dropped
 * unless `x-kubernetes-preserve-unknown-fields` keeps them, `metadata` (at the root and in embedded
 * resources) reduced to ObjectMeta's members, malformed metadata members dropped. Never fails: an
 * object kube-apiserver could not read back at all (metadata that is no object, a kind that is no
 * string) still gets its fields pruned. The object is copied; `pruned` lists what went.
 */
export function pruneCustomResource(schema: StructuralSchema, object: JsonObject): { object: JsonObject; pruned: string[] } {
  const coerced = coerce(schema, object, true);
  if (!('error' in coerced)) return coerced;
  const copy = cloneJson(object);
  const pruned: string[] = [];
  pruneFields(copy, schema.root, true, pruned);
  pruneNonNullableNulls(copy, schema.root);
  return { object: copy, pruned: pruned.sort(compareBytes) };
}

/**
 * A request body as kube-apiserver decodes it before admission: coerced (pruned, metadata typed) and
 * then defaulted. A malformed `metadata`, `apiVersion` or `kind` fails, with the Go error text the
 * handler wraps in its 400 (`<Kind> in version "<v>" cannot be handled as a <Kind>: <error>`).
 */
export function decodeCustomResource(schema: StructuralSchema, object: JsonObject): CoercedCustomResource | CoercionFailure {
  const coerced = coerce(schema, object, false);
  if ('error' in coerced) return coerced;
  applyDefaults(coerced.object, schema.root);
  return coerced;
}

/** unstructured.NestedString's error for a member that is not a string. */
function accessorError(name: string, value: Json): string {
  return `.${name} accessor error: ${goValueText(value)} is of the type ${goTypeName(value)}, expected string`;
}

/** `unstructuredSchemaCoercer.apply`, on a copy. */
export function coerce(schema: StructuralSchema, original: JsonObject, dropInvalidMetadata: boolean): CoercedCustomResource | CoercionFailure {
  const object = cloneJson(original);
  for (const name of ['kind', 'apiVersion']) {
    const value = object[name];
    if (value !== undefined && typeof value !== 'string') return { error: accessorError(name, value) };
  }
  const apiVersion = typeof object.apiVersion === 'string' ? object.apiVersion : '';
  if (apiVersion.split('/').length > 2) return { error: `unexpected GroupVersion string: ${apiVersion}` };
  const meta = readObjectMeta(object.metadata, 'metadata', dropInvalidMetadata);
  // Even when dropping malformed members, metadata that is not an object at all fails.
  if (meta.error !== undefined) return { error: meta.error };

  const prunedFields: string[] = [];
  pruneFields(object, schema.root, true, prunedFields);
  prunedFields.sort(compareBytes);
  pruneNonNullableNulls(object, schema.root);

  const embedded: string[] = [];
  const failure = coerceEmbedded(object, schema.root, '', dropInvalidMetadata, embedded);
  if (failure) return { error: failure };
  embedded.sort(compareBytes);

  if (meta.meta !== undefined) object.metadata = meta.meta;
  return { object, pruned: [...meta.unknown, ...prunedFields, ...embedded] };
}

/**
 * objectmeta.Coerce below the root: embedded resources' apiVersion/kind must be strings and their
 * metadata is typed. Returns the error text (`<path>: Invalid value: …`) when not dropping.
 */
function coerceEmbedded(value: Json, node: SchemaNode | undefined, path: string, drop: boolean, unknown: string[]): string | undefined {
  if (!node) return undefined;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const failure = coerceEmbedded(item, node.items, index(path, i), drop, unknown);
      if (failure) return failure;
    }
    return undefined;
  }
  if (!isObject(value)) return undefined;
  for (const name of Object.keys(value)) {
    // Coerce runs with isResourceRoot=false: the root's own metadata was read by the caller.
    if (node.embeddedResource) {
      const member = value[name] as Json;
      if ((name === 'apiVersion' || name === 'kind') && typeof member !== 'string') {
        if (drop) delete value[name];
        else return fieldError(child(path, name), member, 'must be a string');
      } else if (name === 'metadata') {
        const meta = readObjectMeta(member, child(path, 'metadata'), drop);
        unknown.push(...meta.unknown);
        if (meta.error !== undefined) {
          if (!drop) return fieldError(child(path, 'metadata'), member, meta.error);
        } else if (meta.meta !== undefined) value.metadata = meta.meta;
      }
    }
    const property = node.properties.get(name);
    const extra = typeof node.additionalProperties === 'object' ? node.additionalProperties : undefined;
    const failure = property
      ? coerceEmbedded(value[name] as Json, property, child(path, name), drop, unknown)
      : extra
        ? coerceEmbedded(value[name] as Json, extra, key(path, name), drop, unknown)
        : undefined;
    if (failure) return failure;
  }
  return undefined;
}

function fieldError(path: string, value: Json, detail: string): string {
  const error = invalid(at(path), badValue(value), detail);
  return `${error.field}: ${error.body}`;
}
