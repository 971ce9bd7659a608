/**
 * Structural defaulting (apiextensions-apiserver pkg/apiserver/schema/defaulting/algorithm.go
 * `Default`) and the null pruning that precedes it on decode (prunenulls.go
 * `PruneNonNullableNullsWithoutDefaults`).
 *
 * kube-apiserver defaults a custom resource when it decodes a request body, after every mutating
 * webhook's patch (the request scope's ObjectDefaulter), and when it reads one back from storage; the
 * value it stores and returns is therefore always defaulted.
 */
import { cloneJson, isObject, type Json, type JsonObject } from '../../kube/json';
import type { SchemaNode, StructuralSchema } from './schema-node';

/**
 * Applies the schema's `default`s to a copy of `object`. A default fills a missing field, and a
 * `null` in a field that is not `nullable`; defaults are applied top-down, so a defaulted object gets
 * the defaults of its own fields too ("defaults inside defaults").
 */
export function defaultCustomResource(schema: StructuralSchema, object: JsonObject): JsonObject {
  const copy = cloneJson(object);
  applyDefaults(copy, schema.root);
  return copy;
}

/** `isNonNullableNull`: a null the schema does not allow. */
function isNonNullableNull(value: Json | undefined, node: SchemaNode | undefined): boolean {
  return value === null && node !== undefined && !node.nullable;
}

/** The algorithm in place: properties first get their defaults, then every member is visited. */
export function applyDefaults(value: Json, node: SchemaNode | undefined): void {
  if (!node) return;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      if (isNonNullableNull(value[i], node.items)) value[i] = cloneJson(node.items?.default ?? null);
      applyDefaults(value[i] as Json, node.items);
    }
    return;
  }
  if (!isObject(value)) return;
  for (const [name, property] of node.properties) {
    // A `default: null` is no default (Go sees a nil Default.Object).
    if (property.default === undefined || property.default === null) continue;
    if (!Object.hasOwn(value, name) || isNonNullableNull(value[name], property)) value[name] = cloneJson(property.default);
  }
  const extra = typeof node.additionalProperties === 'object' ? node.additionalProperties : undefined;
  for (const name of Object.keys(value)) {
    const property = node.properties.get(name);
    if (property) applyDefaults(value[name] as Json, property);
    else if (extra) {
      if (isNonNullableNull(value[name], extra)) value[name] = cloneJson(extra.default ?? null);
      applyDefaults(value[name] as Json, extra);
    }
  }
}

/** The schema of member `name` of an object described by `node`, if any. */
function memberSchema(node: SchemaNode | undefined, name: string): SchemaNode | undefined {
  if (!node) return undefined;
  return node.properties.get(name) ?? (typeof node.additionalProperties === 'object' ? node.additionalProperties : undefined);
}

/**
 * `PruneNonNullableNullsWithoutDefaults`, in place: a `null` where the schema allows no null and has no
 * default to put there is removed (a default will replace the others).
 */
export function pruneNonNullableNulls(value: Json, node: SchemaNode | undefined): void {
  if (Array.isArray(value)) {
    for (const item of value) pruneNonNullableNulls(item, node?.items);
    return;
  }
  if (!isObject(value)) return;
  for (const name of Object.keys(value)) {
    const member = memberSchema(node, name);
    if (value[name] === null && member && !member.nullable && (member.default === undefined || member.default === null)) delete value[name];
    else pruneNonNullableNulls(value[name] as Json, member);
  }
}
