import { goMarshal } from '../../go/json-marshal';
import { isRecord } from '../json';
import type { JsonRecord } from '../record';

/**
 * A member of decoded JSON as Go's encoding/json finds it for a struct field: the exact key, else the
 * first key equal to it without regard to case (encoding/json `Unmarshal` matches field names that way).
 */
export function field(object: unknown, name: string): unknown {
  if (!isRecord(object)) return undefined;
  if (name in object) return object[name];
  const lower = name.toLowerCase();
  for (const [key, value] of Object.entries(object)) if (key.toLowerCase() === lower) return value;
  return undefined;
}

/** `field` as an object, or undefined when absent, null or not an object (a nil pointer). */
export function recordField(object: unknown, name: string): JsonRecord | undefined {
  const value = field(object, name);
  return isRecord(value) ? value : undefined;
}

/** `field` as a string, '' when absent (a Go string's zero value). */
export function stringField(object: unknown, name: string): string {
  const value = field(object, name);
  return typeof value === 'string' ? value : '';
}

/** `field` when it is set (a non-nil pointer): neither absent nor null. */
export function setField(object: unknown, name: string): unknown {
  const value = field(object, name);
  return value === null ? undefined : value;
}

/**
 * How a struct field's tag treats an unset value: `nil` (a pointer tagged omitempty) is left out when
 * nil; `empty` (a value tagged omitempty) when it is its zero value or an empty list or map.
 */
export type Omit = 'nil' | 'empty';

const isEmpty = (value: unknown): boolean =>
  value === undefined ||
  value === null ||
  value === '' ||
  value === 0 ||
  value === false ||
  (Array.isArray(value) && value.length === 0) ||
  (isRecord(value) && Object.keys(value).length === 0);

/** A Go struct's JSON: members in field order, those tagged omitempty left out when unset, others null when nil. */
export function struct(members: [key: string, value: unknown, omit?: Omit][]): JsonRecord {
  const result: JsonRecord = {};
  for (const [key, value, omit] of members) {
    if (omit === 'nil' && (value === undefined || value === null)) continue;
    if (omit === 'empty' && isEmpty(value)) continue;
    result[key] = value === undefined ? null : value;
  }
  return result;
}

/** `value` (decoded JSON, structs built in field order) as Go's json.Marshal writes it, so an annotation holds kube-apiserver's bytes. */
export function goJson(value: unknown): string {
  return goMarshal(value as Parameters<typeof goMarshal>[0]);
}

/** A JSON annotation decoded, or undefined when it does not parse (kube's conversion then ignores it). */
export function parsedAnnotation(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
