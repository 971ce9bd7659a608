/*
 * Go's time zones as CEL's timestamp accessors read them (cel-go common/types/timestamp.go `timeZone`):
 * a name without ':' is looked up by time.LoadLocation; one with ':' is a fixed offset `<hours>:<minutes>`,
 * each part read by strconv.Atoi. Node's ICU time zone data stands in for Go's tz database.
 */
import { goQuote } from './strconv';

/** A moment's wall clock in a zone, as Go's time.Time reads it after `In(loc)`. */
export interface WallClock {
  /** Astronomical year: 0 is 1 BC, as Go's Year(). */
  year: number;
  /** 1-12. */
  month: number;
  day: number;
  /** 0 is Sunday. */
  weekday: number;
  /** 1-based, as Go's YearDay(). */
  yearDay: number;
  hour: number;
  minute: number;
  second: number;
}

/** Go's time.Location: how a moment (Unix milliseconds) reads on its wall clock. */
export type Location = (unixMillis: number) => WallClock;

const utc: Location = (unixMillis) => fromShiftedMillis(unixMillis);

/** cel-go's `timeZone`: the location a CEL time zone argument names, or the Go error it raises. */
export function celTimeZone(zone: string): Location | { error: string } {
  const colon = zone.indexOf(':');
  if (colon === -1) return loadLocation(zone);
  const hours = atoi(zone.slice(0, colon));
  if (typeof hours === 'string') return { error: hours };
  const minutes = atoi(zone.slice(colon + 1));
  if (typeof minutes === 'string') return { error: minutes };
  if (minutes < 0n || minutes > 59n) return { error: `timezone offset minutes out of range [0, 59]: ${zone}` };
  // The sign of the hours applies to the minutes ("-08:30" is 8 h 30 min west), read from the first byte.
  const offsetMinutes = zone.startsWith('-') ? hours * 60n - minutes : hours * 60n + minutes;
  // time.Duration(offset) * time.Minute wraps at int64 nanoseconds; Seconds() truncates towards zero.
  const nanos = BigInt.asIntN(64, offsetMinutes * 60_000_000_000n);
  const seconds = Number(nanos / 1_000_000_000n);
  return (unixMillis) => fromShiftedMillis(unixMillis + seconds * 1000);
}

/** time.LoadLocation: `""` and `UTC` are UTC, `Local` the server's zone (UTC in kube-apiserver's image). */
export function loadLocation(name: string): Location | { error: string } {
  if (name === '' || name === 'UTC' || name === 'Local') return utc;
  // No IANA name contains "..", nor starts with a slash.
  if (name.includes('..') || name.startsWith('/') || name.startsWith('\\')) return { error: 'time: invalid location name' };
  const formatter = ianaFormatter(name);
  return formatter ? (unixMillis) => wallClockIn(formatter, unixMillis) : { error: `unknown time zone ${name}` };
}

const formatters = new Map<string, Intl.DateTimeFormat | undefined>();

// Go reads zone files by name, so names are case-sensitive and never numeric offsets, which newer ICUs
// accept as zones; ICU matches names case-insensitively and resolves links to their target.
function ianaFormatter(name: string): Intl.DateTimeFormat | undefined {
  if (formatters.has(name)) return formatters.get(name);
  let formatter: Intl.DateTimeFormat | undefined;
  if (/^[A-Za-z]/.test(name)) {
    try {
      const candidate = new Intl.DateTimeFormat('en-US', {
        timeZone: name,
        hourCycle: 'h23',
        era: 'short',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
      if (spelledAsGo(name, candidate.resolvedOptions().timeZone)) formatter = candidate;
    } catch {
      formatter = undefined;
    }
  }
  formatters.set(name, formatter);
  return formatter;
}

let canonicalNames: ReadonlyMap<string, string> | undefined;

function spelledAsGo(name: string, resolved: string): boolean {
  if (resolved === name) return true;
  if (resolved.toLowerCase() === name.toLowerCase()) return false;
  // A link (`US/Central`) resolves to its target; only a canonical name spelt in another case is told apart.
  canonicalNames ??= new Map(Intl.supportedValuesOf('timeZone').map((zone) => [zone.toLowerCase(), zone]));
  const canonical = canonicalNames.get(name.toLowerCase());
  return canonical === undefined || canonical === name;
}

function wallClockIn(formatter: Intl.DateTimeFormat, unixMillis: number): WallClock {
  const parts: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const part of formatter.formatToParts(unixMillis)) parts[part.type] = part.value;
  const yearOfEra = Number(parts.year);
  const year = parts.era === 'BC' || parts.era === 'B' ? 1 - yearOfEra : yearOfEra;
  const wall = Date.UTC(2000, Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  // Date.UTC maps years 0-99 onto 1900-1999: set the year apart.
  const shifted = new Date(wall);
  shifted.setUTCFullYear(year, Number(parts.month) - 1, Number(parts.day));
  return fromShiftedMillis(shifted.getTime() + (((unixMillis % 1000) + 1000) % 1000));
}

/** The UTC fields of a moment already shifted by the zone's offset. */
function fromShiftedMillis(millis: number): WallClock {
  const date = new Date(millis);
  const year = date.getUTCFullYear();
  const start = new Date(0);
  start.setUTCFullYear(year, 0, 1);
  start.setUTCHours(0, 0, 0, 0);
  const dayStart = new Date(millis);
  dayStart.setUTCHours(0, 0, 0, 0);
  return {
    year,
    month: date.getUTCMonth() + 1,
    day: date.getUTCDate(),
    weekday: date.getUTCDay(),
    yearDay: Math.round((dayStart.getTime() - start.getTime()) / 86_400_000) + 1,
    hour: date.getUTCHours(),
    minute: date.getUTCMinutes(),
    second: date.getUTCSeconds(),
  };
}

/** strconv.Atoi on a 64-bit platform: an optional sign and decimal digits, or its error text. */
function atoi(s: string): bigint | string {
  const fail = (why: string) => `strconv.Atoi: parsing ${goQuote(s)}: ${why}`;
  if (!/^[+-]?\d+$/.test(s)) return fail('invalid syntax');
  const value = BigInt(s);
  if (value > 2n ** 63n - 1n || value < -(2n ** 63n)) return fail('value out of range');
  return value;
}
