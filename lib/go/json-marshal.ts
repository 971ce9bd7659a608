/**
 * Go's encoding/json Marshal, as field errors print a bad value that is neither a plain Go string nor
 * a number (a named string type such as core.RestartPolicy, a map, a slice, a pointer, a struct).
 * Members are written in the order the value holds them: a Go struct writes its fields in declaration
 * order, a Go map sorts its keys, so callers build structs in field order and pass maps through
 * `goMap`. Strings are escaped as encoding/json does: HTML-safe (`<`, `>`, `&` as \u003c…), U+2028 and
 * U+2029 escaped, `\b` and `\f` short forms (Go ≥ 1.22).
 */
// A JSON value (lib/kube/json's Json, restated so that Go's texts depend on nothing of the project).
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const SHORT_ESCAPES: ReadonlyMap<string, string> = new Map([
  ['"', '\\"'],
  ['\\', '\\\\'],
  ['\n', '\\n'],
  ['\r', '\\r'],
  ['\t', '\\t'],
  ['\b', '\\b'],
  ['\f', '\\f'],
]);

function escapeChar(ch: string): string {
  const short = SHORT_ESCAPES.get(ch);
  if (short !== undefined) return short;
  const code = ch.charCodeAt(0);
  if (code < 0x20 || ch === '<' || ch === '>' || ch === '&' || ch === '\u2028' || ch === '\u2029') return `\\u${code.toString(16).padStart(4, '0')}`;
  // A lone surrogate cannot come out of Go's decoder: invalid UTF-8 becomes U+FFFD.
  if (code >= 0xd800 && code <= 0xdfff) return '\ufffd';
  return ch;
}

/** A JSON string as encoding/json writes it. */
export function goJsonString(value: string): string {
  let out = '"';
  for (const ch of value) out += ch.length === 1 ? escapeChar(ch) : ch;
  return `${out}"`;
}

/** `json.Marshal(value)`, members in the value's own order. */
export function goMarshal(value: Json | undefined): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return goJsonString(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (Array.isArray(value)) return `[${value.map((item) => goMarshal(item)).join(',')}]`;
  return `{${Object.entries(value)
    .map(([key, item]) => `${goJsonString(key)}:${goMarshal(item)}`)
    .join(',')}}`;
}

/** A Go map's members in the order encoding/json writes them: keys sorted bytewise. */
export function goMap<T extends Json>(map: Readonly<Record<string, T>>): Record<string, T> {
  return Object.fromEntries(Object.entries(map).sort(([a], [b]) => compareBytes(a, b)));
}

/** Go's string comparison (UTF-8 bytes), which sort.Strings and sets.List use. */
export function compareBytes(a: string, b: string): number {
  if (a === b) return 0;
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return Buffer.compare(x, y);
}
