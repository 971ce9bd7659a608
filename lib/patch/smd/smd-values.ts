/**
 * The values structured-merge-diff reads, and how its error messages print them.
 *
 * An ApplyConfiguration reaches smd as the Go map that kube's `ObjectVal.ConvertToNative` builds
 * (apiserver pkg/cel/mutation/dynamic/objects.go `convertField`), which is mostly plain JSON but not
 * always: a CEL `null` becomes `structpb.NullValue` (a named int32 smd does not recognize), and the
 * elements of a list literal are converted with `Value()` only, so a map or list literal inside a list
 * stays a CEL map/list. Those are `GoOpaque`: smd sees neither a scalar, a list nor a map
 * (value/valueunstructured.go `IsInt`/`IsMap`…), so validation fails where a typed value is expected.
 *
 * smd wraps every value as `*value.valueUnstructured`; its messages print that wrapper with `%v`
 * (`&{x}`), `%#v` (`&value.valueUnstructured{Value:"x"}`) or `%T`.
 */
import { goQuote } from '../../go/strconv';
import type { Json } from '../../kube/json';
import { goFormatG } from '../../go/format-float';
import { isGoInt } from '../../registry/crd/openapi/go-values';
import { compareBytes } from '../../go/json-marshal';

/** A Go value smd cannot classify, with how fmt prints it and what it becomes when it reaches the object anyway. */
export class GoOpaque {
  constructor(
    /** fmt `%v`. */
    readonly text: string,
    /** fmt `%#v`. */
    readonly syntax: string,
    /** The JSON the value is encoded as if it survives into the object (encoding/json of the Go value). */
    readonly json: Json,
  ) {}
}

export type GoValue = null | boolean | number | string | GoOpaque | GoValue[] | { [key: string]: GoValue };
export type GoMap = { [key: string]: GoValue };

/** `structpb.NullValue_NULL_VALUE`, what a CEL `null` becomes: prints as NULL_VALUE, `%#v` 0, JSON 0. */
export const NULL_VALUE = new GoOpaque('NULL_VALUE', '0', 0);

export function isGoMap(value: GoValue | undefined): value is GoMap {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof GoOpaque);
}

export const isGoList = (value: GoValue | undefined): value is GoValue[] => Array.isArray(value);
export const isGoNull = (value: GoValue | undefined): boolean => value === null;
export const isGoString = (value: GoValue | undefined): value is string => typeof value === 'string';
export const isGoBool = (value: GoValue | undefined): value is boolean => typeof value === 'boolean';
export const isGoNumber = (value: GoValue | undefined): value is number => typeof value === 'number';
export const isGoScalar = (value: GoValue | undefined): boolean => isGoNumber(value) || isGoString(value) || isGoBool(value);

/** The JSON the value is encoded as (opaque values by their own encoding). */
export function toJson(value: GoValue): Json {
  if (value instanceof GoOpaque) return value.json;
  if (Array.isArray(value)) return value.map(toJson);
  if (isGoMap(value)) {
    const out: { [key: string]: Json } = {};
    for (const key of Object.keys(value)) out[key] = toJson(value[key] as GoValue);
    return out;
  }
  return value;
}

/** fmt `%v` of the value itself: maps as `map[k:v]` with sorted keys, slices as `[a b]`. */
export function goText(value: GoValue): string {
  if (value === null) return '<nil>';
  if (value instanceof GoOpaque) return value.text;
  if (Array.isArray(value)) return `[${value.map(goText).join(' ')}]`;
  if (isGoMap(value))
    return `map[${sortedKeys(value)
      .map((key) => `${key}:${goText(value[key] as GoValue)}`)
      .join(' ')}]`;
  if (typeof value === 'number') return isGoInt(value) ? String(value) : goFormatG(value);
  return String(value);
}

/** fmt `%#v` of a value held in an `interface{}`. */
export function goSyntax(value: GoValue): string {
  if (value === null) return 'interface {}(nil)';
  if (value instanceof GoOpaque) return value.syntax;
  if (Array.isArray(value)) return `[]interface {}{${value.map(goSyntax).join(', ')}}`;
  if (isGoMap(value))
    return `map[string]interface {}{${sortedKeys(value)
      .map((key) => `${goQuote(key)}:${goSyntax(value[key] as GoValue)}`)
      .join(', ')}}`;
  if (typeof value === 'string') return goQuote(value);
  if (typeof value === 'number') return isGoInt(value) ? String(value) : goFormatG(value);
  return String(value);
}

/** `%v` of smd's wrapper around the value. */
export const wrapperText = (value: GoValue): string => `&{${goText(value)}}`;
/** `%#v` of smd's wrapper around the value. */
export const wrapperSyntax = (value: GoValue): string => `&value.valueUnstructured{Value:${goSyntax(value)}}`;
/** `%T` of smd's wrapper. */
export const WRAPPER_TYPE = '*value.valueUnstructured';

function sortedKeys(map: GoMap): string[] {
  return Object.keys(map).sort(compareBytes);
}

/**
 * smd value/value.go `ToString`, as field paths print key and set values: strings quoted, numbers and
 * booleans bare, lists and maps in brackets and braces.
 */
export function smdToString(value: GoValue): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return goQuote(value);
  if (typeof value === 'number') return isGoInt(value) ? String(value) : goFormatG(value);
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(smdToString).join(',')}]`;
  if (isGoMap(value))
    return `{${sortedKeys(value)
      .map((key) => `${key}=${smdToString(value[key] as GoValue)}`)
      .join(',')}}`;
  return `{{undefined(${wrapperSyntax(value)})}}`;
}

/** smd value equality (value/equals.go), for set items and key values. */
export function goEquals(a: GoValue, b: GoValue): boolean {
  if (a instanceof GoOpaque || b instanceof GoOpaque) return a === b;
  if (typeof a === 'number' && typeof b === 'number') return a === b;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => goEquals(item, b[i] as GoValue));
  if (isGoMap(a)) {
    if (!isGoMap(b)) return false;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && goEquals(a[key] as GoValue, b[key] as GoValue));
  }
  return a === b;
}
