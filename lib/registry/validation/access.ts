/**
 * Reading a decoded v1 object with Go's zero values: kube validates typed structs, where an absent
 * string is "", an absent number 0 and an absent pointer nil. The objects validated here are decoded
 * (types are right), so these accessors only choose between the value and its zero.
 */
import { isObject, type Json, type JsonObject } from '../../kube/json';

export type { JsonObject };

/** A nested object (a struct pointer): undefined when absent or null. */
export function objectOf(object: JsonObject | undefined, key: string): JsonObject | undefined {
  const value = object?.[key];
  return isObject(value) ? value : undefined;
}

/** A list of objects; absent or null is empty (nil and empty slices validate alike). */
export function listOf(object: JsonObject | undefined, key: string): readonly JsonObject[] {
  const value = object?.[key];
  if (!Array.isArray(value)) return [];
  // Validation reads most lists several times: the list itself when it holds only objects.
  return value.every(isObject) ? (value as JsonObject[]) : value.filter(isObject);
}

/** A list of strings. */
export function stringsOf(object: JsonObject | undefined, key: string): string[] {
  const value = object?.[key];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** A list of numbers. */
export function numbersOf(object: JsonObject | undefined, key: string): number[] {
  const value = object?.[key];
  return Array.isArray(value) ? value.filter((item): item is number => typeof item === 'number') : [];
}

/** A string field; "" when absent. */
export function stringOf(object: JsonObject | undefined, key: string): string {
  const value = object?.[key];
  return typeof value === 'string' ? value : '';
}

/** A `*string` field: undefined when absent or null. */
export function optionalString(object: JsonObject | undefined, key: string): string | undefined {
  const value = object?.[key];
  return typeof value === 'string' ? value : undefined;
}

/** An integer field; 0 when absent. */
export function numberOf(object: JsonObject | undefined, key: string): number {
  const value = object?.[key];
  return typeof value === 'number' ? value : 0;
}

/** A `*int32`/`*int64` field: undefined when absent or null. */
export function optionalNumber(object: JsonObject | undefined, key: string): number | undefined {
  const value = object?.[key];
  return typeof value === 'number' ? value : undefined;
}

/** A bool field; false when absent. */
export function booleanOf(object: JsonObject | undefined, key: string): boolean {
  return object?.[key] === true;
}

/** A `*bool` field: undefined when absent or null. */
export function optionalBoolean(object: JsonObject | undefined, key: string): boolean | undefined {
  const value = object?.[key];
  return typeof value === 'boolean' ? value : undefined;
}

/** A `map[string]string`: undefined when absent or null (nil map). */
export function stringMapOf(object: JsonObject | undefined, key: string): Readonly<Record<string, string>> | undefined {
  const value = object?.[key];
  if (!isObject(value)) return undefined;
  // A decoded map holds only strings: then it is the map itself.
  let strings = true;
  for (const member in value) {
    if (typeof value[member] === 'string') continue;
    strings = false;
    break;
  }
  if (strings) return value as Readonly<Record<string, string>>;
  const map: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) if (typeof v === 'string') map[k] = v;
  return map;
}

/** Whether `key` holds a value (a non-nil pointer, slice or map). */
export function has(object: JsonObject | undefined, key: string): boolean {
  const value = object?.[key];
  return value !== undefined && value !== null;
}

/** A map's entries in a fixed order. Go ranges over maps in random order; sorted keys make ours repeatable. */
export function sortedEntries<T>(map: Readonly<Record<string, T>> | undefined): [string, T][] {
  if (!map) return [];
  const entries = Object.entries(map);
  // Decoded maps come sorted (the defaulters write Go's map order): sorted only when they are not.
  for (let i = 1; i < entries.length; i++) if (entries[i - 1]![0] > entries[i]![0]) return entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return entries;
}

/** The raw value of a field (for messages that print it). */
export function valueOf(object: JsonObject | undefined, key: string): Json | undefined {
  return object?.[key];
}
