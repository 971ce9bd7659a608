/**
 * Go's `time.Parse` and `Time.Format` for the two layouts metav1 uses: `time.RFC3339` (metav1.Time) and
 * `RFC3339Micro` (metav1.MicroTime), with Go's error texts — kube-apiserver returns them verbatim when a
 * patch writes a bad timestamp.
 *
 * Upstream: Go's `src/time/format.go` (`parse`, `skip`, `getnum`, `parseNanoseconds`, `quote`,
 * `ParseError.Error`); `staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/time.go` and `micro_time.go`
 * (UnmarshalJSON parses with these layouts, MarshalJSON formats the UTC time, a zero time is `null`).
 * The general parser is modelled, not Go's RFC 3339 fast path: every input the fast path accepts, the
 * general parser accepts with the same value.
 */

export const RFC3339 = '2006-01-02T15:04:05Z07:00';
export const RFC3339_MICRO = '2006-01-02T15:04:05.000000Z07:00';

/** A parsed instant: seconds since the Unix epoch (UTC) and nanoseconds. */
export interface GoTime {
  readonly seconds: number;
  readonly nanos: number;
}

export type GoTimeParse = { ok: true; time: GoTime } | { ok: false; message: string };

type Element = { literal: string } | { std: 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second' | 'micro' | 'zone'; text: string };

// The layouts cut into Go's chunks: literal prefixes and std elements, in order. RFC3339Micro is
// RFC3339 with six fractional digits before the zone.
const DATE_TIME: readonly Element[] = [
  { std: 'year', text: '2006' },
  { literal: '-' },
  { std: 'month', text: '01' },
  { literal: '-' },
  { std: 'day', text: '02' },
  { literal: 'T' },
  { std: 'hour', text: '15' },
  { literal: ':' },
  { std: 'minute', text: '04' },
  { literal: ':' },
  { std: 'second', text: '05' },
];
const ZONE: Element = { std: 'zone', text: 'Z07:00' };
const ELEMENTS: Record<string, readonly Element[]> = {
  [RFC3339]: [...DATE_TIME, ZONE],
  [RFC3339_MICRO]: [...DATE_TIME, { std: 'micro', text: '.000000' }, ZONE],
};

function isDigit(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return c >= 48 && c <= 57;
}

/** getnum: one or two digits (exactly two when fixed). */
function getnum(s: string, fixed: boolean): [number, string] | undefined {
  if (!isDigit(s, 0)) return undefined;
  if (!isDigit(s, 1)) return fixed ? undefined : [s.charCodeAt(0) - 48, s.slice(1)];
  return [(s.charCodeAt(0) - 48) * 10 + (s.charCodeAt(1) - 48), s.slice(2)];
}

/** Go's time-package atoi: an optional sign, then decimal digits only (none at all reads as 0). */
function goAtoi(s: string): number | undefined {
  const m = /^([+-]?)([0-9]*)$/.exec(s);
  if (m === null) return undefined;
  const n = Number((m[2] as string) || '0');
  return m[1] === '-' ? -n : n;
}

/**
 * parseNanoseconds: `value[0]` is the separator, `value[1:nbytes]` the digits; beyond nine digits the
 * rest is cut. Returns the nanoseconds, or 'range' / 'bad' as Go's parse reports them.
 */
function parseNanoseconds(value: string, nbytes: number): number | 'range' | 'bad' {
  if (value[0] !== '.' && value[0] !== ',') return 'bad';
  const width = Math.min(nbytes, 10);
  const ns = goAtoi(value.slice(1, width));
  if (ns === undefined) return 'bad';
  if (ns < 0) return 'range';
  return ns * 10 ** (10 - width);
}

function daysIn(month: number, year: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Go's time-package quote(): ASCII as is (with `"` and `\` escaped), other bytes as `\xNN`. */
export function goTimeQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    if (cp >= 0x80 || cp < 0x20) {
      for (const byte of Buffer.from(ch, 'utf8')) out += `\\x${byte.toString(16).padStart(2, '0')}`;
    } else {
      if (ch === '"' || ch === '\\') out += '\\';
      out += ch;
    }
  }
  return `${out}"`;
}

function cannotParse(layout: string, value: string, valueElem: string, layoutElem: string): GoTimeParse {
  return {
    ok: false,
    message: `parsing time ${goTimeQuote(value)} as ${goTimeQuote(layout)}: cannot parse ${goTimeQuote(valueElem)} as ${goTimeQuote(layoutElem)}`,
  };
}

function withMessage(value: string, message: string): GoTimeParse {
  return { ok: false, message: `parsing time ${goTimeQuote(value)}${message}` };
}

/** time.Parse(layout, value) for RFC3339 and RFC3339Micro. */
export function parseGoTime(layout: typeof RFC3339 | typeof RFC3339_MICRO, input: string): GoTimeParse {
  const elements = ELEMENTS[layout] as readonly Element[];
  let value = input;
  let year = 0;
  let month = 1;
  let day = 1;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let nanos = 0;
  let zoneOffset = 0;
  for (const element of elements) {
    if ('literal' in element) {
      // skip(): the literal must be next.
      if (value.length === 0 || value[0] !== element.literal) return cannotParse(layout, input, value, element.literal);
      value = value.slice(1);
      continue;
    }
    const hold = value;
    let range: string | undefined;
    let bad = false;
    switch (element.std) {
      case 'year': {
        if (value.length < 4 || !isDigit(value, 0)) {
          bad = true;
          break;
        }
        const digits = value.slice(0, 4);
        value = value.slice(4);
        if (!/^[0-9]{4}$/.test(digits)) bad = true;
        else year = Number(digits);
        break;
      }
      case 'month':
      case 'day':
      case 'hour':
      case 'minute':
      case 'second': {
        const got = getnum(value, element.std !== 'hour');
        if (got === undefined) {
          bad = true;
          break;
        }
        const [n, rest] = got;
        value = rest;
        if (element.std === 'month') {
          month = n;
          if (n <= 0 || n > 12) range = 'month';
        } else if (element.std === 'day') {
          day = n; // validated against the month once everything is parsed
        } else if (element.std === 'hour') {
          hour = n;
          if (n >= 24) range = 'hour';
        } else if (element.std === 'minute') {
          minute = n;
          if (n >= 60) range = 'minute';
        } else {
          second = n;
          if (n >= 60) {
            range = 'second';
            break;
          }
          // A fractional second the layout does not spell out is accepted (`.` or `,`, any digits).
          if (layout === RFC3339 && value.length >= 2 && (value[0] === '.' || value[0] === ',') && isDigit(value, 1)) {
            let n2 = 2;
            while (n2 < value.length && isDigit(value, n2)) n2++;
            nanos = parseNanoseconds(value, n2) as number; // digits only: always a number
            value = value.slice(n2);
          }
        }
        break;
      }
      case 'micro': {
        // stdFracSecond0: exactly the layout's digits, after `.` or `,`.
        const width = element.text.length;
        if (value.length < width) {
          bad = true;
          break;
        }
        const ns = parseNanoseconds(value, width);
        value = value.slice(width);
        if (ns === 'bad') bad = true;
        else if (ns === 'range') range = 'fractional second';
        else nanos = ns;
        break;
      }
      case 'zone': {
        if (value.length >= 1 && value[0] === 'Z') {
          value = value.slice(1);
          break;
        }
        if (value.length < 6 || value[3] !== ':') {
          bad = true;
          break;
        }
        const sign = value[0];
        const hh = getnum(value.slice(1, 3), true);
        const mm = getnum(value.slice(4, 6), true);
        value = value.slice(6);
        if (hh === undefined || mm === undefined) {
          bad = true;
          break;
        }
        if (hh[0] > 24) range = 'time zone offset hour';
        if (mm[0] > 60) range = 'time zone offset minute';
        zoneOffset = (hh[0] * 60 + mm[0]) * 60;
        if (sign === '-') zoneOffset = -zoneOffset;
        else if (sign !== '+') bad = true;
        break;
      }
    }
    if (range !== undefined) return withMessage(input, `: ${range} out of range`);
    if (bad) return cannotParse(layout, input, hold, element.text);
  }
  if (value.length > 0) return withMessage(input, `: extra text: ${goTimeQuote(value)}`);
  if (day < 1 || day > daysIn(month, year)) return withMessage(input, ': day out of range');
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  return { ok: true, time: { seconds: date.getTime() / 1000 - zoneOffset, nanos } };
}

/** Time.IsZero: January 1, year 1, 00:00:00 UTC. */
export function isZeroGoTime(t: GoTime): boolean {
  return t.seconds === ZERO_TIME_SECONDS && t.nanos === 0;
}

const ZERO_TIME_SECONDS = (() => {
  const date = new Date(0);
  date.setUTCFullYear(1, 0, 1);
  return date.getTime() / 1000;
})();

/** t.UTC().Format(layout) for RFC3339 (whole seconds) and RFC3339Micro (six digits, truncated). */
export function formatGoTime(layout: typeof RFC3339 | typeof RFC3339_MICRO, t: GoTime): string {
  const date = new Date(t.seconds * 1000);
  const year = date.getUTCFullYear();
  const yyyy = year < 0 ? `-${String(-year).padStart(3, '0')}` : String(year).padStart(4, '0');
  const two = (n: number) => String(n).padStart(2, '0');
  const base = `${yyyy}-${two(date.getUTCMonth() + 1)}-${two(date.getUTCDate())}T${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())}`;
  if (layout === RFC3339) return `${base}Z`;
  return `${base}.${String(Math.floor(t.nanos / 1000)).padStart(6, '0')}Z`;
}
