/*
 * Go's strconv.FormatFloat in its shortest modes ('g' and 'f' with precision -1): fmt's `%v` of a
 * float64, as kube's field errors, CEL's `string(double)` and `format` print numbers.
 */

/** The shortest decimal digits that round-trip (as strconv's shortest mode) and the decimal exponent. */
function shortestDigits(x: number): { digits: string; exp: number } {
  const [mantissa = '0', exponent = '0'] = Math.abs(x).toExponential().split('e');
  return { digits: mantissa.replace('.', ''), exp: Number(exponent) };
}

/** `digits` (first digit at 10^exp) written without an exponent. */
function placePoint(digits: string, exp: number): string {
  if (exp < 0) return `0.${'0'.repeat(-exp - 1)}${digits}`;
  if (digits.length <= exp + 1) return digits + '0'.repeat(exp + 1 - digits.length);
  return `${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
}

const sign = (x: number) => (x < 0 || Object.is(x, -0) ? '-' : '');

/** fmt `%g` (strconv.FormatFloat(x, 'g', -1, 64)): %e when the exponent is < -4 or >= 6. */
export function goFormatG(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '+Inf' : '-Inf';
  const { digits, exp } = shortestDigits(x);
  if (exp < -4 || exp >= 6) {
    const mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign(x)}${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  return sign(x) + placePoint(digits, exp);
}

/** strconv.FormatFloat(x, 'f', -1, 64): the shortest digits, never an exponent. */
export function goFormatShortestFixed(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '+Inf' : '-Inf';
  const { digits, exp } = shortestDigits(x);
  return sign(x) + placePoint(digits, exp);
}
