import type { ASTNode } from '@marcbachmann/cel-js';
import { forEachNode } from '../ast-walk';

/*
 * The offset a timestamp was written with. cel-go keeps what time.Parse read: `timestamp('…+01:00')`
 * is a time in a fixed zone of +01:00 (Go's time.Parse records the offset as a FixedZone unless the
 * server's own zone has it; kube-apiserver runs in UTC, where only a zero offset is its own), and so is
 * every timestamp computed from it with a duration (time.Time Add keeps the location). Converting it to
 * a string writes that offset back (common/types/timestamp.go `ConvertToType`: time.RFC3339Nano), while
 * comparisons and the accessors (UTC, as kube's environment has cel.DefaultUTCTimeZone) ignore it.
 * cel-js holds a timestamp as a JavaScript Date, which has no zone, so the offset is kept beside it.
 */

const OFFSETS = new WeakMap<Date, number>();

/** Records the offset, in minutes east of UTC, a timestamp was written with (none for zero). */
export function keepOffset(timestamp: Date, minutes: number): Date {
  if (minutes !== 0) OFFSETS.set(timestamp, minutes);
  return timestamp;
}

/** The offset in minutes east of UTC a timestamp is written with: 0 for UTC. */
export function offsetOf(timestamp: Date): number {
  return OFFSETS.get(timestamp) ?? 0;
}

/** The offset of an RFC 3339 text time.Parse accepted: `Z` or `±hh:mm`. */
export function rfc3339Offset(text: string): number {
  const match = /([+-])(\d\d):(\d\d)$/.exec(text);
  if (!match) return 0;
  return (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3]));
}

type BinaryHandle = (left: unknown, right: unknown, ...rest: unknown[]) => unknown;

/** In a checked program, a timestamp plus or minus a duration keeps the offset of the timestamp. */
export function carryTimestampOffsets(root: ASTNode): void {
  forEachNode(root, (node) => {
    if (node.op !== '+' && node.op !== '-') return;
    const operation = node as unknown as { handle?: BinaryHandle };
    const original = operation.handle;
    if (typeof original !== 'function') return;
    operation.handle = (left, right, ...rest) => {
      const result = original(left, right, ...rest);
      if (!(result instanceof Date)) return result;
      const from = left instanceof Date ? left : right instanceof Date ? right : undefined;
      return from ? keepOffset(result, offsetOf(from)) : result;
    };
  });
}
