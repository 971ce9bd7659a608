/*
 * CEL's timestamp accessors in a time zone, as cel-go reads them (common/types/timestamp.go): every
 * zone Go's time.LoadLocation knows, fixed offsets such as `+01:00` or `01:00`, and Go's error for any
 * other. cel-js's own accept only what `Date.prototype.toLocaleString` accepts (a fixed offset throws a
 * RangeError out of the evaluation), read the wall clock back in the machine's own zone, and cannot be
 * replaced by registering an overload (same signature), so each checked call is redirected instead
 * (lib/cel/redirect-calls.ts).
 */
import { celTimeZone, loadLocation, type Location, type WallClock } from '../../go/location';
import { CelFunctionError } from '../errors';
import { CEL_JS_RUNS, type CallRedirect, type CallShape } from '../redirect-calls';

type Accessor = (clock: WallClock, unixMillis: number) => number;

const millisOf = (unixMillis: number) => ((unixMillis % 1000) + 1000) % 1000;

const ACCESSORS: ReadonlyMap<string, Accessor> = new Map<string, Accessor>([
  ['getFullYear', (clock) => clock.year],
  // CEL's month and day of month (getDayOfMonth) and day of year are 0-based; getDate is 1-based.
  ['getMonth', (clock) => clock.month - 1],
  ['getDate', (clock) => clock.day],
  ['getDayOfMonth', (clock) => clock.day - 1],
  ['getDayOfWeek', (clock) => clock.weekday],
  ['getDayOfYear', (clock) => clock.yearDay - 1],
  ['getHours', (clock) => clock.hour],
  ['getMinutes', (clock) => clock.minute],
  ['getSeconds', (clock) => clock.second],
  ['getMilliseconds', (_clock, unixMillis) => millisOf(unixMillis)],
]);

/** One accessor of a timestamp, in UTC or in the zone named (cel-go's text for a zone it refuses). */
export function timestampField(name: string, timestamp: Date, zone?: string): bigint {
  const accessor = ACCESSORS.get(name);
  if (!accessor) throw new Error(`${name} is no timestamp accessor`);
  const location: Location | { error: string } = zone === undefined ? (loadLocation('UTC') as Location) : celTimeZone(zone);
  if ('error' in location) throw new CelFunctionError(location.error);
  const unixMillis = timestamp.getTime();
  return BigInt(accessor(location(unixMillis), unixMillis));
}

/**
 * Redirects every timestamp accessor call of a checked program to `timestampField`: those with a zone,
 * and `getDayOfYear()`, which cel-js computes in the machine's zone. Calls on other receivers (a
 * duration's `getHours()`) keep cel-js's handler.
 */
export function timestampAccessorRedirect({ name, member, arity }: CallShape): CallRedirect | undefined {
  if (!member || !ACCESSORS.has(name)) return undefined;
  if (arity === 1) {
    return ([receiver, zone]) => (receiver instanceof Date && typeof zone === 'string' ? timestampField(name, receiver, zone) : CEL_JS_RUNS);
  }
  if (arity === 0 && name === 'getDayOfYear') return ([receiver]) => (receiver instanceof Date ? timestampField(name, receiver) : CEL_JS_RUNS);
  return undefined;
}
