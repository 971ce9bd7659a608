import { isObject, type Json, type JsonObject } from '../../kube/json';

/*
 * Reading an object as a printer reads its Go struct: a missing field is the zero value ("" , 0, empty list or
 * map), whatever the JSON holds instead.
 */

/** The value at `path` under `object`, or undefined. */
export function at(object: Json | undefined, ...path: string[]): Json | undefined {
  let value: Json | undefined = object;
  for (const key of path) value = isObject(value) ? value[key] : undefined;
  return value;
}

export const text = (object: Json | undefined, ...path: string[]): string => {
  const value = at(object, ...path);
  return typeof value === 'string' ? value : '';
};

export const integer = (object: Json | undefined, ...path: string[]): number => {
  const value = at(object, ...path);
  return typeof value === 'number' ? Math.trunc(value) : 0;
};

export const list = (object: Json | undefined, ...path: string[]): Json[] => {
  const value = at(object, ...path);
  return Array.isArray(value) ? value : [];
};

export const record = (object: Json | undefined, ...path: string[]): JsonObject => {
  const value = at(object, ...path);
  return isObject(value) ? value : {};
};

/** A pointer field: undefined when unset (nil), as printers tell `<none>`/`<unset>` from a value. */
export const optional = (object: Json | undefined, ...path: string[]): Json | undefined => {
  const value = at(object, ...path);
  return value === null ? undefined : value;
};
