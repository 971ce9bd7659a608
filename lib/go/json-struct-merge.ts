/**
 * A JSON text as Go's decoder reads it into a struct when a member repeats (encoding/json `object` and `array`,
 * which sigs.k8s.io/json keeps): the later value is decoded into what the earlier one left, so objects merge
 * member by member (a struct's fields, a map's keys), arrays merge element by element and take the later
 * length, and anything else is replaced. `JSON.parse` keeps the later value whole instead.
 *
 * Only a typed decode merges: a map of interface{} values (a custom resource, a patch) replaces as
 * `JSON.parse` does. Fields whose Go type reads its JSON raw (RawExtension) would replace too; they are not
 * told apart here. The text must be valid JSON (callers check it first: `goJsonSyntaxError`, or JSON.parse in goDecodeJson).
 */

import { type JsonCursor, readScalar, readString, skipSpace } from './json-cursor';
import { mayRepeatMemberNames } from './json-object-keys';

// A JSON value (lib/kube/json's Json, restated so that Go's semantics depend on nothing of the project).
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isObject = (value: Json | undefined): value is { [key: string]: Json } => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Sets a member as JSON.parse does: `__proto__` too is an own member, not the prototype. */
function setMember(object: { [key: string]: Json }, key: string, value: Json): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

/** What decoding `later` into the Go value `earlier` left leaves. */
export function goDecodeInto(earlier: Json | undefined, later: Json): Json {
  if (isObject(earlier) && isObject(later)) {
    const merged: { [key: string]: Json } = { ...earlier };
    for (const [key, value] of Object.entries(later)) setMember(merged, key, goDecodeInto(Object.hasOwn(earlier, key) ? earlier[key] : undefined, value));
    return merged;
  }
  if (Array.isArray(earlier) && Array.isArray(later)) return later.map((value, i) => goDecodeInto(earlier[i], value));
  return later;
}

type Read = JsonCursor;

function readObject(r: Read): Json {
  r.at++;
  const out: { [key: string]: Json } = {};
  skipSpace(r);
  if (r.text[r.at] === '}') {
    r.at++;
    return out;
  }
  for (;;) {
    skipSpace(r);
    const key = readString(r);
    skipSpace(r);
    r.at++; // ':'
    const value = readValue(r);
    setMember(out, key, Object.hasOwn(out, key) ? goDecodeInto(out[key], value) : value);
    skipSpace(r);
    if (r.text[r.at++] === '}') return out;
    if (r.at >= r.text.length) throw new SyntaxError('unexpected end of JSON input');
  }
}

function readArray(r: Read): Json {
  r.at++;
  const out: Json[] = [];
  skipSpace(r);
  if (r.text[r.at] === ']') {
    r.at++;
    return out;
  }
  for (;;) {
    out.push(readValue(r));
    skipSpace(r);
    if (r.text[r.at++] === ']') return out;
    if (r.at >= r.text.length) throw new SyntaxError('unexpected end of JSON input');
  }
}

function readValue(r: Read): Json {
  skipSpace(r);
  const c = r.text[r.at];
  if (c === '{') return readObject(r);
  if (c === '[') return readArray(r);
  if (c === '"') return readString(r);
  return JSON.parse(readScalar(r)) as Json;
}

/** `text` (valid JSON) with each repeated member decoded into the earlier one, as into a Go struct. */
export function parseIntoStruct(text: string): Json {
  return readValue({ text, at: 0 });
}

/**
 * `text` as Go decodes it into a struct (`typed`: a built-in kind) or into a map (JSON.parse's value); throws
 * JSON.parse's SyntaxError. Only a repeated member tells the two apart, so the slower struct reading is kept
 * for a text that has one (checked cheaply, and remembered for the strict decoding that follows).
 */
export function goDecodeJson(text: string, typed: boolean): Json {
  const parsed = JSON.parse(text) as Json;
  return mayRepeatMemberNames(text, parsed) && typed ? parseIntoStruct(text) : parsed;
}
