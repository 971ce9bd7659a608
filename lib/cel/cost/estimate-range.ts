/**
 * cel-go's estimate ranges (checker/cost.go `CostEstimate` and `SizeEstimate`): a minimum and a
 * maximum that saturate at the largest uint64 instead of overflowing, so an unbounded size times
 * anything stays "as large as it gets". Held as JavaScript numbers: figures above 2^53 lose their low
 * digits, which changes no decision (every limit kube compares against is below 2^31).
 */

/** math.MaxUint64 as a float64, which is what Go's comparisons against it see. */
export const MAX_UINT64 = 2 ** 64;

export interface Range {
  readonly min: number;
  readonly max: number;
}

export const fixed = (value: number): Range => ({ min: value, max: value });
export const ZERO: Range = fixed(0);
/** `UnknownSizeEstimate`: anything from 0 to the largest uint64. */
export const UNKNOWN: Range = { min: 0, max: MAX_UINT64 };

const saturate = (value: number): number => Math.min(value, MAX_UINT64);
const product = (x: number, y: number): number => (y !== 0 && x > MAX_UINT64 / y ? MAX_UINT64 : saturate(x * y));

export const add = (a: Range, b: Range): Range => ({ min: saturate(a.min + b.min), max: saturate(a.max + b.max) });

export const multiply = (a: Range, b: Range): Range => ({ min: product(a.min, b.min), max: product(a.max, b.max) });

/** `MultiplyByCostFactor`: each bound times a factor, rounded up. */
export function byFactor(a: Range, factor: number): Range {
  const scale = (x: number): number => (x > 0 && factor > 0 && x > MAX_UINT64 / factor ? MAX_UINT64 : saturate(Math.ceil(x * factor)));
  return { min: scale(a.min), max: scale(a.max) };
}

export const union = (a: Range, b: Range): Range => ({ min: Math.min(a.min, b.min), max: Math.max(a.max, b.max) });

export const sum = (ranges: readonly Range[]): Range => ranges.reduce(add, ZERO);
