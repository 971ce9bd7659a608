/*
 * `duration(string)` and `timestamp(string)` as cel-go converts (common/types/string.go `ConvertToType`):
 * Go's time.ParseDuration (so `duration('0')` is zero; cel-js requires a unit) and time.Parse with
 * RFC 3339 (cel-js's `new Date` reads other shapes too), keeping the offset it was written with
 * (timestamp-offsets.ts), failing with cel-go's conversion error.
 * cel-js's overloads cannot be replaced by registering the same signature, so each checked call to
 * them is redirected (lib/cel/redirect-calls.ts).
 */
import { CelFunctionError } from '../errors';
import { CEL_JS_RUNS, type CallRedirect, type CallShape } from '../redirect-calls';
import { celValueClasses } from './cel-values';
import { keepOffset, rfc3339Offset } from './timestamp-offsets';
import { MAX_UNIX_SECONDS, MIN_UNIX_SECONDS, parseGoDuration, parseRfc3339 } from '../../go/time-parse';

const NANOS_PER_SECOND = 1_000_000_000n;

/** cel-go's `duration(string)`. */
export function durationOf(text: string): unknown {
  const nanos = parseGoDuration(text);
  if (nanos === undefined) throw new CelFunctionError("type conversion error from 'string' to 'google.protobuf.Duration'");
  const { Duration } = celValueClasses();
  return new Duration(nanos / NANOS_PER_SECOND, Number(nanos % NANOS_PER_SECOND));
}

/** cel-go's `timestamp(string)`. */
export function timestampOf(text: string): Date {
  const millis = parseRfc3339(text);
  if (millis === undefined) throw new CelFunctionError("type conversion error from 'string' to 'google.protobuf.Timestamp'");
  if (millis < MIN_UNIX_SECONDS * 1000 || millis >= (MAX_UNIX_SECONDS + 1) * 1000) throw new CelFunctionError('timestamp overflow');
  return keepOffset(new Date(millis), rfc3339Offset(text));
}

const CONVERSIONS: ReadonlyMap<string, (text: string) => unknown> = new Map<string, (text: string) => unknown>([
  ['duration', durationOf],
  ['timestamp', timestampOf],
]);

/** `duration(string)` and `timestamp(string)` run as cel-go converts; other arguments stay cel-js's. */
export function conversionRedirect({ name, member, arity }: CallShape): CallRedirect | undefined {
  const convert = CONVERSIONS.get(name);
  if (!convert || member || arity !== 1) return undefined;
  return ([text]) => (typeof text === 'string' ? convert(text) : CEL_JS_RUNS);
}
