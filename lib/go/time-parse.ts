/*
 * Go's time.ParseDuration and time.Parse(time.RFC3339, …), as CEL's `duration()` and `timestamp()`
 * conversions read a string (cel-go common/types/string.go `ConvertToType`). Only whether and to what
 * they parse matters here: cel-go reports a failure in its own words.
 */

const UNIT_NANOS: ReadonlyMap<string, bigint> = new Map([
  ['ns', 1n],
  ['us', 1_000n],
  ['\u00b5s', 1_000n],
  ['\u03bcs', 1_000n],
  ['ms', 1_000_000n],
  ['s', 1_000_000_000n],
  ['m', 60_000_000_000n],
  ['h', 3_600_000_000_000n],
]);
const LIMIT = 1n << 63n;

/** time.ParseDuration: nanoseconds, or undefined where Go returns an error (syntax, unit, overflow). */
export function parseGoDuration(text: string): bigint | undefined {
  let s = text;
  let negative = false;
  if (s.startsWith('-') || s.startsWith('+')) {
    negative = s.startsWith('-');
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') return undefined;
  let total = 0n;
  while (s !== '') {
    const number = /^(\d*)(?:\.(\d*))?/.exec(s);
    const whole = number?.[1] ?? '';
    const fraction = number?.[2];
    if (whole === '' && (fraction === undefined || fraction === '')) return undefined;
    s = s.slice(number?.[0].length ?? 0);
    const unitText = /^[^0-9.]*/.exec(s)?.[0] ?? '';
    const unit = UNIT_NANOS.get(unitText);
    if (unit === undefined) return undefined;
    s = s.slice(unitText.length);
    const value = whole === '' ? 0n : BigInt(whole);
    if (value > LIMIT / unit) return undefined;
    let nanos = value * unit;
    if (fraction) nanos += fractionNanos(fraction, unit);
    if (nanos > LIMIT) return undefined;
    total += nanos;
    if (total > LIMIT) return undefined;
  }
  if (negative) return -total;
  return total > LIMIT - 1n ? undefined : total;
}

// leadingFraction stops taking digits once they would overflow; the sum is then taken in float64.
function fractionNanos(digits: string, unit: bigint): bigint {
  let f = 0n;
  let scale = 1;
  let overflowed = false;
  for (const digit of digits) {
    if (overflowed) continue;
    if (f > (LIMIT - 1n) / 10n) {
      overflowed = true;
      continue;
    }
    const next = f * 10n + BigInt(digit);
    if (next > LIMIT) {
      overflowed = true;
      continue;
    }
    f = next;
    scale *= 10;
  }
  return f > 0n ? BigInt(Math.trunc(Number(f) * (Number(unit) / scale))) : 0n;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:Z|([+-])(\d{2}):(\d{2}))$/;

/** time.Parse(time.RFC3339, s): Unix milliseconds (sub-millisecond digits dropped), or undefined. */
export function parseRfc3339(text: string): number | undefined {
  const match = RFC3339.exec(text);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month) || hour > 23 || minute > 59 || second > 59) return undefined;
  const offsetHours = Number(match[9] ?? 0);
  const offsetMinutes = Number(match[10] ?? 0);
  if (offsetHours > 24 || offsetMinutes > 59) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, Number((match[7] ?? '').slice(0, 3).padEnd(3, '0')));
  const offset = (match[8] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
  return date.getTime() - offset;
}

/** The days of a month (1-12) of a proleptic Gregorian year, year 0 a leap year as Go's time reads it. */
export function daysIn(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** CEL's timestamp range, 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z, in Unix seconds. */
export const MIN_UNIX_SECONDS = -62135596800;
export const MAX_UNIX_SECONDS = 253402300799;
