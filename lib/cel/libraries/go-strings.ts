import { CelFunctionError } from '../errors';
import { CEL_JS_RUNS, type CallRedirect, type CallShape } from '../redirect-calls';

/*
 * The ext.Strings functions cel-js has built in, as cel-go runs them (ext/strings.go): indices count
 * code points (Go's []rune), not UTF-16 units; lowerAscii/upperAscii change ASCII letters only; trim
 * removes what Go's unicode.IsSpace calls space (strings.TrimSpace: U+0085 yes, U+FEFF no); split('')
 * splits code points (strings.Split); and the errors are cel-go's (`index out of range: N`, `invalid
 * substring range. start: S, end: E`). cel-js's overloads cannot be replaced by registering the same
 * signature, so each checked call is redirected (lib/cel/redirect-calls.ts).
 */

const codePoints = (s: string): string[] => Array.from(s);

const outOfRange = (index: bigint) => new CelFunctionError(`index out of range: ${index}`);

/**
 * strings.go indexOfOffset. Since cel-go 0.22 (google/cel-go#1052, so in every Kubernetes from 1.33) an
 * offset at or past the end finds nothing (-1) where it used to be an error; a negative one still is.
 */
export function goIndexOf(s: string, substring: string, offset = 0n): bigint {
  if (substring === '') return offset;
  const runes = codePoints(s);
  const sub = codePoints(substring);
  if (offset < 0n) throw outOfRange(offset);
  if (offset >= BigInt(runes.length)) return -1n;
  for (let i = Number(offset); i < runes.length - (sub.length - 1); i++) {
    if (runesAt(runes, sub, i)) return BigInt(i);
  }
  return -1n;
}

/**
 * strings.go lastIndexOf and lastIndexOfOffset: without an offset, from the last code point (so in an
 * empty string from -1, out of range); an offset at or past the end finds nothing, as in goIndexOf.
 */
export function goLastIndexOf(s: string, substring: string, offset?: bigint): bigint {
  const runes = codePoints(s);
  if (offset === undefined) {
    if (substring === '') return BigInt(runes.length);
    return goLastIndexOf(s, substring, BigInt(runes.length - 1));
  }
  if (substring === '') return offset;
  const sub = codePoints(substring);
  if (offset < 0n) throw outOfRange(offset);
  if (offset >= BigInt(runes.length)) return -1n;
  for (let i = Math.min(Number(offset), runes.length - sub.length); i >= 0; i--) {
    if (runesAt(runes, sub, i)) return BigInt(i);
  }
  return -1n;
}

function runesAt(runes: readonly string[], sub: readonly string[], at: number): boolean {
  return sub.every((rune, j) => runes[at + j] === rune);
}

/** strings.go substr and substrRange. */
export function goSubstring(s: string, start: bigint, end?: bigint): string {
  const runes = codePoints(s);
  const length = BigInt(runes.length);
  if (end !== undefined && start > end) throw new CelFunctionError(`invalid substring range. start: ${start}, end: ${end}`);
  if (start < 0n || start > length) throw outOfRange(start);
  if (end !== undefined && (end < 0n || end > length)) throw outOfRange(end);
  return runes.slice(Number(start), end === undefined ? undefined : Number(end)).join('');
}

/** strings.go lowerASCII/upperASCII: unicode.ToLower/ToUpper of the runes up to unicode.MaxASCII. */
export function goLowerAscii(s: string): string {
  return s.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

export function goUpperAscii(s: string): string {
  return s.replace(/[a-z]+/g, (letters) => letters.toUpperCase());
}

// Go's unicode.IsSpace: the Latin-1 spaces (with U+0085 and U+00A0) and the Unicode White_Space
// property's others; unlike JavaScript's trim, U+FEFF is not one.
const GO_SPACE = '[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const LEADING_SPACE = new RegExp(`^${GO_SPACE}+`);
const TRAILING_SPACE = new RegExp(`${GO_SPACE}+$`);

/** strings.go trimSpace (strings.TrimSpace). */
export function goTrim(s: string): string {
  return s.replace(LEADING_SPACE, '').replace(TRAILING_SPACE, '');
}

/** strings.Split and strings.SplitN: an empty separator splits code points; SplitN's n of 0 is no list. */
export function goSplit(s: string, separator: string, n = -1n): string[] {
  if (n === 0n) return [];
  const parts = separator === '' ? codePoints(s) : s.split(separator);
  if (n < 0n || BigInt(parts.length) <= n) return parts;
  const kept = Number(n) - 1;
  return [...parts.slice(0, kept), parts.slice(kept).join(separator)];
}

type Run = (receiver: string, args: readonly unknown[]) => unknown;

const isInt = (value: unknown): value is bigint => typeof value === 'bigint';
const isString = (value: unknown): value is string => typeof value === 'string';

/** Each redirected function by name and arity: its implementation when the arguments have its types. */
const FUNCTIONS: ReadonlyMap<string, Run> = new Map<string, Run>([
  ['indexOf/1', (s, [sub]) => (isString(sub) ? goIndexOf(s, sub) : CEL_JS_RUNS)],
  ['indexOf/2', (s, [sub, at]) => (isString(sub) && isInt(at) ? goIndexOf(s, sub, at) : CEL_JS_RUNS)],
  ['lastIndexOf/1', (s, [sub]) => (isString(sub) ? goLastIndexOf(s, sub) : CEL_JS_RUNS)],
  ['lastIndexOf/2', (s, [sub, at]) => (isString(sub) && isInt(at) ? goLastIndexOf(s, sub, at) : CEL_JS_RUNS)],
  ['substring/1', (s, [start]) => (isInt(start) ? goSubstring(s, start) : CEL_JS_RUNS)],
  ['substring/2', (s, [start, end]) => (isInt(start) && isInt(end) ? goSubstring(s, start, end) : CEL_JS_RUNS)],
  ['lowerAscii/0', (s) => goLowerAscii(s)],
  ['upperAscii/0', (s) => goUpperAscii(s)],
  ['trim/0', (s) => goTrim(s)],
  ['split/1', (s, [separator]) => (isString(separator) ? goSplit(s, separator) : CEL_JS_RUNS)],
  ['split/2', (s, [separator, n]) => (isString(separator) && isInt(n) ? goSplit(s, separator, n) : CEL_JS_RUNS)],
]);

/** A member call of one of these functions on a string runs cel-go's; on anything else, cel-js's. */
export function stringsRedirect({ name, member, arity }: CallShape): CallRedirect | undefined {
  const run = member ? FUNCTIONS.get(`${name}/${arity}`) : undefined;
  if (!run) return undefined;
  return ([receiver, ...args]) => (isString(receiver) ? run(receiver, args) : CEL_JS_RUNS);
}
