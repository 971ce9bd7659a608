import { cloneJson, isRecord as isObject } from '../kube/json';
import type { JsonRecord } from '../kube/record';

/**
 * `object` with `order`'s keys first, in that order, and `defaults` filled in where missing. The
 * apiserver writes a typed object's members in its Go struct's field order, so shaping with the
 * struct's order makes generated and defaulted objects serialise as the apiserver would.
 */
export function shape(object: JsonRecord, order: readonly string[], defaults: JsonRecord = {}): JsonRecord {
  const result: JsonRecord = {};
  for (const key of order) {
    if (key in object) result[key] = object[key];
    // Defaults may be shared literals: copied, so a result never aliases them.
    else if (key in defaults) result[key] = cloneJson(defaults[key]);
  }
  for (const [key, value] of Object.entries(object)) if (!(key in result)) result[key] = value;
  return result;
}

/** A Go map as encoding/json writes it: keys sorted. */
export function sortedMap<T>(map: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(map).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Sorts every map of an unstructured object (custom resources are maps all the way down). */
export function sortedDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedDeep);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(sortedMap(value)).map(([key, item]) => [key, sortedDeep(item)]),
  );
}

/** Applies `fn` to `object[key]` when it is an object, leaving the object unchanged otherwise. */
export function at(object: JsonRecord, key: string, fn: (value: JsonRecord) => JsonRecord): JsonRecord {
  const value = object[key];
  return isObject(value) ? { ...object, [key]: fn(value) } : object;
}

/** Applies `fn` to every object of the list `object[key]`. */
export function each(object: JsonRecord, key: string, fn: (value: JsonRecord) => JsonRecord): JsonRecord {
  const value = object[key];
  return Array.isArray(value) ? { ...object, [key]: value.map((item) => (isObject(item) ? fn(item) : item)) } : object;
}
