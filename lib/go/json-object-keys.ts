/**
 * The member names of every object in a JSON text, in document order, each with the path sigs.k8s.io/json's
 * strict decoder names it by (`spec.template.spec.containers[0].imagePullPolicy`, `[1].path` under a
 * top-level array) and whether it repeats a name its object already has. kube-apiserver's strict decoding
 * (sigs.k8s.io/json `UnmarshalStrict`, its `DisallowDuplicateFields`) reports those repeats as
 * `duplicate field "<path>"`.
 *
 * Hand-written because nothing the project depends on keeps duplicate names: `JSON.parse` keeps the last
 * value of a name silently, and the `yaml` package's JSON reading follows YAML's whitespace rules (a tab
 * indenting a JSON body is an error there). The text must be valid JSON: callers check it first with
 * encoding/json's scanner (`goJsonSyntaxError`) or JSON.parse, so this walk need not report syntax errors.
 */

import { type JsonCursor, readScalar, readString, skipSpace, skipString } from './json-cursor';

/** One member name of one object. */
export interface ObjectKey {
  /** The member's path as the strict decoder writes it. */
  readonly path: string;
  /** The member's name, and the path of the object holding it (`''` at the top). */
  readonly name: string;
  readonly parent: string;
  /** Whether an earlier member of the same object has the same name. */
  readonly repeated: boolean;
}

interface Walk extends JsonCursor {
  readonly keys: ObjectKey[];
}

const child = (parent: string, name: string): string => (parent === '' ? name : `${parent}.${name}`);

function walkValue(w: Walk, path: string): void {
  skipSpace(w);
  const c = w.text[w.at];
  if (c === '{') return walkObject(w, path);
  if (c === '[') return walkArray(w, path);
  if (c === '"') return skipString(w);
  readScalar(w);
}

function walkObject(w: Walk, path: string): void {
  w.at++;
  const seen = new Set<string>();
  skipSpace(w);
  if (w.text[w.at] === '}') {
    w.at++;
    return;
  }
  for (;;) {
    skipSpace(w);
    const name = readString(w);
    const memberPath = child(path, name);
    w.keys.push({ path: memberPath, name, parent: path, repeated: seen.has(name) });
    seen.add(name);
    skipSpace(w);
    w.at++; // ':'
    walkValue(w, memberPath);
    skipSpace(w);
    if (w.text[w.at++] === '}' || w.at >= w.text.length) return;
  }
}

function walkArray(w: Walk, path: string): void {
  w.at++;
  skipSpace(w);
  if (w.text[w.at] === ']') {
    w.at++;
    return;
  }
  for (let index = 0; ; index++) {
    walkValue(w, `${path}[${index}]`);
    skipSpace(w);
    if (w.text[w.at++] === ']' || w.at >= w.text.length) return;
  }
}

/** Every member name of every object in `text` (valid JSON), in document order. */
export function jsonObjectKeys(text: string): ObjectKey[] {
  const w: Walk = { text, at: 0, keys: [] };
  walkValue(w, '');
  return w.keys;
}

// A JSON string, and the colon after it when it is a member name. Each match takes a whole string, so none
// starts inside one (outside its strings, valid JSON has no quote).
const STRING_TOKEN = /"(?:[^"\\]|\\.)*"(\s*:)?/g;

function memberNameCount(text: string): number {
  let count = 0;
  for (const match of text.matchAll(STRING_TOKEN)) if (match[1] !== undefined) count++;
  return count;
}

function keyCount(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + keyCount(item), 0);
  let count = 0;
  for (const key of Object.keys(value)) count += 1 + keyCount((value as Record<string, unknown>)[key]);
  return count;
}

// The answer for the text checked last: a write's strict decoding reads it again right after its decode.
let lastChecked: { text: string; repeats: boolean } | undefined;

/**
 * Whether an object of `text` may repeat a member name. With `parsed` (JSON.parse of `text`) the answer is
 * exact and cheap: a repeat is the only way the text can have more member names than the value has keys
 * (a native regex count and a walk of the value, about a sixth of `jsonObjectKeys` on a 100 KB body). Without
 * it, the answer remembered for the same text, else true (the caller walks the text to know).
 */
export function mayRepeatMemberNames(text: string, parsed?: unknown): boolean {
  if (parsed === undefined) return lastChecked?.text === text ? lastChecked.repeats : true;
  const repeats = memberNameCount(text) !== keyCount(parsed);
  lastChecked = { text, repeats };
  return repeats;
}
