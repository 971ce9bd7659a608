/**
 * How Go prints the values kube-openapi and the field errors show. kube-apiserver decodes JSON
 * numbers into int64 when they are written as integers and float64 otherwise; JavaScript cannot tell
 * `1.0` from `1`, so an integral number is taken for an int64 here.
 */
import { isObject, type Json } from '../../../kube/json';
import { json, type BadValue } from '../../../kube/field-errors';
import { goFormatG } from '../../../go/format-float';
import { compareBytes, goMap } from '../../../go/json-marshal';

/** Whether Go would hold this decoded number as an int64. */
export const isGoInt = (value: number): boolean => Number.isInteger(value) && Math.abs(value) <= Number.MAX_SAFE_INTEGER;

/** `%v` of a decoded JSON number: an int64 bare, a float64 as strconv's shortest %g. */
export function goNumber(value: number): string {
  return isGoInt(value) ? String(value) : goFormatG(value);
}

/** A Go map/slice value as field errors print it since Kubernetes 1.34 (JSON, map keys sorted). */
function sortedJson(value: Json): Json {
  if (Array.isArray(value)) return value.map(sortedJson);
  if (value !== null && typeof value === 'object') {
    return goMap(Object.fromEntries(Object.entries(value).map(([key, item]) => [key, sortedJson(item as Json)])));
  }
  return value;
}

/**
 * A decoded JSON value as the bad value of a field error: strings quoted, int64 and bool bare, float64
 * with `%v`, null as `null`, maps and slices as JSON (apimachinery field/errors.go `ErrorBody`).
 */
export function badValue(value: Json | undefined): BadValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return isGoInt(value) ? value : { marshaled: goFormatG(value) };
  return json(sortedJson(value));
}

/** `json.Marshal` of a decoded value with Go's sorted map keys (enum values in `supported values`). */
export function goJson(value: Json): string {
  return json(sortedJson(value)).marshaled;
}

/** Go's `%T` of a decoded JSON value (JSON integers decode to int64 in kube-apiserver). */
export function goTypeName(value: Json): string {
  if (value === null) return '<nil>';
  if (Array.isArray(value)) return '[]interface {}';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'number':
      return isGoInt(value) ? 'int64' : 'float64';
    default:
      return 'map[string]interface {}';
  }
}

/** Go's `%v` of a decoded JSON value (maps print their keys sorted). */
export function goValueText(value: Json): string {
  if (value === null) return '<nil>';
  if (Array.isArray(value)) return `[${value.map(goValueText).join(' ')}]`;
  if (isObject(value))
    return `map[${Object.keys(value)
      .sort(compareBytes)
      .map((key) => `${key}:${goValueText(value[key] as Json)}`)
      .join(' ')}]`;
  return typeof value === 'number' ? goNumber(value) : String(value);
}
