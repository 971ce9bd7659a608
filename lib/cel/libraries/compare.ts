import { CelFunctionError } from '../errors';
import { isDuration, isUint, type CelDuration } from './cel-values';

/* CEL's ordering and equality of values, as cel-go's traits.Comparer and heterogeneous equality apply them. */

export function durationNanos(duration: CelDuration): bigint {
  return duration.seconds * 1_000_000_000n + BigInt(duration.nanos);
}

/** A CEL number as a JavaScript one: int and uint as bigint, double as number. */
function numeric(value: unknown): bigint | number | undefined {
  if (typeof value === 'bigint' || typeof value === 'number') return value;
  return isUint(value) ? value.value : undefined;
}

/** cel-go's ordering (traits.Comparer), including its cross-type numeric comparisons. */
export function compare(left: unknown, right: unknown): number {
  const [a, b] = [numeric(left) ?? left, numeric(right) ?? right];
  if ((typeof a === 'bigint' || typeof a === 'number') && (typeof b === 'bigint' || typeof b === 'number')) {
    if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
    return Math.sign(Number(a) - Number(b));
  }
  if (isDuration(a) && isDuration(b)) {
    const [x, y] = [durationNanos(a), durationNanos(b)];
    return x < y ? -1 : x > y ? 1 : 0;
  }
  // Go compares strings by their UTF-8 bytes, which differs from UTF-16 order above U+FFFF.
  if (typeof a === 'string' && typeof b === 'string') return Buffer.compare(Buffer.from(a), Buffer.from(b));
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.compare(a, b);
  if (a instanceof Date && b instanceof Date) return Math.sign(a.getTime() - b.getTime());
  throw new CelFunctionError('no such overload');
}

/** CEL's heterogeneous equality: numbers of different kinds compare by value, aggregates deeply. */
export function celEquals(left: unknown, right: unknown): boolean {
  const [a, b] = [numeric(left) ?? left, numeric(right) ?? right];
  if ((typeof a === 'bigint' || typeof a === 'number') && (typeof b === 'bigint' || typeof b === 'number')) {
    return typeof a === typeof b ? a === b : Number(a) === Number(b);
  }
  if (isDuration(a) && isDuration(b)) return durationNanos(a) === durationNanos(b);
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((element, i) => celEquals(element, b[i]));
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.compare(a, b) === 0;
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (isMap(a) && isMap(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && celEquals(a[key], b[key]));
  }
  return a === b;
}

function isMap(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype;
}
