/**
 * `x-kubernetes-list-type` invariants (apiextensions-apiserver pkg/apiserver/schema/listtype/validation.go
 * `ValidateListSetsAndMaps`): a `set` holds no item twice and a `map` no two items with the same
 * `x-kubernetes-list-map-keys` values. Each repeat is reported once, at its second appearance:
 * `spec.ports[2]: Duplicate value: {"port":80}`. An item of a map list that is not an object fails
 * the whole list: `must be an object for an array of list-type map`.
 */
import { isObject, type Json, type JsonObject } from '../../kube/json';
import type { FieldError } from '../../kube/status';
import { duplicate, invalid } from '../../kube/field-errors';
import { at, child, index, key } from './field-path';
import { badValue, goJson } from './openapi/go-values';
import type { SchemaNode } from './schema-node';

/** The list-type errors of an object (the root, or any object below it). */
export function validateListTypes(node: SchemaNode | undefined, object: JsonObject, path = ''): FieldError[] {
  if (!node) return [];
  const errors: FieldError[] = [];
  if (typeof node.additionalProperties === 'object') {
    for (const [name, value] of Object.entries(object)) errors.push(...validateValue(node.additionalProperties, value, key(path, name)));
  }
  if (node.properties.size > 0) {
    for (const [name, value] of Object.entries(object)) {
      const property = node.properties.get(name);
      if (property) errors.push(...validateValue(property, value, child(path, name)));
    }
  }
  return errors;
}

function validateValue(node: SchemaNode, value: Json, path: string): FieldError[] {
  if (Array.isArray(value)) return validateList(node, value, path);
  if (isObject(value)) return validateListTypes(node, value, path);
  return [];
}

function validateList(node: SchemaNode, list: Json[], path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (node.listType === 'set') {
    for (const i of repeats(list)) errors.push(duplicate(at(index(path, i)), badValue(list[i])));
  } else if (node.listType === 'map') {
    errors.push(...validateMapList(node, list, path));
  }
  if (node.items) list.forEach((item, i) => errors.push(...validateValue(node.items as SchemaNode, item, index(path, i))));
  return errors;
}

/** `validateListSet`: the index of each value's second appearance. */
function repeats(list: readonly (Json | typeof UNSPECIFIED)[]): number[] {
  if (list.length <= 1) return [];
  const seen = new Map<string, number>();
  const indices: number[] = [];
  list.forEach((item, i) => {
    // Scalars compare as Go values, compounds by their JSON; the tag keeps the two apart.
    const identity =
      item === UNSPECIFIED ? 'unspecified' : typeof item === 'object' && item !== null ? `json:${goJson(item)}` : `${typeof item}:${String(item)}`;
    const times = seen.get(identity) ?? 0;
    seen.set(identity, times + 1);
    if (times === 1) indices.push(i);
  });
  return indices;
}

/** A map-list item without the key field (or a null item). */
const UNSPECIFIED = Symbol('unspecifiedKeyValue');

function validateMapList(node: SchemaNode, list: Json[], path: string): FieldError[] {
  for (const [i, item] of list.entries()) {
    if (item !== null && !isObject(item)) return [invalid(at(index(path, i)), badValue(item), 'must be an object for an array of list-type map')];
  }
  if (list.length <= 1) return [];
  const keys = node.listMapKeys;
  if (keys.length === 1) {
    const field = keys[0] as string;
    const values = list.map((item) => (isObject(item) && Object.hasOwn(item, field) ? (item[field] as Json) : UNSPECIFIED));
    return repeats(values).map((i) => {
      const value = values[i];
      return duplicate(at(index(path, i)), badValue(value === UNSPECIFIED || value === undefined ? {} : { [field]: value }));
    });
  }
  const composite = list.map((item) => {
    const keyed: JsonObject = {};
    if (isObject(item)) for (const field of keys) if (Object.hasOwn(item, field)) keyed[field] = item[field] as Json;
    return keyed;
  });
  return repeats(composite).map((i) => duplicate(at(index(path, i)), badValue(composite[i] ?? {})));
}
