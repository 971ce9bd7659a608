/**
 * apimachinery's field.Error constructors (staging/src/k8s.io/apimachinery/pkg/util/validation/field/errors.go)
 * as FieldErrors, with the body text `Error.ErrorBody()` prints: the type's text, the bad value (for
 * the types that show one), then `: <detail>` when there is a detail.
 *
 * The bad value is printed by its Go type, so callers say which Go value they pass:
 * - a plain Go `string` → `%q` (pass a JS string);
 * - int32/int64/int/bool → `%v` (pass a number or boolean);
 * - a nil pointer → `null` (pass null);
 * - anything else (named string types such as core.Protocol, pointers, maps, slices, structs) goes
 *   through json.Marshal (pass `json(value)`, maps through `goMap`, structs with members in Go field
 *   order): `"TCP"`, `{"app":"web"}`;
 * - field.OmitValueType → `OMIT`.
 */
import type { Json } from './json';
import type { FieldError, FieldErrorType } from './status';
import { goQuote } from '../go/strconv';
import { goMarshal } from '../go/json-marshal';
import type { Path } from './field-path';

/** A bad value already rendered as json.Marshal writes it. */
export interface MarshaledValue {
  readonly marshaled: string;
}

/** field.OmitValueType: the error shows no value. */
export const OMIT = Symbol('field.OmitValueType');

export type BadValue = string | number | boolean | null | MarshaledValue | typeof OMIT;

/** A bad value printed through json.Marshal. */
export function json(value: Json | undefined): MarshaledValue {
  return { marshaled: goMarshal(value) };
}

const TYPE_TEXT: Readonly<Record<FieldErrorType, string>> = {
  FieldValueNotFound: 'Not found',
  FieldValueRequired: 'Required value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  InternalError: 'Internal error',
  FieldValueTypeInvalid: 'Invalid value',
};

function render(value: BadValue): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return goQuote(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === OMIT) return '';
  return value.marshaled;
}

function error(type: FieldErrorType, path: Path, value: BadValue | undefined, detail: string): FieldError {
  // Required, Forbidden, TooLong and InternalError never print their value; OmitValueType neither.
  let body = TYPE_TEXT[type];
  if (value !== undefined && value !== OMIT) body += `: ${render(value)}`;
  if (detail.length > 0) body += `: ${detail}`;
  return { type, field: path.toString(), body };
}

/** `field.Required(path, detail)`. */
export function required(path: Path, detail = ''): FieldError {
  return error('FieldValueRequired', path, undefined, detail);
}

/** `field.Invalid(path, value, detail)`. */
export function invalid(path: Path, value: BadValue, detail: string): FieldError {
  return error('FieldValueInvalid', path, value, detail);
}

/** `field.Duplicate(path, value)`; a few callers set a Detail afterwards (node taints). */
export function duplicate(path: Path, value: BadValue, detail = ''): FieldError {
  return error('FieldValueDuplicate', path, value, detail);
}

/** `field.NotSupported(path, value, validValues)`: `supported values: "a", "b"` (strconv.Quote each). */
export function notSupported(path: Path, value: BadValue, validValues: readonly string[]): FieldError {
  const detail = validValues.length > 0 ? `supported values: ${validValues.map((v) => goQuote(v)).join(', ')}` : '';
  return error('FieldValueNotSupported', path, value, detail);
}

/** `field.Forbidden(path, detail)`. */
export function forbidden(path: Path, detail: string): FieldError {
  return error('FieldValueForbidden', path, undefined, detail);
}

/** `field.TooLong(path, _, maxLength)`: `may not be more than N bytes` (`byte` for 1; `value is too long` below 0). */
export function tooLong(path: Path, maxLength: number): FieldError {
  const detail = maxLength >= 0 ? `may not be more than ${maxLength} ${maxLength === 1 ? 'byte' : 'bytes'}` : 'value is too long';
  return error('FieldValueTooLong', path, undefined, detail);
}

/** `field.TooMany(path, actual, max)`: the actual count is shown unless negative. */
export function tooMany(path: Path, actual: number, max: number): FieldError {
  const detail = max >= 0 ? `must have at most ${max} ${max === 1 ? 'item' : 'items'}` : 'has too many items';
  return error('FieldValueTooMany', path, actual >= 0 ? actual : OMIT, detail);
}

/** `field.NotFound(path, value)`; validateResourceClaimNames sets a Detail afterwards. */
export function notFound(path: Path, value: BadValue, detail = ''): FieldError {
  return error('FieldValueNotFound', path, value, detail);
}

/** `field.InternalError(path, err)`. */
export function internalError(path: Path, message: string): FieldError {
  return error('InternalError', path, undefined, message);
}
