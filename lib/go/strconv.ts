/** Go's strconv.Quote, as error messages print quoted strings (`%q`). */

// unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space.
const GO_PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;
const NAMED_ESCAPES: ReadonlyMap<number, string> = new Map([
  [0x07, '\\a'],
  [0x08, '\\b'],
  [0x0c, '\\f'],
  [0x0a, '\\n'],
  [0x0d, '\\r'],
  [0x09, '\\t'],
  [0x0b, '\\v'],
]);

/** strconv.Quote. */
export function goQuote(s: string): string {
  let quoted = '"';
  for (const ch of s) quoted += quoteRune(ch);
  return `${quoted}"`;
}

function quoteRune(ch: string): string {
  const cp = ch.codePointAt(0) ?? 0;
  if (ch === '"' || ch === '\\') return `\\${ch}`;
  // A lone surrogate cannot reach Go: its JSON decoder turns one into U+FFFD, which is printable.
  if (cp >= 0xd800 && cp <= 0xdfff) return '\uFFFD';
  if (GO_PRINTABLE.test(ch)) return ch;
  const named = NAMED_ESCAPES.get(cp);
  if (named !== undefined) return named;
  if (cp < 0x20 || cp === 0x7f) return `\\x${hex(cp, 2)}`;
  if (cp < 0x10000) return `\\u${hex(cp, 4)}`;
  return `\\U${hex(cp, 8)}`;
}

function hex(value: number, width: number): string {
  return value.toString(16).padStart(width, '0');
}
