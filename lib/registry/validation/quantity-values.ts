/**
 * The integer views of a resource.Quantity that validation uses (quantity.go ScaledValue, Value,
 * MilliValue: rounded up, away from zero), on top of lib/kube/quantity.ts's exact representation.
 */
import type { Quantity } from '../../kube/quantity';

/** `q.ScaledValue(scale)`: the value in units of 10^scale, rounded up. */
export function scaledValue(q: Quantity, scale: number): bigint {
  const shift = q.exponent - scale;
  if (shift >= 0) return q.mantissa * 10n ** BigInt(shift);
  const divisor = 10n ** BigInt(-shift);
  const quotient = q.mantissa / divisor;
  if (quotient * divisor === q.mantissa) return quotient;
  return q.mantissa > 0n ? quotient + 1n : quotient - 1n;
}

/** `q.Value()`. */
export function integerValue(q: Quantity): bigint {
  return scaledValue(q, 0);
}

/** `q.MilliValue()`. */
export function milliValue(q: Quantity): bigint {
  return scaledValue(q, -3);
}
