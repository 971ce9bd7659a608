import type { Environment } from '@marcbachmann/cel-js';
import { CelFunctionError } from '../errors';
import { compareQuantities, parseQuantityOrError, signOf, type Quantity, type QuantityFormat } from '../../kube/quantity';

/*
 * Kubernetes quantity library (k8s.io/apiserver/pkg/cel/library/quantity.go) and its
 * `kubernetes.Quantity` type (k8s.io/apiserver/pkg/cel/quantity.go), on the exact decimal Quantity of
 * lib/kube/quantity.ts.
 *
 * apimachinery's resource.Quantity keeps its value either as an int64Amount (value × 10^scale, from
 * ParseQuantity's fast path and from int64 arithmetic that did not overflow) or as an inf.Dec. The
 * difference is observable: AsInt64, behind isInteger() and asInteger(), fails for any inf.Dec value,
 * even a whole one, and for an int64Amount with a negative scale (`quantity('1.0').isInteger()` is false).
 * CelQuantity records which form upstream would hold.
 */

const MAX_INT64 = (1n << 63n) - 1n;
const MIN_INT64 = -(1n << 63n);

/** A `kubernetes.Quantity` value. */
export class CelQuantity {
  constructor(
    readonly value: Quantity,
    /** Held as an inf.Dec upstream (infDecAmount), not an int64Amount. */
    readonly dec: boolean,
    /**
     * Made by add/sub, which return `&apiservercel.Quantity{...}`: a pointer, which quantity.go's Equal
     * (`other.(Quantity)`) does not recognise, so such a value never equals anything when it is the
     * right-hand operand of `==`.
     */
    readonly pointer: boolean,
  ) {
    Object.freeze(this);
  }

  /** quantity.go Equal: the other operand must be a (non-pointer) Quantity of the same value. */
  equals(other: CelQuantity): boolean {
    return !other.pointer && compareQuantities(this.value, other.value) === 0;
  }
}

export const QUANTITY_TYPE = 'kubernetes.Quantity';

export function registerQuantity(env: Environment): void {
  const sync = { async: false };
  const Q = QUANTITY_TYPE;
  env
    // An opaque type: no fields, so selecting one fails when the expression is compiled, as in cel-go.
    .registerType(Q, { ctor: CelQuantity, fields: {} })
    .registerOperator(`${Q} == ${Q}`, (a: CelQuantity, b: CelQuantity) => a.equals(b))
    .registerFunction(`quantity(string): ${Q}`, stringToQuantity, sync)
    .registerFunction('isQuantity(string): bool', (s: string) => parseQuantityOrError(s).ok, sync)
    // quantity.go declares sign with cel.Overload, not cel.MemberOverload: `sign(q)` compiles, `q.sign()` does not.
    .registerFunction(`sign(${Q}): int`, (q: CelQuantity) => BigInt(signOf(q.value)), sync)
    .registerFunction(`${Q}.isGreaterThan(${Q}): bool`, (a: CelQuantity, b: CelQuantity) => compareQuantities(a.value, b.value) === 1, sync)
    .registerFunction(`${Q}.isLessThan(${Q}): bool`, (a: CelQuantity, b: CelQuantity) => compareQuantities(a.value, b.value) === -1, sync)
    .registerFunction(`${Q}.compareTo(${Q}): int`, (a: CelQuantity, b: CelQuantity) => BigInt(compareQuantities(a.value, b.value)), sync)
    .registerFunction(`${Q}.asApproximateFloat(): double`, asApproximateFloat, sync)
    .registerFunction(`${Q}.isInteger(): bool`, (q: CelQuantity) => asInt64(q) !== undefined, sync)
    .registerFunction(`${Q}.asInteger(): int`, asInteger, sync)
    .registerFunction(`${Q}.add(${Q}): ${Q}`, (a: CelQuantity, b: CelQuantity) => add(a, b), sync)
    .registerFunction(`${Q}.add(int): ${Q}`, (a: CelQuantity, n: bigint) => add(a, fromInt(n)), sync)
    .registerFunction(`${Q}.sub(${Q}): ${Q}`, (a: CelQuantity, b: CelQuantity) => sub(a, b), sync)
    .registerFunction(`${Q}.sub(int): ${Q}`, (a: CelQuantity, n: bigint) => sub(a, fromInt(n)), sync);
}

/** quantity.go stringToQuantity: resource.ParseQuantity, its error text as the CEL error. */
function stringToQuantity(s: string): CelQuantity {
  const parsed = parseQuantityOrError(s);
  if (!parsed.ok) throw new CelFunctionError(parsed.message);
  return new CelQuantity(parsed.quantity, !parsedAsInt64Amount(s), false);
}

/** resource.NewQuantity(n, DecimalExponent), which add(int)/sub(int) use. */
function fromInt(n: bigint): CelQuantity {
  return new CelQuantity({ mantissa: n, exponent: 0, format: 'DecimalExponent' }, false, false);
}

const DECIMAL_SUFFIX_EXPONENTS: Readonly<Record<string, number>> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_SUFFIX_EXPONENTS: Readonly<Record<string, number>> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };

/**
 * Whether ParseQuantity took its int64 fast path for a string it accepted (quantity.go ParseQuantity:
 * enough precision for int64, a scale of at least nano, and a mantissa that fits). The value itself
 * comes from lib/kube/quantity.ts; this only classifies which representation upstream keeps.
 */
function parsedAsInt64Amount(s: string): boolean {
  if (s === '0') return true;
  const match = /^[+-]?0*(\d*)(?:\.(\d*))?(.*)$/.exec(s);
  if (!match) return false;
  const num = match[1] || '0';
  const denom = match[2] ?? '';
  const suffix = match[3] ?? '';
  let exponent: number;
  if (Object.hasOwn(DECIMAL_SUFFIX_EXPONENTS, suffix)) exponent = DECIMAL_SUFFIX_EXPONENTS[suffix] ?? 0;
  else if (Object.hasOwn(BINARY_SUFFIX_EXPONENTS, suffix)) {
    const binary = BINARY_SUFFIX_EXPONENTS[suffix] ?? 0;
    if (denom !== '') return false;
    // precision = 15 - len(num) - int32(float32(exponent)*3/10) - 1
    if (15 - num.length - (binary * 3) / 10 - 1 < 0) return false;
    return BigInt(num) << BigInt(binary) <= MAX_INT64;
  } else {
    // DecimalExponent: e/E and an int64, truncated to an int32 scale.
    exponent = Number(BigInt.asIntN(32, BigInt(suffix.slice(1))));
  }
  // precision = 18 - len(num+denom) must be >= 0, and the scale (int32) at least nano.
  if (18 - (num.length + denom.length) < 0) return false;
  return ((exponent - denom.length) | 0) >= -9;
}

// --- int64Amount arithmetic (apimachinery amount.go, math.go) ---

function inInt64(n: bigint): bigint | undefined {
  return n >= MIN_INT64 && n <= MAX_INT64 ? n : undefined;
}

/** int64Multiply: overflow, and the most negative int64 as either operand, fail. */
function int64Multiply(a: bigint, b: bigint): bigint | undefined {
  if (a === 0n || b === 0n || a === 1n || b === 1n) return a * b;
  if (a === MIN_INT64 || b === MIN_INT64) return undefined;
  return inInt64(a * b);
}

/** positiveScaleInt64: base × 10^scale, failing on overflow. */
function positiveScaleInt64(base: bigint, scale: number): bigint | undefined {
  let value: bigint | undefined = base;
  for (let i = 0; i < scale && value !== undefined; i++) value = int64Multiply(value, 10n);
  return value;
}

/** int64Amount.Add: undefined when the sum does not fit an int64Amount (the caller then uses inf.Dec). */
function int64AmountAdd(a: Quantity, b: Quantity): { mantissa: bigint; exponent: number } | undefined {
  if (b.mantissa === 0n) return { mantissa: a.mantissa, exponent: a.exponent };
  if (a.mantissa === 0n) return { mantissa: b.mantissa, exponent: b.exponent };
  if (a.exponent === b.exponent) {
    const sum = inInt64(a.mantissa + b.mantissa);
    return sum === undefined ? undefined : { mantissa: sum, exponent: a.exponent };
  }
  const [high, low] = a.exponent > b.exponent ? [a, b] : [b, a];
  const scaled = positiveScaleInt64(high.mantissa, high.exponent - low.exponent);
  if (scaled === undefined) return undefined;
  const sum = inInt64(scaled + low.mantissa);
  return sum === undefined ? undefined : { mantissa: sum, exponent: low.exponent };
}

/** inf.Dec addition: both operands aligned to the smaller exponent. */
function decAdd(a: Quantity, b: Quantity): { mantissa: bigint; exponent: number } {
  const exponent = Math.min(a.exponent, b.exponent);
  const align = (q: Quantity) => q.mantissa * 10n ** BigInt(q.exponent - exponent);
  return { mantissa: align(a) + align(b), exponent };
}

/** Quantity.Add. */
function add(a: CelQuantity, b: CelQuantity): CelQuantity {
  let format: QuantityFormat = a.value.format;
  if (!a.dec && !b.dec) {
    if (a.value.mantissa === 0n) format = b.value.format;
    const sum = int64AmountAdd(a.value, b.value);
    if (sum) return new CelQuantity({ ...sum, format }, false, true);
  } else if (a.value.mantissa === 0n) {
    format = b.value.format;
  }
  return new CelQuantity({ ...decAdd(a.value, b.value), format }, true, true);
}

/** Quantity.Sub: int64Amount.Sub adds the negated operand (wrapping like Go's int64 negation). */
function sub(a: CelQuantity, b: CelQuantity): CelQuantity {
  const format: QuantityFormat = a.value.mantissa === 0n ? b.value.format : a.value.format;
  const negated: Quantity = { mantissa: BigInt.asIntN(64, -b.value.mantissa), exponent: b.value.exponent, format: b.value.format };
  if (!a.dec && !b.dec) {
    const difference = int64AmountAdd(a.value, negated);
    if (difference) return new CelQuantity({ ...difference, format }, false, true);
  }
  return new CelQuantity({ ...decAdd(a.value, { ...b.value, mantissa: -b.value.mantissa }), format }, true, true);
}

/** Quantity.AsInt64. */
function asInt64(q: CelQuantity): bigint | undefined {
  if (q.dec) return undefined;
  const { mantissa, exponent } = q.value;
  if (exponent === 0) return mantissa;
  if (exponent < 0) return undefined;
  return positiveScaleInt64(mantissa, exponent);
}

function asInteger(q: CelQuantity): bigint {
  const value = asInt64(q);
  if (value === undefined) throw new CelFunctionError('cannot convert value to integer');
  return value;
}

/** Quantity.AsApproximateFloat64: float64(mantissa) × math.Pow10(exponent). */
function asApproximateFloat(q: CelQuantity): number {
  const base = Number(q.value.mantissa);
  return q.value.exponent === 0 ? base : base * goPow10(q.value.exponent);
}

// math.Pow10's tables: products of exactly rounded powers of ten, so results match Go's bit for bit.
const POW10 = Array.from({ length: 32 }, (_, i) => Number(`1e${i}`));
const POW10_POS32 = Array.from({ length: 10 }, (_, i) => Number(`1e${i * 32}`));
const POW10_NEG32 = Array.from({ length: 11 }, (_, i) => Number(`1e-${i * 32}`));

function goPow10(n: number): number {
  if (n >= 0 && n <= 308) return (POW10_POS32[Math.floor(n / 32)] ?? 0) * (POW10[n % 32] ?? 0);
  if (n < 0 && n >= -323) return (POW10_NEG32[Math.floor(-n / 32)] ?? 0) / (POW10[-n % 32] ?? 1);
  return n > 0 ? Infinity : 0;
}
