import { cloneJson, isRecord as isObject } from '../kube/json';
import type { JsonRecord } from '../kube/record';

/**
 * `object` with `order`'s keys first, in that order, and `defaults` filled in where missing. The
 * apiserver writes a typed object's members in its Go struct's field order, so shaping with the
 * struct's order makes generated and defaulted objects serialise as the apiserver would. An object
 * already in shape comes back itself: the defaulters run on every patch and every create, mostly on
 * objects they shaped before, and keeping identity lets callers skip the rest by `===`.
 */
export function shape(object: JsonRecord, order: readonly string[], defaults: JsonRecord = {}): JsonRecord {
  if (inShape(object, order, defaults)) return object;
  const result: JsonRecord = {};
  for (const key of order) {
    if (key in object) result[key] = object[key];
    // Defaults may be shared literals: copied, so a result never aliases them.
    else if (key in defaults) result[key] = cloneJson(defaults[key]);
  }
  for (const [key, value] of Object.entries(object)) if (!(key in result)) result[key] = value;
  return result;
}

// A long order's positions, computed once per order list (the long ones are module constants). Most
// orders are a handful of keys, often written inline at the call: for those a scan of the list is
// cheaper than a map, and builds nothing per call.
const LONG_ORDER = 16;
const positions = new WeakMap<readonly string[], Map<string, number>>();
function positionsOf(order: readonly string[]): Map<string, number> {
  let map = positions.get(order);
  if (!map) {
    map = new Map(order.map((key, i) => [key, i]));
    positions.set(order, map);
  }
  return map;
}

// Whether `shape` would give back an equal object in the same member order: no default missing, the
// ordered keys ascending, and the others after them.
function inShape(object: JsonRecord, order: readonly string[], defaults: JsonRecord): boolean {
  for (const key in defaults) if (!(key in object)) return false;
  const at = order.length > LONG_ORDER ? positionsOf(order) : undefined;
  let last = -1;
  let unordered = false;
  for (const key in object) {
    const position = at ? at.get(key) : order.indexOf(key);
    if (position === undefined || position < 0) unordered = true;
    else if (unordered || position < last) return false;
    else last = position;
  }
  return true;
}

/** A Go map as encoding/json writes it: keys sorted. */
export function sortedMap<T>(map: Record<string, T>): Record<string, T> {
  if (isSorted(Object.keys(map))) return map;
  return Object.fromEntries(Object.entries(map).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function isSorted(keys: string[]): boolean {
  for (let i = 1; i < keys.length; i++) if (keys[i - 1]! > keys[i]!) return false;
  return true;
}

/** Sorts every map of an unstructured object (custom resources are maps all the way down). */
export function sortedDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedDeep);
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(sortedMap(value)).map(([key, item]) => [key, sortedDeep(item)]));
}

/**
 * Applies `fn` to `object[key]` when it is an object, leaving the object unchanged otherwise (and
 * when `fn` gives the member back itself).
 */
export function at(object: JsonRecord, key: string, fn: (value: JsonRecord) => JsonRecord): JsonRecord {
  const value = object[key];
  if (!isObject(value)) return object;
  const next = fn(value);
  return next === value ? object : { ...object, [key]: next };
}

/**
 * `at` for a member that is a Go struct value (a Pod's `spec`, a template's `spec`): the decode gives
 * the zero struct when the JSON has none (or null), the defaulters run on it all the same, and Go
 * writes it back (`{}` at least). So `fn` runs on `{}` then.
 */
export function structAt(object: JsonRecord, key: string, fn: (value: JsonRecord) => JsonRecord): JsonRecord {
  const value = object[key];
  if (value === undefined || value === null) return { ...object, [key]: fn({}) };
  return at(object, key, fn);
}

/** Applies `fn` to every object of the list `object[key]` (the same object back when `fn` changes none). */
export function each(object: JsonRecord, key: string, fn: (value: JsonRecord) => JsonRecord): JsonRecord {
  const value = object[key];
  if (!Array.isArray(value)) return object;
  let changed = false;
  const next = value.map((item) => {
    const mapped = isObject(item) ? fn(item) : item;
    if (mapped !== item) changed = true;
    return mapped;
  });
  return changed ? { ...object, [key]: next } : object;
}
