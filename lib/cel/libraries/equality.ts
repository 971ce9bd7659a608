import { isDuration, isUint } from './cel-values';
import { CelQuantity } from './quantity';
import { CelUrl } from './urls';

/*
 * CEL's heterogeneous equality (cel-go ref.Val Equal, as types.Equal applies it), for the values a
 * Kubernetes expression can hold here: numbers of different kinds compare by value (NaN equals nothing),
 * lists and maps deeply, and the Kubernetes types by their own Equal (quantity.go, url.go).
 */

function numeric(value: unknown): number | bigint | undefined {
  if (typeof value === 'bigint' || typeof value === 'number') return value;
  // cel-js's UnsignedInt (uint) holds a bigint.
  if (isUint(value)) return value.valueOf();
  return undefined;
}

/** cel-js's Type values (not exported) tag themselves `Type<name>`. */
function isType(value: unknown): boolean {
  return Object.prototype.toString.call(value).startsWith('[object Type<');
}

function numbersEqual(a: number | bigint, b: number | bigint): boolean {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a === b;
  const [x, y] = typeof a === 'number' ? [a, b] : [b, a];
  if (Number.isNaN(x)) return false;
  // compareDoubleInt converts the integer to a double (so 2^53+1 equals 2^53.0, as in cel-go).
  return x === Number(y);
}

function isMap(value: unknown): value is Record<string, unknown> | Map<unknown, unknown> {
  if (value instanceof Map) return true;
  if (value === null || typeof value !== 'object') return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function entries(map: Record<string, unknown> | Map<unknown, unknown>): [unknown, unknown][] {
  return map instanceof Map ? [...map] : Object.entries(map);
}

export function celEquals(a: unknown, b: unknown): boolean {
  const x = numeric(a);
  const y = numeric(b);
  if (x !== undefined || y !== undefined) return x !== undefined && y !== undefined && numbersEqual(x, y);
  if (a instanceof CelQuantity) return b instanceof CelQuantity && a.equals(b);
  if (a instanceof CelUrl) return b instanceof CelUrl && a.equals(b);
  if (Array.isArray(a) || a instanceof Set) {
    if (!(Array.isArray(b) || b instanceof Set)) return false;
    const left = [...a];
    const right = [...b];
    return left.length === right.length && left.every((element, i) => celEquals(element, right[i]));
  }
  if (isMap(a)) {
    if (!isMap(b)) return false;
    const left = entries(a);
    const right = entries(b);
    if (left.length !== right.length) return false;
    return left.every(([key, value]) => right.some(([otherKey, otherValue]) => celEquals(key, otherKey) && celEquals(value, otherValue)));
  }
  if (a instanceof Uint8Array) return b instanceof Uint8Array && Buffer.compare(a, b) === 0;
  if (a instanceof Date) return b instanceof Date && a.getTime() === b.getTime();
  if (isDuration(a)) return isDuration(b) && a.seconds === b.seconds && a.nanos === b.nanos;
  if (isType(a)) return isType(b) && String(a) === String(b);
  return a === b;
}
