/**
 * A port of encoding/json's validity scanner (src/encoding/json/scanner.go, `checkValid`), which
 * json.Unmarshal runs before decoding anything. Its SyntaxError texts reach users verbatim, e.g. as
 * `received undecodable patch in webhook response: invalid character '}' looking for beginning of value`.
 * Only the error text is kept; Go's opcodes, which drive its decoder, are not needed to judge validity.
 */
import { goQuote } from './strconv';

type Step = (s: Scanner, c: number) => void;

interface Scanner {
  step: Step;
  parseState: number[];
  endTop: boolean;
  err: string | undefined;
}

const PARSE_OBJECT_KEY = 0;
const PARSE_OBJECT_VALUE = 1;
const PARSE_ARRAY_VALUE = 2;
const MAX_NESTING_DEPTH = 10000;

/** Go's syntax error for `data`, or undefined when `data` is one valid JSON value. */
export function goJsonSyntaxError(data: Uint8Array): string | undefined {
  const s: Scanner = { step: stateBeginValue, parseState: [], endTop: false, err: undefined };
  for (const c of data) {
    s.step(s, c);
    if (s.err !== undefined) return s.err;
  }
  return eof(s);
}

function eof(s: Scanner): string | undefined {
  if (s.endTop) return undefined;
  // A trailing space ends a pending number, and explains a pending literal: `[t` fails on ' ', not on EOF.
  s.step(s, 0x20);
  if (s.endTop) return undefined;
  return s.err ?? 'unexpected end of JSON input';
}

function fail(s: Scanner, c: number, context: string): void {
  s.step = stateError;
  s.err = `invalid character ${quoteChar(c)} ${context}`;
}

/** scanner.go's quoteChar: the byte as a rune (so 0xC3 shows as 'Ã'), quoted with single quotes. */
function quoteChar(c: number): string {
  if (c === 0x27) return "'\\''";
  if (c === 0x22) return `'"'`;
  return `'${goQuote(String.fromCharCode(c)).slice(1, -1)}'`;
}

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isHex = (c: number) => isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
const is = (c: number, ch: string) => c === ch.charCodeAt(0);

function pushParseState(s: Scanner, c: number, state: number): void {
  s.parseState.push(state);
  if (s.parseState.length > MAX_NESTING_DEPTH) fail(s, c, 'exceeded max depth');
}

function popParseState(s: Scanner): void {
  s.parseState.pop();
  if (s.parseState.length === 0) {
    s.step = stateEndTop;
    s.endTop = true;
  } else {
    s.step = stateEndValue;
  }
}

function stateBeginValueOrEmpty(s: Scanner, c: number): void {
  if (isSpace(c)) return;
  if (is(c, ']')) return stateEndValue(s, c);
  stateBeginValue(s, c);
}

function stateBeginValue(s: Scanner, c: number): void {
  if (isSpace(c)) return;
  if (is(c, '{')) {
    s.step = stateBeginStringOrEmpty;
    return pushParseState(s, c, PARSE_OBJECT_KEY);
  }
  if (is(c, '[')) {
    s.step = stateBeginValueOrEmpty;
    return pushParseState(s, c, PARSE_ARRAY_VALUE);
  }
  const next = BEGIN_LITERAL.get(c) ?? (isDigit(c) ? state1 : undefined);
  if (next === undefined) return fail(s, c, 'looking for beginning of value');
  s.step = next;
}

function stateBeginStringOrEmpty(s: Scanner, c: number): void {
  if (isSpace(c)) return;
  if (is(c, '}')) {
    s.parseState[s.parseState.length - 1] = PARSE_OBJECT_VALUE;
    return stateEndValue(s, c);
  }
  stateBeginString(s, c);
}

function stateBeginString(s: Scanner, c: number): void {
  if (isSpace(c)) return;
  if (is(c, '"')) s.step = stateInString;
  else fail(s, c, 'looking for beginning of object key string');
}

function stateEndValue(s: Scanner, c: number): void {
  const n = s.parseState.length;
  if (n === 0) {
    s.step = stateEndTop;
    s.endTop = true;
    return stateEndTop(s, c);
  }
  if (isSpace(c)) {
    s.step = stateEndValue;
    return;
  }
  switch (s.parseState[n - 1]) {
    case PARSE_OBJECT_KEY:
      if (!is(c, ':')) return fail(s, c, 'after object key');
      s.parseState[n - 1] = PARSE_OBJECT_VALUE;
      s.step = stateBeginValue;
      return;
    case PARSE_OBJECT_VALUE:
      if (is(c, '}')) return popParseState(s);
      if (!is(c, ',')) return fail(s, c, 'after object key:value pair');
      s.parseState[n - 1] = PARSE_OBJECT_KEY;
      s.step = stateBeginString;
      return;
    default:
      if (is(c, ']')) return popParseState(s);
      if (!is(c, ',')) return fail(s, c, 'after array element');
      s.step = stateBeginValue;
  }
}

function stateEndTop(s: Scanner, c: number): void {
  if (!isSpace(c)) fail(s, c, 'after top-level value');
}

function stateInString(s: Scanner, c: number): void {
  if (is(c, '"')) s.step = stateEndValue;
  else if (is(c, '\\')) s.step = stateInStringEsc;
  else if (c < 0x20) fail(s, c, 'in string literal');
}

function stateInStringEsc(s: Scanner, c: number): void {
  if ('bfnrt\\/"'.includes(String.fromCharCode(c))) s.step = stateInString;
  else if (is(c, 'u')) s.step = hexEscape(4);
  else fail(s, c, 'in string escape code');
}

/** The states after `\u`, `\u1`, `\u12` and `\u123`. */
function hexEscape(remaining: number): Step {
  return (s, c) => {
    if (!isHex(c)) return fail(s, c, 'in \\u hexadecimal character escape');
    s.step = remaining > 1 ? hexEscape(remaining - 1) : stateInString;
  };
}

function stateNeg(s: Scanner, c: number): void {
  if (is(c, '0')) s.step = state0;
  else if (isDigit(c)) s.step = state1;
  else fail(s, c, 'in numeric literal');
}

function state1(s: Scanner, c: number): void {
  if (!isDigit(c)) state0(s, c);
}

function state0(s: Scanner, c: number): void {
  if (is(c, '.')) s.step = stateDot;
  else if (is(c, 'e') || is(c, 'E')) s.step = stateE;
  else stateEndValue(s, c);
}

function stateDot(s: Scanner, c: number): void {
  if (isDigit(c)) s.step = stateDot0;
  else fail(s, c, 'after decimal point in numeric literal');
}

function stateDot0(s: Scanner, c: number): void {
  if (isDigit(c)) return;
  if (is(c, 'e') || is(c, 'E')) s.step = stateE;
  else stateEndValue(s, c);
}

function stateE(s: Scanner, c: number): void {
  if (is(c, '+') || is(c, '-')) s.step = stateESign;
  else stateESign(s, c);
}

function stateESign(s: Scanner, c: number): void {
  if (isDigit(c)) s.step = stateE0;
  else fail(s, c, 'in exponent of numeric literal');
}

function stateE0(s: Scanner, c: number): void {
  if (!isDigit(c)) stateEndValue(s, c);
}

/** The states inside `true`, `false` and `null` once their first letter has been read. */
function literal(word: string, at: number): Step {
  return (s, c) => {
    if (c !== word.charCodeAt(at)) return fail(s, c, `in literal ${word} (expecting '${word[at]}')`);
    s.step = at + 1 < word.length ? literal(word, at + 1) : stateEndValue;
  };
}

function stateError(): void {}

const BEGIN_LITERAL: ReadonlyMap<number, Step> = new Map([
  [0x22, stateInString],
  [0x2d, stateNeg],
  [0x30, state0],
  [0x74, literal('true', 1)],
  [0x66, literal('false', 1)],
  [0x6e, literal('null', 1)],
]);
