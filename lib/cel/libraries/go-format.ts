/*
 * Go's text formatting of values, as kube's CEL libraries print them: strconv.Quote (`%q`), float64
 * formatting with a precision (`%.Nf`; the shortest forms are lib/go/format-float.ts) and the en_US localised `%f`/`%e` of
 * golang.org/x/text/message, which cel-go's ext.Strings `format` uses.
 */

// --- strconv.Quote ---

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

function quoteRune(r: number, out: string[]): void {
  switch (r) {
    case 0x22:
      out.push('\\"');
      return;
    case 0x5c:
      out.push('\\\\');
      return;
    case 0x07:
      out.push('\\a');
      return;
    case 0x08:
      out.push('\\b');
      return;
    case 0x0c:
      out.push('\\f');
      return;
    case 0x0a:
      out.push('\\n');
      return;
    case 0x0d:
      out.push('\\r');
      return;
    case 0x09:
      out.push('\\t');
      return;
    case 0x0b:
      out.push('\\v');
      return;
  }
  // unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space.
  if (PRINTABLE.test(String.fromCodePoint(r))) out.push(String.fromCodePoint(r));
  else if (r < 0x20 || r === 0x7f) out.push(`\\x${r.toString(16).padStart(2, '0')}`);
  else if (r < 0x10000) out.push(`\\u${r.toString(16).padStart(4, '0')}`);
  else out.push(`\\U${r.toString(16).padStart(8, '0')}`);
}

/**
 * strconv.Quote of Go bytes held in a binary string (one char per byte, as urls.ts works): bytes that
 * are not valid UTF-8 are written as `\xNN`, as Go does (a JavaScript string's is lib/go/strconv.ts `goQuote`). The result is a binary string too.
 */
export function goQuoteBytes(bytes: string): string {
  const out: string[] = ['"'];
  let i = 0;
  while (i < bytes.length) {
    const [r, size] = decodeRune(bytes, i);
    if (r < 0) out.push(`\\x${bytes.charCodeAt(i).toString(16).padStart(2, '0')}`);
    else {
      const quoted: string[] = [];
      quoteRune(r, quoted);
      // A printable rune stays as its bytes; escapes are ASCII either way.
      out.push(quoted[0] === String.fromCodePoint(r) ? bytes.slice(i, i + size) : quoted.join(''));
    }
    i += size;
  }
  out.push('"');
  return out.join('');
}

/** utf8.DecodeRuneInString on a binary string: the rune and its size, or -1 and 1 for an invalid byte. */
function decodeRune(bytes: string, i: number): [number, number] {
  const b0 = bytes.charCodeAt(i);
  if (b0 < 0x80) return [b0, 1];
  const cont = (k: number) => {
    const b = bytes.charCodeAt(i + k);
    return b >= 0x80 && b <= 0xbf ? b & 0x3f : -1;
  };
  if (b0 >= 0xc2 && b0 <= 0xdf) {
    const c1 = cont(1);
    return c1 < 0 ? [-1, 1] : [((b0 & 0x1f) << 6) | c1, 2];
  }
  if (b0 >= 0xe0 && b0 <= 0xef) {
    const c1 = cont(1);
    const c2 = cont(2);
    if (c1 < 0 || c2 < 0) return [-1, 1];
    const r = ((b0 & 0x0f) << 12) | (c1 << 6) | c2;
    return r < 0x800 || (r >= 0xd800 && r <= 0xdfff) ? [-1, 1] : [r, 3];
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    const c1 = cont(1);
    const c2 = cont(2);
    const c3 = cont(3);
    if (c1 < 0 || c2 < 0 || c3 < 0) return [-1, 1];
    const r = ((b0 & 0x07) << 18) | (c1 << 12) | (c2 << 6) | c3;
    return r < 0x10000 || r > 0x10ffff ? [-1, 1] : [r, 4];
  }
  return [-1, 1];
}

// --- float64 formatting ---

const sign = (x: number) => (x < 0 || Object.is(x, -0) ? '-' : '');

/** The exact value of |x| (finite) as integer / 10^scale: every float64 is a finite decimal. */
function exactDecimal(x: number): { int: bigint; scale: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  const mantissa = biased === 0 ? fraction : fraction | (1n << 52n);
  const exponent = (biased === 0 ? 1 : biased) - 1075;
  if (exponent >= 0) return { int: mantissa << BigInt(exponent), scale: 0 };
  return { int: mantissa * 5n ** BigInt(-exponent), scale: -exponent };
}

/** int / 10^drop rounded to an integer, exact ties to even (strconv's rounding). */
function roundHalfEven(int: bigint, drop: number): bigint {
  if (drop <= 0) return int * 10n ** BigInt(-drop);
  const divisor = 10n ** BigInt(drop);
  const quotient = int / divisor;
  const twice = (int % divisor) * 2n;
  if (twice > divisor || (twice === divisor && quotient % 2n === 1n)) return quotient + 1n;
  return quotient;
}

/** |x| rounded to `precision` fractional digits: integer part and fraction digits. */
function fixedParts(x: number, precision: number): { integer: string; fraction: string } {
  const { int, scale } = exactDecimal(x);
  const digits = roundHalfEven(int, scale - precision)
    .toString()
    .padStart(precision + 1, '0');
  return { integer: digits.slice(0, digits.length - precision), fraction: digits.slice(digits.length - precision) };
}

/** fmt `%.Nf` (strconv 'f' with precision N). */
export function goFormatFixed(x: number, precision: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '+Inf' : '-Inf';
  const { integer, fraction } = fixedParts(x, precision);
  return sign(x) + integer + (precision > 0 ? `.${fraction}` : '');
}

/** |x| rounded to `precision` digits after the first significant one: mantissa digits and exponent. */
function scientificParts(x: number, precision: number): { digits: string; exp: number } {
  if (x === 0) return { digits: '0'.repeat(precision + 1), exp: 0 };
  const { int, scale } = exactDecimal(x);
  const length = int.toString().length;
  let exp = length - 1 - scale;
  let digits = roundHalfEven(int, length - (precision + 1)).toString();
  if (digits.length > precision + 1) {
    // Rounding carried into a new digit (9.99… → 10.0…).
    digits = digits.slice(0, precision + 1);
    exp++;
  }
  return { digits, exp };
}

// golang.org/x/text/message with en_US, as cel-go's stringFormatter.Fixed/Scientific use it.
const SUPERSCRIPT = '⁰¹²³⁴⁵⁶⁷⁸⁹';

/** x/text/message `%.Nf` for en_US: grouped thousands, `∞` for infinities. */
export function localizedFixed(x: number, precision: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '∞' : '-∞';
  const { integer, fraction } = fixedParts(x, precision);
  const grouped = integer.replace(/\B(?=(\d{3})+$)/g, ',');
  return sign(x) + grouped + (precision > 0 ? `.${fraction}` : '');
}

/**
 * x/text/message `%We` for en_US as cel-go calls it. stringFormatter.Scientific builds the verb with
 * `fmt.Sprintf("%%%de", precision)`, i.e. the precision becomes a width: the mantissa always has the
 * default 6 fraction digits, and results shorter than the width are padded on the left.
 */
export function localizedScientific(x: number, width: number): string {
  let text: string;
  if (Number.isNaN(x)) text = 'NaN';
  else if (!Number.isFinite(x)) text = x > 0 ? '∞' : '-∞';
  else {
    const { digits, exp } = scientificParts(Math.abs(x), 6);
    const exponent = String(Math.abs(exp))
      .padStart(2, '0')
      .replace(/\d/g, (d) => SUPERSCRIPT[Number(d)] ?? d);
    text = `${sign(x)}${digits[0]}.${digits.slice(1)}\u202f×\u202f10${exp < 0 ? '⁻' : ''}${exponent}`;
  }
  const length = [...text].length;
  return length < width ? ' '.repeat(width - length) + text : text;
}
