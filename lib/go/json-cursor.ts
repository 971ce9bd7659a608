/**
 * A position in a JSON text, for the walks that must see what `JSON.parse` hides (a member name that repeats):
 * lib/go/json-object-keys.ts and json-struct-merge.ts. The text is valid JSON (their callers check it first), so
 * the steps here skip tokens without judging them.
 */
export interface JsonCursor {
  readonly text: string;
  at: number;
}

// encoding/json's whitespace: nothing else may stand between tokens.
const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r';

export function skipSpace(cursor: JsonCursor): void {
  while (isSpace(cursor.text[cursor.at])) cursor.at++;
}

/** Moves past the string starting at the cursor (at its opening quote). */
export function skipString(cursor: JsonCursor): void {
  cursor.at++;
  while (cursor.at < cursor.text.length && cursor.text[cursor.at] !== '"') cursor.at += cursor.text[cursor.at] === '\\' ? 2 : 1;
  cursor.at++;
}

/** The string starting at the cursor, decoded; the cursor moves past it. An unterminated one is JSON.parse's SyntaxError. */
export function readString(cursor: JsonCursor): string {
  const start = cursor.at;
  skipString(cursor);
  return JSON.parse(cursor.text.slice(start, cursor.at)) as string;
}

/** The number or literal (`true`, `null`…) starting at the cursor, as text; the cursor moves past it. */
export function readScalar(cursor: JsonCursor): string {
  const start = cursor.at;
  while (cursor.at < cursor.text.length && !isSpace(cursor.text[cursor.at]) && !',]}'.includes(cursor.text[cursor.at] as string)) cursor.at++;
  return cursor.text.slice(start, cursor.at);
}
