import { isRecord } from './json';

/** An object as JSON whose members are not typed yet: what builders, defaulters and strategies work on. */
export type JsonRecord = Record<string, unknown>;

/** `value[key]` as an object, or an empty one (never written back). */
export function objectAt(value: JsonRecord, key: string): JsonRecord {
  const found = value[key];
  return isRecord(found) ? found : {};
}

/** `value[key]` as a list of objects, or an empty list (never written back). */
export function listAt(value: JsonRecord, key: string): readonly JsonRecord[] {
  const found = value[key];
  if (!Array.isArray(found)) return [];
  // Read on every request by defaulting and plugins: the list itself when it holds only objects.
  return found.every(isRecord) ? (found as JsonRecord[]) : found.filter(isRecord);
}

export function stringAt(value: JsonRecord, key: string): string | undefined {
  const found = value[key];
  return typeof found === 'string' ? found : undefined;
}
