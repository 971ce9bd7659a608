/**
 * apimachinery's `resource.Quantity`: parsing, comparison and the string kube-apiserver writes back.
 *
 * Upstream: `staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go` (ParseQuantity, String,
 * CanonicalizeBytes, UnmarshalJSON, Cmp), `amount.go` (AsCanonicalBytes, AsCanonicalBase1024Bytes),
 * `suffix.go` (the suffix tables) and `math.go` (removeInt64Factors). Values are exact decimals held as
 * a BigInt mantissa and a base-10 exponent — never floats, as upstream insists.
 */

/** The three serialisation formats a Quantity remembers from the text it was parsed from. */
export type QuantityFormat = 'DecimalExponent' | 'BinarySI' | 'DecimalSI';

/** An exact quantity: `mantissa × 10^exponent`, plus the format (and possibly the text) it came from. */
export interface Quantity {
  readonly mantissa: bigint;
  /** Base-10 exponent (upstream's `Scale`; an int32 there). */
  readonly exponent: number;
  readonly format: QuantityFormat;
  /**
   * The input text, kept when ParseQuantity judged it already canonical (upstream field `s`). String()
   * returns it verbatim — which is why `+1Ki`, `0100m` and `1.500` serialise unchanged.
   */
  readonly text?: string;
}

const SPLIT_RE = '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$';
/** ErrFormatWrong: what UnmarshalJSON/ParseQuantity return for a malformed quantity. */
export const QUANTITY_FORMAT_ERROR = `quantities must match the regular expression '${SPLIT_RE}'`;
/** ErrNumeric. */
export const QUANTITY_NUMERIC_ERROR = 'unable to parse numeric part of quantity';
/** ErrSuffix. */
export const QUANTITY_SUFFIX_ERROR = "unable to parse quantity's suffix";

export type QuantityParse = { ok: true; quantity: Quantity } | { ok: false; message: string };

const NANO = -9;
const MAX_INT64 = (1n << 63n) - 1n;
const SUFFIX_LETTERS = 'eEinumkKMGTP';

/** suffix.go: DecimalSI and BinarySI suffixes and the (base, exponent) they stand for. */
const DECIMAL_SUFFIXES: ReadonlyMap<string, number> = new Map([
  ['n', -9],
  ['u', -6],
  ['m', -3],
  ['', 0],
  ['k', 3],
  ['M', 6],
  ['G', 9],
  ['T', 12],
  ['P', 15],
  ['E', 18],
]);
const BINARY_SUFFIXES: ReadonlyMap<string, number> = new Map([
  ['Ki', 10],
  ['Mi', 20],
  ['Gi', 30],
  ['Ti', 40],
  ['Pi', 50],
  ['Ei', 60],
]);
const DECIMAL_SUFFIX_BY_EXPONENT: ReadonlyMap<number, string> = new Map([...DECIMAL_SUFFIXES].map(([s, e]) => [e, s]));
const BINARY_SUFFIX_BY_EXPONENT: ReadonlyMap<number, string> = new Map([...BINARY_SUFFIXES].map(([s, e]) => [e, s]));

/** Go's int32 conversion (wraps), for the exponent arithmetic upstream does in int32. */
function int32(n: number): number {
  return n | 0;
}

interface Split {
  positive: boolean;
  value: string;
  num: string;
  denom: string;
  suffix: string;
}

/** parseQuantityString: a hand-written scanner, reproduced branch for branch (its quirks included). */
function splitQuantity(str: string): Split | undefined {
  let positive = true;
  let pos = 0;
  const end = str.length;
  if (pos < end) {
    if (str[0] === '-') {
      positive = false;
      pos++;
    } else if (str[0] === '+') {
      pos++;
    }
  }
  // Leading zeros; a string of only zeros (or only a sign) is zero.
  for (let i = pos; ; i++) {
    if (i >= end) return { positive, value: '0', num: '0', denom: '', suffix: '' };
    if (str[i] !== '0') break;
    pos++;
  }
  let num: string;
  for (let i = pos; ; i++) {
    if (i >= end) return { positive, value: str, num: str.slice(pos), denom: '', suffix: '' };
    if (!isDigit(str[i])) {
      num = str.slice(pos, i);
      pos = i;
      break;
    }
  }
  if (num.length === 0) num = '0';
  let denom = '';
  if (pos < end && str[pos] === '.') {
    pos++;
    for (let i = pos; ; i++) {
      if (i >= end) return { positive, value: str, num, denom: str.slice(pos), suffix: '' };
      if (!isDigit(str[i])) {
        denom = str.slice(pos, i);
        pos = i;
        break;
      }
    }
  }
  const value = str.slice(0, pos);
  const suffixStart = pos;
  for (let i = pos; ; i++) {
    if (i >= end) return { positive, value, num, denom, suffix: str.slice(suffixStart) };
    if (!SUFFIX_LETTERS.includes(str[i] as string)) {
      pos = i;
      break;
    }
  }
  if (pos < end && (str[pos] === '-' || str[pos] === '+')) pos++;
  for (let i = pos; ; i++) {
    if (i >= end) return { positive, value, num, denom, suffix: str.slice(suffixStart) };
    if (!isDigit(str[i])) break;
  }
  // A non-digit after the exponent digits.
  return undefined;
}

function isDigit(ch: string | undefined): boolean {
  return ch !== undefined && ch >= '0' && ch <= '9';
}

/** suffixer.interpret: base, exponent and format of a suffix, or undefined (ErrSuffix). */
function interpretSuffix(suffix: string): { base: 2 | 10; exponent: number; format: QuantityFormat } | undefined {
  const decimal = DECIMAL_SUFFIXES.get(suffix);
  if (decimal !== undefined) return { base: 10, exponent: decimal, format: 'DecimalSI' };
  const binary = BINARY_SUFFIXES.get(suffix);
  if (binary !== undefined) return { base: 2, exponent: binary, format: 'BinarySI' };
  if (suffix.length > 1 && (suffix[0] === 'E' || suffix[0] === 'e')) {
    const parsed = goParseInt64(suffix.slice(1));
    if (parsed === undefined) return undefined;
    return { base: 10, exponent: Number(BigInt.asIntN(32, parsed)), format: 'DecimalExponent' };
  }
  return undefined;
}

/** strconv.ParseInt(s, 10, 64): optional sign, decimal digits, int64 range. */
function goParseInt64(s: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const n = BigInt(s);
  return n > MAX_INT64 || n < -MAX_INT64 - 1n ? undefined : n;
}

// A pod's few quantities are parsed again by defaulting, validation and several plugins on every
// request, and a parse is pure: answers are kept per text, frozen, for a bounded number of texts.
const PARSED = new Map<string, QuantityParse>();
const PARSED_KEPT = 4096;

/** ParseQuantity, with upstream's error texts. */
export function parseQuantityOrError(str: string): QuantityParse {
  let parsed = PARSED.get(str);
  if (parsed === undefined) {
    parsed = parseQuantityText(str);
    if (parsed.ok) Object.freeze(parsed.quantity);
    Object.freeze(parsed);
    if (PARSED.size < PARSED_KEPT) PARSED.set(str, parsed);
  }
  return parsed;
}

function parseQuantityText(str: string): QuantityParse {
  if (str.length === 0) return { ok: false, message: QUANTITY_FORMAT_ERROR };
  if (str === '0') return { ok: true, quantity: { mantissa: 0n, exponent: 0, format: 'DecimalSI', text: '0' } };

  const split = splitQuantity(str);
  if (split === undefined) return { ok: false, message: QUANTITY_FORMAT_ERROR };
  const { positive, value, num, denom } = split;
  const suffix = interpretSuffix(split.suffix);
  if (suffix === undefined) return { ok: false, message: QUANTITY_SUFFIX_ERROR };
  let { format } = suffix;

  // The int64 fast path. It gives the same value as the exact path below; what it adds is the reuse of
  // the input as the canonical text (`s: str`), which String() and MarshalJSON then return verbatim.
  let precision: number;
  let fastScale = 0;
  let multiplier = 1n;
  if (suffix.base === 10) {
    fastScale = suffix.exponent;
    precision = 18 - (num.length + denom.length);
  } else if (suffix.exponent >= 0 && denom.length === 0) {
    multiplier = 1n << BigInt(suffix.exponent);
    // float32(exponent)*3/10 is exact for the six binary exponents (10 … 60).
    precision = 15 - num.length - (suffix.exponent * 3) / 10 - 1;
  } else {
    precision = -1;
  }
  if (precision >= 0) {
    fastScale = int32(fastScale - denom.length);
    if (fastScale >= NANO) {
      const shifted = num + denom;
      const digits = BigInt(shifted);
      const product = digits * multiplier;
      if (product <= MAX_INT64) {
        const mantissa = positive ? product : -product;
        const canonicalInput =
          format === 'BinarySI' ? suffix.exponent % 10 === 0 && (digits & 7n) !== 0n : fastScale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0';
        const quantity: Quantity = { mantissa, exponent: fastScale, format };
        return { ok: true, quantity: canonicalInput ? { ...quantity, text: str } : quantity };
      }
    }
  }

  // The exact (inf.Dec) path.
  if (!/[0-9]/.test(value)) return { ok: false, message: QUANTITY_NUMERIC_ERROR };
  let mantissa = BigInt(num + denom);
  let exponent = -denom.length;
  if (suffix.base === 10) exponent = int32(exponent + suffix.exponent);
  else mantissa <<= BigInt(suffix.exponent);
  // Round non-zero values up (away from zero) to a whole number of nano units: asking for a tiny amount
  // of a resource still gets some.
  if (mantissa !== 0n && exponent < NANO) {
    mantissa = divideRoundingUp(mantissa, NANO - exponent);
    exponent = NANO;
  }
  if (format === 'BinarySI' && compareMagnitudes(mantissa, exponent, MAX_INT64, 0) > 0) {
    mantissa = MAX_INT64;
    exponent = 0;
  }
  if (format === 'BinarySI' && mantissa !== 0n && compareMagnitudes(mantissa, exponent, 1n, 0) < 0) format = 'DecimalSI';
  return { ok: true, quantity: { mantissa: positive ? mantissa : -mantissa, exponent, format } };
}

/** `m / 10^digits`, rounded away from zero (m ≥ 0 here). */
function divideRoundingUp(m: bigint, digits: number): bigint {
  if (digits > m.toString().length) return 1n;
  const divisor = 10n ** BigInt(digits);
  const quotient = m / divisor;
  return quotient * divisor === m ? quotient : quotient + 1n;
}

/** ParseQuantity: undefined where upstream returns an error. */
export function parseQuantity(text: string): Quantity | undefined {
  const parsed = parseQuantityOrError(text);
  return parsed.ok ? parsed.quantity : undefined;
}

// Go's unicode.IsSpace, which strings.TrimSpace uses (JS trim() also strips U+FEFF, Go does not).
const GO_SPACE = '[\\t\\n\\v\\f\\r \\u0085\\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000]';
const GO_TRIM = new RegExp(`^${GO_SPACE}+|${GO_SPACE}+$`, 'g');

/**
 * Quantity.UnmarshalJSON for a decoded JSON value: a string (quotes stripped, spaces trimmed) or a number
 * (its literal) is parsed; null is the zero quantity; anything else is handed to ParseQuantity as its
 * JSON text and fails with the format error.
 *
 * A number reaches Go as the literal the client wrote (`1e3` keeps DecimalExponent format); here only the
 * JS number survives, so it is rendered the way JavaScript prints it.
 */
export function quantityFromJsonOrError(value: unknown): QuantityParse {
  if (value === null) return { ok: true, quantity: { mantissa: 0n, exponent: 0, format: 'DecimalSI' } };
  if (typeof value === 'string') return parseQuantityOrError(value.replace(GO_TRIM, ''));
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return { ok: false, message: QUANTITY_FORMAT_ERROR };
    return parseQuantityOrError(jsonNumberLiteral(value));
  }
  return { ok: false, message: QUANTITY_FORMAT_ERROR };
}

/** Quantity.UnmarshalJSON: undefined where upstream returns an error. */
export function quantityFromJson(value: unknown): Quantity | undefined {
  const parsed = quantityFromJsonOrError(value);
  return parsed.ok ? parsed.quantity : undefined;
}

/** The literal a JSON encoder would write for `n`: integers in full, others as JavaScript prints them. */
export function jsonNumberLiteral(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return Object.is(n, -0) ? '0' : BigInt(n).toString();
  return String(n);
}

/** Quantity.Cmp. */
export function compareQuantities(a: Quantity, b: Quantity): -1 | 0 | 1 {
  const sa = sign(a.mantissa);
  const sb = sign(b.mantissa);
  if (sa !== sb) return sa < sb ? -1 : 1;
  if (sa === 0) return 0;
  const magnitude = compareMagnitudes(abs(a.mantissa), a.exponent, abs(b.mantissa), b.exponent);
  if (magnitude === 0) return 0;
  return sa > 0 ? magnitude : magnitude === 1 ? -1 : 1;
}

/** Compares |x| = xm·10^xe with |y| = ym·10^ye (xm, ym ≥ 0) without expanding huge exponents. */
function compareMagnitudes(xm: bigint, xe: number, ym: bigint, ye: number): -1 | 0 | 1 {
  if (xm === 0n || ym === 0n) return xm === ym ? 0 : xm === 0n ? -1 : 1;
  // Order of magnitude: the number of digits plus the exponent decides unless equal.
  const xo = xm.toString().length + xe;
  const yo = ym.toString().length + ye;
  if (xo !== yo) return xo < yo ? -1 : 1;
  // Equal orders: the exponents differ by at most the digit counts, so aligning is cheap.
  const e = Math.min(xe, ye);
  const xa = xm * 10n ** BigInt(xe - e);
  const ya = ym * 10n ** BigInt(ye - e);
  return xa === ya ? 0 : xa < ya ? -1 : 1;
}

function sign(n: bigint): -1 | 0 | 1 {
  return n === 0n ? 0 : n < 0n ? -1 : 1;
}

function abs(n: bigint): bigint {
  return n < 0n ? -n : n;
}

/** Quantity.IsZero. */
export function isZeroQuantity(q: Quantity): boolean {
  return q.mantissa === 0n;
}

/** Quantity.Sign. */
export function signOf(q: Quantity): -1 | 0 | 1 {
  return sign(q.mantissa);
}

/**
 * Quantity.String(): what kube-apiserver serialises. The input text when ParseQuantity kept it, else the
 * canonical form: no fractional digits, the largest exponent that loses nothing, the format's suffix.
 *
 * Faithful to v1.36, including its bug for DecimalSI values of 10^21 and more: the suffix table ends at
 * `E`, the failed lookup is ignored and the magnitude is dropped (`1000E` prints as `1`). Upstream fixed
 * this after 1.36 (kubernetes/kubernetes#140459, falling back to the `e` notation).
 */
export function canonicalQuantity(q: Quantity): string {
  if (q.text !== undefined) return q.text;
  if (q.mantissa === 0n) return '0';
  let format = q.format;
  if (format === 'BinarySI') {
    if (compareQuantities(q, INT_1024_NEG) > 0 && compareQuantities(q, INT_1024) < 0) {
      format = 'DecimalSI';
    } else {
      const integer = integerValue(q);
      if (integer === undefined) {
        format = 'DecimalSI'; // rounding to an integer would lose precision
      } else {
        const [mantissa, times] = removeFactors(integer, 1024n);
        return mantissa.toString() + (BINARY_SUFFIX_BY_EXPONENT.get(times * 10) ?? '');
      }
    }
  }
  const [stripped, times] = removeFactors(q.mantissa, 10n);
  let mantissa = stripped;
  let exponent = q.exponent + times;
  // Lower the exponent to a multiple of 3 (toward −∞), moving digits into the mantissa.
  while (exponent % 3 !== 0) {
    mantissa *= 10n;
    exponent--;
  }
  let suffix: string;
  if (format === 'DecimalExponent') suffix = exponent === 0 ? '' : `e${exponent}`;
  else suffix = DECIMAL_SUFFIX_BY_EXPONENT.get(exponent) ?? '';
  return mantissa.toString() + suffix;
}

const INT_1024: Quantity = { mantissa: 1024n, exponent: 0, format: 'DecimalSI' };
const INT_1024_NEG: Quantity = { mantissa: -1024n, exponent: 0, format: 'DecimalSI' };

/** The value as an integer when it is one (BinarySI values are capped at 2^63−1, so this stays small). */
function integerValue(q: Quantity): bigint | undefined {
  if (q.exponent >= 0) return q.mantissa * 10n ** BigInt(q.exponent);
  const divisor = 10n ** BigInt(-q.exponent);
  return q.mantissa % divisor === 0n ? q.mantissa / divisor : undefined;
}

/** removeInt64Factors / removeBigIntFactors: strips factors of `base`, counting them. */
function removeFactors(value: bigint, base: bigint): [bigint, number] {
  let times = 0;
  let result = value;
  while (result !== 0n && result % base === 0n) {
    result /= base;
    times++;
  }
  return [result, times];
}
