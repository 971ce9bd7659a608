/**
 * The arithmetic on `resource.Quantity` the quota and LimitRanger plugins need, which lib/kube/quantity.ts
 * (parse, compare, print) does not do: Add, Sub, ScaledValue and RoundUp.
 *
 * Upstream: `staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go` (Add, Sub, ScaledValue,
 * Value, MilliValue, RoundUp) and `amount.go` (int64Amount's rounding away from zero). Values stay exact
 * (a BigInt mantissa and a base-10 exponent); only the format rules and the rounding are Go's.
 */
import type { Quantity, QuantityFormat } from '../../kube/quantity';

/** `resource.NewQuantity(n, format)`: no cached text, so it prints in canonical form. */
export function newQuantity(value: bigint | number, format: QuantityFormat = 'DecimalSI'): Quantity {
  return { mantissa: BigInt(value), exponent: 0, format };
}

/** `resource.MustParse("0")` as SubtractWithNonNegativeResult uses it: ParseQuantity keeps the text `0`. */
export const PARSED_ZERO: Quantity = { mantissa: 0n, exponent: 0, format: 'DecimalSI', text: '0' };

/** Both operands at the smaller exponent, so their mantissas can be added. */
function aligned(a: Quantity, b: Quantity): { a: bigint; b: bigint; exponent: number } {
  const exponent = Math.min(a.exponent, b.exponent);
  return { a: a.mantissa * 10n ** BigInt(a.exponent - exponent), b: b.mantissa * 10n ** BigInt(b.exponent - exponent), exponent };
}

/**
 * `q.Add(y)`: the exact sum. The cached text is dropped, and the result keeps q's format unless q was
 * zero, in which case it takes y's (`0` + `256Mi` is `256Mi`, not `268435456`).
 */
export function addQuantities(q: Quantity, y: Quantity): Quantity {
  const { a, b, exponent } = aligned(q, y);
  return { mantissa: a + b, exponent, format: q.mantissa === 0n ? y.format : q.format };
}

/** `q.Sub(y)`: the exact difference, with Add's rule for the format. */
export function subtractQuantities(q: Quantity, y: Quantity): Quantity {
  const { a, b, exponent } = aligned(q, y);
  return { mantissa: a - b, exponent, format: q.mantissa === 0n ? y.format : q.format };
}

/** `m / 10^digits`, rounded away from zero (amount.go rounds "up" in magnitude). */
function divideAwayFromZero(m: bigint, digits: number): bigint {
  const divisor = 10n ** BigInt(digits);
  const quotient = m / divisor; // truncates toward zero
  if (quotient * divisor === m) return quotient;
  return m < 0n ? quotient - 1n : quotient + 1n;
}

/**
 * `q.ScaledValue(scale)`: ⌈q / 10^scale⌉ (away from zero), e.g. scale −3 is MilliValue, 0 is Value.
 * Exact here; Go's int64 overflows past 2^63, which only quantities beyond any real resource reach.
 */
export function scaledValue(q: Quantity, scale: number): bigint {
  const shift = q.exponent - scale;
  if (shift >= 0) return q.mantissa * 10n ** BigInt(shift);
  return divideAwayFromZero(q.mantissa, -shift);
}

/** `resource.MaxMilliValue`: the largest Value() whose MilliValue() still fits an int64. */
export const MAX_MILLI_VALUE = ((1n << 63n) - 1n) / 1000n;

/**
 * `q.RoundUp(0)` on a copy: the value rounded away from zero to a whole number, and whether that was
 * exact. An inexact rounding forgets the cached text, as upstream clears `s`.
 */
export function roundUpToInteger(q: Quantity): { quantity: Quantity; exact: boolean } {
  if (q.exponent >= 0) return { quantity: q, exact: true };
  const rounded = divideAwayFromZero(q.mantissa, -q.exponent);
  const exact = rounded * 10n ** BigInt(-q.exponent) === q.mantissa;
  return { quantity: exact ? q : { mantissa: rounded, exponent: 0, format: q.format }, exact };
}
