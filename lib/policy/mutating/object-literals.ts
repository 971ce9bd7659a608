/**
 * CEL message construction (`Object.spec{containers: [...]}`, `JSONPatch{op: "add", ...}`) in a form
 * cel-js can parse. cel-js 8 has no message-construction syntax: its parser reads `Name{` as an error.
 * A MutatingAdmissionPolicy needs it (apiserver pkg/cel/mutation: `Object`, `Object.<field>…` and
 * `JSONPatch` are the types its expressions build), so before parsing, each construction is rewritten
 * into a call of the macro that cel-objects.ts registers:
 *
 *   Object.spec{containers: x, ?hostname: y}  →  __k8s_object("Object.spec", {"containers": x, "?hostname": y})
 *
 * Only the type name, the closing brace and the field names change; every other character is kept, and
 * `toSource` maps a position in the rewritten text back to the expression as written, so that errors
 * point where cel-go would. The scan knows CEL's lexical syntax (string literals of every prefix and
 * quote style, comments), so braces or names inside strings are left alone.
 */

/** The macro a construction becomes. */
export const OBJECT_MACRO = '__k8s_object';

export interface RewrittenExpression {
  /** The text cel-js parses. */
  readonly text: string;
  /** The type names the expression constructs, in order of appearance. */
  readonly typeNames: readonly string[];
  /** A position in `text` → the position in the original expression. */
  toSource(offset: number): number;
}

type TokenKind = 'ident' | 'number' | 'string' | 'punct';
interface Token {
  readonly kind: TokenKind;
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

/** Rewrites the message constructions of a CEL expression (anything else comes back unchanged). */
export function rewriteObjectLiterals(expression: string): RewrittenExpression {
  const tokens = tokenize(expression);
  const out = new Output(expression);
  const typeNames: string[] = [];
  // One entry per open bracket: whether it is a message's brace (field names follow `{` and `,`).
  const open: Array<'message' | 'other'> = [];
  let i = 0;
  const expectField = (at: number) => {
    // `?name:` or `name:` right after a message's `{` or one of its top-level commas.
    const optional = tokens[at]?.text === '?' ? 1 : 0;
    const name = tokens[at + optional];
    const colon = tokens[at + optional + 1];
    if (name?.kind !== 'ident' || colon?.text !== ':') return at;
    out.replace(tokens[at] as Token, name, JSON.stringify(`${optional ? '?' : ''}${name.text}`));
    return at + optional + 1;
  };
  while (i < tokens.length) {
    const token = tokens[i] as Token;
    const chain = messageStart(tokens, i);
    if (chain) {
      typeNames.push(chain.name);
      // The brace itself stays: cel-go places errors about the construction at it.
      out.replace(token, chain.lastName, `${OBJECT_MACRO}(${JSON.stringify(chain.name)}, `);
      open.push('message');
      i = expectField(chain.next);
      continue;
    }
    switch (token.text) {
      case '{':
      case '(':
      case '[':
        open.push('other');
        break;
      case '}':
        if (open.pop() === 'message') out.replace(token, token, '})');
        break;
      case ')':
      case ']':
        open.pop();
        break;
      case ',':
        if (open.at(-1) === 'message') {
          i = expectField(i + 1);
          continue;
        }
        break;
      default:
        break;
    }
    i++;
  }
  return { text: out.text(), typeNames, toSource: (offset) => out.toSource(offset) };
}

/** `[.] Ident (. Ident)* {` where an operand may begin: the type name, its last token and the index after the brace. */
function messageStart(tokens: readonly Token[], i: number): { name: string; lastName: Token; next: number } | undefined {
  const previous = tokens[i - 1];
  let at = i;
  if (tokens[at]?.text === '.') {
    // A leading dot (`.Object{}`) only where an operand starts; otherwise it is a selection.
    if (previous && endsOperand(previous)) return undefined;
    at++;
  } else if (previous && (previous.text === '.' || endsOperand(previous))) {
    return undefined;
  }
  const parts: string[] = [];
  let lastName: Token;
  for (;;) {
    const part = tokens[at];
    if (part?.kind !== 'ident') return undefined;
    parts.push(part.text);
    lastName = part;
    at++;
    if (tokens[at]?.text !== '.') break;
    at++;
  }
  const brace = tokens[at];
  if (brace?.text !== '{') return undefined;
  return { name: parts.join('.'), lastName, next: at + 1 };
}

/** Tokens after which an operand cannot begin: identifiers (but `in`), literals and closing brackets. */
function endsOperand(token: Token): boolean {
  if (token.kind === 'ident') return token.text !== 'in';
  if (token.kind === 'number' || token.kind === 'string') return true;
  return token.text === ')' || token.text === ']' || token.text === '}';
}

/** The rewritten text, built from kept spans of the source and replacements of token ranges. */
class Output {
  private readonly pieces: Array<{ text: string; sourceStart: number; kept: boolean }> = [];
  private position = 0;

  constructor(private readonly source: string) {}

  /** Replaces the source from `first`'s start to `last`'s end with `text`. */
  replace(first: Token, last: Token, text: string): void {
    this.keepUntil(first.start);
    this.pieces.push({ text, sourceStart: first.start, kept: false });
    this.position = last.end;
  }

  text(): string {
    this.keepUntil(this.source.length);
    return this.pieces.map((piece) => piece.text).join('');
  }

  toSource(offset: number): number {
    let at = 0;
    for (const piece of this.pieces) {
      if (offset < at + piece.text.length) return piece.kept ? piece.sourceStart + (offset - at) : piece.sourceStart;
      at += piece.text.length;
    }
    return this.source.length;
  }

  private keepUntil(end: number): void {
    if (end > this.position) this.pieces.push({ text: this.source.slice(this.position, end), sourceStart: this.position, kept: true });
    this.position = Math.max(this.position, end);
  }
}

const IDENT_START = /[A-Za-z_]/;
const IDENT_PART = /[A-Za-z0-9_]/;
const DIGIT = /[0-9]/;

/** CEL's lexical grammar, as far as telling code from strings and comments needs. */
function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const ch = source[i] as string;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    if (source.startsWith('//', i)) {
      const newline = source.indexOf('\n', i);
      i = newline < 0 ? source.length : newline + 1;
      continue;
    }
    const start = i;
    const stringEnd = stringLiteralEnd(source, i);
    if (stringEnd !== undefined) {
      tokens.push({ kind: 'string', text: source.slice(start, stringEnd), start, end: stringEnd });
      i = stringEnd;
      continue;
    }
    if (IDENT_START.test(ch)) {
      while (i < source.length && IDENT_PART.test(source[i] as string)) i++;
      tokens.push({ kind: 'ident', text: source.slice(start, i), start, end: i });
      continue;
    }
    if (DIGIT.test(ch)) {
      i = numberEnd(source, i);
      tokens.push({ kind: 'number', text: source.slice(start, i), start, end: i });
      continue;
    }
    tokens.push({ kind: 'punct', text: ch, start, end: i + 1 });
    i++;
  }
  return tokens;
}

/** The end of a string or bytes literal starting at `i` (prefixes r, b, rb, br in any case), or undefined. */
function stringLiteralEnd(source: string, i: number): number | undefined {
  const prefix = /^(?:[rR][bB]?|[bB][rR]?)?/.exec(source.slice(i, i + 2))?.[0] ?? '';
  const quoteAt = i + prefix.length;
  const quote = source[quoteAt];
  if (quote !== '"' && quote !== "'") return undefined;
  const raw = /[rR]/.test(prefix);
  const triple = source.startsWith(quote.repeat(3), quoteAt);
  const closing = triple ? quote.repeat(3) : quote;
  let at = quoteAt + closing.length;
  while (at < source.length) {
    if (!raw && source[at] === '\\') {
      at += 2;
      continue;
    }
    if (source.startsWith(closing, at)) return at + closing.length;
    // A single-quoted literal ends at the line's end (an unterminated literal: cel-js reports it).
    if (!triple && source[at] === '\n') return at;
    at++;
  }
  return source.length;
}

function numberEnd(source: string, i: number): number {
  const match = /^(?:0[xX][0-9a-fA-F]+|[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)[uU]?/.exec(source.slice(i));
  return i + (match?.[0].length ?? 1);
}
