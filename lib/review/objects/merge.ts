import { isObject, type JsonObject } from './json';
import { cloneJson } from '../../kube/json';

/** Overrides for an object: any part of it; arrays replace, `null` removes (as in a JSON merge patch). */
export type DeepPartial<T> = T extends readonly unknown[] ? T : T extends object ? { [K in keyof T]?: DeepPartial<T[K]> | null } : T;

/**
 * `overrides` merged into a copy of `base`: objects merge key by key, arrays and scalars replace,
 * `null` deletes the key and `undefined` leaves it alone.
 */
export function deepMerge(base: JsonObject, overrides: object): JsonObject {
  const result: JsonObject = { ...base };
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) continue;
    if (value === null) delete result[key];
    else if (isObject(value) && isObject(result[key])) result[key] = deepMerge(result[key] as JsonObject, value);
    else result[key] = cloneJson(value);
  }
  return result;
}
