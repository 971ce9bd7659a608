import { isRecord as isObject } from '../../kube/json';

/** An object as JSON: what generators build before it is typed as a Kubernetes kind. */
export type JsonObject = Record<string, unknown>;

export { isObject };

/** `value[key]` as an object, or an empty one (never written back). */
export function objectAt(value: JsonObject, key: string): JsonObject {
  const found = value[key];
  return isObject(found) ? found : {};
}

/** `value[key]` as a list of objects, or an empty list (never written back). */
export function listAt(value: JsonObject, key: string): JsonObject[] {
  const found = value[key];
  return Array.isArray(found) ? found.filter(isObject) : [];
}

export function stringAt(value: JsonObject, key: string): string | undefined {
  const found = value[key];
  return typeof found === 'string' ? found : undefined;
}
