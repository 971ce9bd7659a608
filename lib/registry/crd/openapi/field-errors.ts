/**
 * kube-openapi failures as the field errors a 422 lists (apiextensions-apiserver
 * pkg/apiserver/validation/validation.go `kubeOpenAPIResultToFieldErrors`):
 *
 * - required → `spec.x: Required value`
 * - enum → `spec.x: Unsupported value: "y": supported values: "a", "b"` (non-strings as JSON)
 * - maxLength → `spec.x: Too long: may not be more than 5 bytes`
 * - maxItems, maxProperties → `spec.x: Too many: 3: must have at most 2 items`
 * - a wrong type or format → `spec.x: Invalid value: "string": spec.x in body must be of type integer: "string"`
 * - anything else → `spec.x: Invalid value: <value>: <kube-openapi's message>`
 * - anyOf/oneOf/allOf/not, which name no field → `<nil>: Invalid value: "": "spec.x" must validate …`
 */
import type { Json } from '../../../kube/json';
import type { FieldError } from '../../../kube/status';
import { invalid, notSupported, required, tooLong, tooMany } from '../../../kube/field-errors';
import { at } from '../field-path';
import { badValue, goJson } from './go-values';
import type { Failure } from './result';

/** The field a failure names: its path without the leading dot kube-openapi gives some of them. */
function fieldOf(name: string): string {
  return name.length > 0 && name !== '.' ? name.replace(/^\./, '') : '';
}

/** kube substitutes "" for a failure without a value (a nil interface, which a JSON null also is). */
const orEmpty = (value: Json | undefined): Json => (value === undefined || value === null ? '' : value);

/** A field error of type TypeInvalid: apimachinery prints it like Invalid. */
function typeInvalid(path: string, value: Json | undefined, detail: string): FieldError {
  return { ...invalid(at(path), badValue(orEmpty(value)), detail), type: 'FieldValueTypeInvalid' };
}

export function toFieldErrors(failures: readonly Failure[]): FieldError[] {
  return failures.map((failure): FieldError => {
    if (failure.kind === 'composite') return invalid(at(''), '', failure.message);
    const path = fieldOf(failure.name);
    switch (failure.code) {
      case 'Required':
        return required(at(path));
      case 'Enum':
        return notSupported(
          at(path),
          badValue(failure.value),
          (failure.values ?? []).map((value) => (typeof value === 'string' ? value : goJson(value))),
        );
      case 'TooLong':
        return tooLong(at(path), failure.valid ?? -1);
      case 'MaxItems':
      case 'TooManyProperties':
        return tooMany(at(path), typeof failure.value === 'number' ? failure.value : -1, failure.valid ?? -1);
      case 'InvalidType':
        return typeInvalid(path, failure.value, failure.message);
      default:
        return invalid(at(path), badValue(orEmpty(failure.value)), failure.message);
    }
  });
}
