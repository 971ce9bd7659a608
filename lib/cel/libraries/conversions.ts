/*
 * `duration(string)` and `timestamp(string)` as cel-go converts (common/types/string.go `ConvertToType`):
 * Go's time.ParseDuration (so `duration('0')` is zero; cel-js requires a unit) and time.Parse with
 * RFC 3339 (cel-js's `new Date` reads other shapes too), failing with cel-go's conversion error.
 * cel-js's overloads cannot be replaced by registering the same signature, so each checked call to
 * them is redirected, as timestamps.ts does for the accessors.
 */
import type { ASTNode } from '@marcbachmann/cel-js';
import { forEachNode } from '../ast-walk';
import { CelFunctionError } from '../errors';
import { celValueClasses } from './cel-values';
import { MAX_UNIX_SECONDS, MIN_UNIX_SECONDS, parseGoDuration, parseRfc3339 } from '../../go/time-parse';

type CallHandle = (args: unknown[], node: unknown, ev: unknown) => unknown;

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
  return new Date(millis);
}

const CONVERSIONS: ReadonlyMap<string, (text: string) => unknown> = new Map<string, (text: string) => unknown>([
  ['duration', durationOf],
  ['timestamp', timestampOf],
]);

export function redirectConversions(root: ASTNode): void {
  forEachNode(root, (node) => {
    if (node.op !== 'call') return;
    const [name, args] = node.args as [string, ASTNode[]];
    const convert = CONVERSIONS.get(name);
    const call = node as unknown as { handle?: CallHandle };
    const original = call.handle;
    if (!convert || args.length !== 1 || typeof original !== 'function') return;
    call.handle = (values, at, ev) => (typeof values[0] === 'string' ? convert(values[0]) : original(values, at, ev));
  });
}
