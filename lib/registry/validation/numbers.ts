/** Number checks shared by many validations (apimachinery api/validate NonNegative and friends). */
import type { FieldError } from '../../kube/status';
import { invalid } from '../../kube/field-errors';
import { inclusiveRangeError } from '../../kube/value-formats';
import type { Path } from '../../kube/field-path';

/** apimachinery validation.IsNegativeErrorMsg. */
export const IS_NEGATIVE = 'must be greater than or equal to 0';

/** ValidateNonnegativeField (validate.NonNegative): `Invalid value: -1: must be greater than or equal to 0`. */
export function nonNegative(value: number, path: Path): FieldError[] {
  return value < 0 ? [invalid(path, value, IS_NEGATIVE)] : [];
}

/** An int32's range check with InclusiveRangeError. */
export function inRange(value: number, lo: number, hi: number, path: Path): FieldError[] {
  return value < lo || value > hi ? [invalid(path, value, inclusiveRangeError(lo, hi))] : [];
}

/** math.MaxInt32. */
export const MAX_INT32 = 2147483647;
