/**
 * How Go prints the values kube-openapi and the field errors show. kube-apiserver decodes JSON
 * numbers into int64 when they are written as integers and float64 otherwise; JavaScript cannot tell
 * `1.0` from `1`, so an integral number is taken for an int64 here.
 */
import { isObject, type Json } from '../../../kube/json';
import { json, type BadValue } from '../../../kube/field-errors';
import { compareBytes, goMap } from '../../../go/json-marshal';

/** Whether Go would hold this decoded number as an int64. */
export const isGoInt = (value: number): boolean => Number.isInteger(value) && Math.abs(value) <= Number.MAX_SAFE_INTEGER;

/**
 * fmt's `%v` of a float64: strconv's shortest `%g`, which writes an exponent when it is below -4 or
 * 6 and above (`1e-05`, `1e+06`, `1.5e+07`), with at least two exponent digits.
 */
export function goFloat(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? '+Inf' : '-Inf';
  if (value === 0) return Object.is(value, -0) ? '-0' : '0';
  const [mantissa = '0', exponentText = '0'] = value.toExponential().split('e');
  const exponent = Number(exponentText);
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace('-', '').replace('.', '');
  let text: string;
  if (exponent < -4 || exponent >= 6) {
    const head = digits.slice(0, 1);
    const tail = digits.slice(1);
    const abs = Math.abs(exponent);
    text = `${head}${tail ? `.${tail}` : ''}e${exponent < 0 ? '-' : '+'}${abs < 10 ? `0${abs}` : abs}`;
  } else if (exponent < 0) {
    text = `0.${'0'.repeat(-exponent - 1)}${digits}`;
  } else {
    const point = exponent + 1;
    text = digits.length <= point ? digits + '0'.repeat(point - digits.length) : `${digits.slice(0, point)}.${digits.slice(point)}`;
  }
  return negative ? `-${text}` : text;
}

/** `%v` of a decoded JSON number: an int64 bare, a float64 as goFloat. */
export function goNumber(value: number): string {
  return isGoInt(value) ? String(value) : goFloat(value);
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
  if (typeof value === 'number') return isGoInt(value) ? value : { marshaled: goFloat(value) };
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
