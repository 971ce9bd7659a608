/**
 * lazyNode.equal from patch.go, which decides `test`. It differs from a plain deep-equal
 * (fast-json-patch's `_areEquals`) in one way that matters: nulls nested in the values are nil
 * *lazyNode pointers, and equal() dereferences them when it compares array elements, so Go panics.
 */
import type { Json, JsonObject } from './containers';
import { GoPanic, NIL_DEREFERENCE } from './go-text';
import { isObject } from '../kube/json';

/**
 * Whether the document value `actual` (not null) equals an operation's `expected` value. A top-level
 * `"value": null` is a node without bytes, which equal() compares without dereferencing: it equals nothing.
 *
 * Go compares scalars by their JSON text (so `1` and `1.0` differ there); this compares parsed values.
 */
export function valueEquals(actual: Json, expected: Json): boolean {
  return expected !== null && nodeEqual(actual, expected);
}

function nodeEqual(actual: Json, expected: Json): boolean {
  if (actual === null || expected === null) throw new GoPanic(NIL_DEREFERENCE);
  if (Array.isArray(actual)) return Array.isArray(expected) && arrayEqual(actual, expected);
  if (typeof actual === 'object') return isObject(expected) && objectEqual(actual, expected);
  return typeof expected !== 'object' && actual === expected;
}

/** Elements are compared in order, so a mismatch before the first null returns false without panicking. */
function arrayEqual(actual: Json[], expected: Json[]): boolean {
  return actual.length === expected.length && actual.every((element, i) => nodeEqual(element, expected[i] ?? null));
}

/**
 * Members are null-checked before recursing, so nulls directly in objects compare fine. Go ranges over
 * the map in random order: when one member differs and another would panic, either can happen; this
 * reports the panic, the outcome a patch must not rely on escaping.
 */
function objectEqual(actual: JsonObject, expected: JsonObject): boolean {
  const keys = Object.keys(actual);
  if (keys.length !== Object.keys(expected).length) return false;
  const matches = keys.map((key) => memberEqual(actual[key] ?? null, expected, key));
  return matches.every(Boolean);
}

function memberEqual(actual: Json, expected: JsonObject, key: string): boolean {
  if (!Object.hasOwn(expected, key)) return false;
  const other = expected[key] ?? null;
  if (actual === null || other === null) return actual === other;
  return nodeEqual(actual, other);
}
