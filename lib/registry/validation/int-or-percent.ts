/**
 * intstr.IntOrString fields that hold a count or a percentage (apps validation
 * ValidatePositiveIntOrPercent, IsNotMoreThan100Percent, getIntOrPercentValue). An IntOrString prints
 * through its MarshalJSON: a number or a JSON string.
 */
import type { FieldError } from '../../kube/status';
import { invalid, json } from '../../kube/field-errors';
import { percentErrors } from '../../kube/value-formats';
import { nonNegative } from './numbers';
import type { Path } from '../../kube/field-path';

export type IntOrString = number | string;

/** An IntOrString member of a decoded object (the zero value is the integer 0). */
export function intOrStringOf(value: unknown): IntOrString {
  return typeof value === 'number' || typeof value === 'string' ? value : 0;
}

/** ValidatePositiveIntOrPercent. */
export function validatePositiveIntOrPercent(value: IntOrString, path: Path): FieldError[] {
  if (typeof value === 'string') return percentErrors(value).map((message) => invalid(path, json(value), message));
  return nonNegative(value, path);
}

/** getPercentValue: the number of a valid percentage. */
function percentValue(value: IntOrString): number | undefined {
  return typeof value === 'string' && percentErrors(value).length === 0 ? Number(value.slice(0, -1)) : undefined;
}

/** getIntOrPercentValue: a percentage's number, else intstr.IntValue (strconv.Atoi of a string, 0 on error). */
export function intOrPercentValue(value: IntOrString): number {
  const percent = percentValue(value);
  if (percent !== undefined) return percent;
  if (typeof value === 'number') return value;
  return /^[+-]?[0-9]+$/.test(value) ? Number(value) : 0;
}

/** IsNotMoreThan100Percent. */
export function notMoreThan100Percent(value: IntOrString, path: Path): FieldError[] {
  const percent = percentValue(value);
  return percent !== undefined && percent > 100 ? [invalid(path, json(value), 'must not be greater than 100%')] : [];
}
