/** parse.go's parser: the operator stack that turns a Go pattern into a syntax tree, with Go's errors. */
import { parseClass, parsePerlClassEscape, parseUnicodeClass } from './char-classes';
import { parseEscape, parseRepeat } from './escapes';
import { ERR, GoRegexpSyntaxError } from './syntax-error';
import { type Flags, height, MAX_HEIGHT, MAX_REPEAT, type Node, repeatIsValid } from './syntax-tree';

type StackItem = Node | { kind: 'lparen'; flags: Flags; capture: boolean } | { kind: 'vbar' };

function isPseudo(item: StackItem): item is Extract<StackItem, { kind: 'lparen' | 'vbar' }> {
  return item.kind === 'lparen' || item.kind === 'vbar';
}

const INITIAL_FLAGS: Flags = { fold: false, dotNL: false, oneLine: true, nonGreedy: false };

class Parser {
  private readonly stack: StackItem[] = [];
  private flags: Flags = { ...INITIAL_FLAGS };

  constructor(private readonly src: string) {}

  parse(): Node {
    const src = this.src;
    let i = 0;
    // Where the previous token began when it was a repetition operator (parse.go lastRepeat).
    let lastRepeat = -1;
    while (i < src.length) {
      let repeatStart = -1;
      const c = src[i];
      switch (c) {
        case '(':
          if (src[i + 1] === '?') i = this.parsePerlFlags(i);
          else {
            this.stack.push({ kind: 'lparen', flags: { ...this.flags }, capture: true });
            i++;
          }
          break;
        case '|':
          this.parseVerticalBar();
          i++;
          break;
        case ')':
          this.parseRightParen();
          i++;
          break;
        case '^':
          this.push({ kind: 'assert', which: this.flags.oneLine ? 'bot' : 'bol' });
          i++;
          break;
        case '$':
          this.push({ kind: 'assert', which: this.flags.oneLine ? 'eot' : 'eol' });
          i++;
          break;
        case '.':
          this.push({ kind: 'any', nl: this.flags.dotNL });
          i++;
          break;
        case '[': {
          const parsed = parseClass(src, i, this.flags.fold);
          this.push(parsed.node);
          i = parsed.end;
          break;
        }
        case '*':
        case '+':
        case '?': {
          const [min, max] = c === '*' ? [0, -1] : c === '+' ? [1, -1] : [0, 1];
          repeatStart = i;
          i = this.repeat(min, max, i, i + 1, lastRepeat, false);
          break;
        }
        case '{': {
          const parsed = parseRepeat(src, i);
          if (!parsed) {
            // A `{` that does not start a repeat is a literal.
            this.literal(0x7b);
            i++;
            break;
          }
          const { min, max, end } = parsed;
          if (min < 0 || min > MAX_REPEAT || max > MAX_REPEAT || (max >= 0 && min > max)) {
            throw new GoRegexpSyntaxError(ERR.invalidRepeatSize, src.slice(i, end));
          }
          repeatStart = i;
          i = this.repeat(min, max, i, end, lastRepeat, true);
          break;
        }
        case '\\':
          i = this.parseBackslash(i);
          break;
        default: {
          const cp = src.codePointAt(i) ?? 0;
          this.literal(cp);
          i += cp > 0xffff ? 2 : 1;
        }
      }
      lastRepeat = repeatStart;
    }
    this.concat();
    this.alternate();
    if (this.stack.length !== 1 || isPseudo(this.stack[0] as StackItem)) throw new GoRegexpSyntaxError(ERR.missingParen, src);
    const root = this.stack[0] as Node;
    if (height(root) > MAX_HEIGHT) throw new GoRegexpSyntaxError(ERR.nestingDepth, src);
    return root;
  }

  private push(node: Node): void {
    this.stack.push(node);
  }

  private literal(cp: number): void {
    this.push({ kind: 'literal', cp, fold: this.flags.fold });
  }

  /** parse.go repeat: the operator applies to the item on top of the stack. */
  private repeat(min: number, max: number, before: number, after: number, lastRepeat: number, counted: boolean): number {
    let nonGreedy = this.flags.nonGreedy;
    if (this.src[after] === '?') {
      after++;
      nonGreedy = !nonGreedy;
    }
    if (lastRepeat >= 0) throw new GoRegexpSyntaxError(ERR.invalidRepeatOp, this.src.slice(lastRepeat, after));
    const top = this.stack[this.stack.length - 1];
    if (!top || isPseudo(top)) throw new GoRegexpSyntaxError(ERR.missingRepeatArgument, this.src.slice(before, after));
    const node: Node = { kind: 'repeat', sub: top, min, max, greedy: !nonGreedy, counted };
    this.stack[this.stack.length - 1] = node;
    if (counted && (min >= 2 || max >= 2) && !repeatIsValid(node, MAX_REPEAT)) {
      throw new GoRegexpSyntaxError(ERR.invalidRepeatSize, this.src.slice(before, after));
    }
    return after;
  }

  /** parse.go parsePerlFlags: named captures, flag changes and non-capturing groups. */
  private parsePerlFlags(i: number): number {
    const t = this.src.slice(i);
    const startsWithP = t.length > 4 && t[2] === 'P' && t[3] === '<';
    const startsWithName = t.length > 3 && t[2] === '<';
    if (startsWithP || startsWithName) {
      const end = t.indexOf('>');
      if (end < 0) throw new GoRegexpSyntaxError(ERR.invalidNamedCapture, t);
      const name = t.slice(startsWithP ? 4 : 3, end);
      if (!/^[A-Za-z0-9_]+$/.test(name)) throw new GoRegexpSyntaxError(ERR.invalidNamedCapture, t.slice(0, end + 1));
      this.stack.push({ kind: 'lparen', flags: { ...this.flags }, capture: true });
      return i + end + 1;
    }
    const flags = { ...this.flags };
    let positive = true;
    let sawFlag = false;
    let j = i + 2;
    while (j < this.src.length) {
      const cp = this.src.codePointAt(j) ?? 0;
      const c = String.fromCodePoint(cp);
      j += c.length;
      switch (c) {
        case 'i':
          flags.fold = positive;
          sawFlag = true;
          continue;
        case 'm':
          flags.oneLine = !positive;
          sawFlag = true;
          continue;
        case 's':
          flags.dotNL = positive;
          sawFlag = true;
          continue;
        case 'U':
          flags.nonGreedy = positive;
          sawFlag = true;
          continue;
        case '-':
          if (!positive) break;
          positive = false;
          sawFlag = false;
          continue;
        case ':':
        case ')':
          if (!positive && !sawFlag) break;
          if (c === ':') this.stack.push({ kind: 'lparen', flags: { ...this.flags }, capture: false });
          this.flags = flags;
          return j;
      }
      break;
    }
    throw new GoRegexpSyntaxError(ERR.invalidPerlOp, this.src.slice(i, j));
  }

  /** Replaces the items above the topmost `(` or `|` with their concatenation. */
  private concat(): void {
    let k = this.stack.length;
    while (k > 0 && !isPseudo(this.stack[k - 1] as StackItem)) k--;
    const subs = this.stack.splice(k) as Node[];
    this.push(subs.length === 0 ? { kind: 'empty' } : subs.length === 1 ? (subs[0] as Node) : { kind: 'concat', subs });
  }

  /** Replaces the branches above the topmost `(` with their alternation. */
  private alternate(): void {
    const branches: Node[] = [];
    while (this.stack.length > 0) {
      const top = this.stack[this.stack.length - 1] as StackItem;
      if (top.kind === 'lparen') break;
      this.stack.pop();
      if (top.kind !== 'vbar') branches.unshift(top);
    }
    this.push(branches.length === 1 ? (branches[0] as Node) : { kind: 'alt', subs: branches });
  }

  private parseVerticalBar(): void {
    this.concat();
    this.stack.push({ kind: 'vbar' });
  }

  private parseRightParen(): void {
    this.concat();
    this.alternate();
    const body = this.stack.pop() as Node;
    const open = this.stack.pop();
    if (open?.kind !== 'lparen') throw new GoRegexpSyntaxError(ERR.unexpectedParen, this.src);
    this.flags = open.flags;
    this.push(open.capture ? { kind: 'capture', sub: body } : body);
  }

  private parseBackslash(i: number): number {
    const src = this.src;
    switch (src[i + 1]) {
      case 'A':
        this.push({ kind: 'assert', which: 'bot' });
        return i + 2;
      case 'b':
        this.push({ kind: 'assert', which: 'wb' });
        return i + 2;
      case 'B':
        this.push({ kind: 'assert', which: 'nwb' });
        return i + 2;
      case 'C':
        // Any byte: not supported by Go.
        throw new GoRegexpSyntaxError(ERR.invalidEscape, src.slice(i, i + 2));
      case 'Q': {
        const end = src.indexOf('\\E', i + 2);
        const text = end < 0 ? src.slice(i + 2) : src.slice(i + 2, end);
        for (const ch of text) this.literal(ch.codePointAt(0) ?? 0);
        return end < 0 ? src.length : end + 2;
      }
      case 'z':
        this.push({ kind: 'assert', which: 'eot' });
        return i + 2;
    }
    const unicode = parseUnicodeClass(src, i, this.flags.fold);
    if (unicode) {
      this.push({ kind: 'class', set: unicode.set, negated: false });
      return unicode.end;
    }
    const perl = parsePerlClassEscape(src, i, this.flags.fold);
    if (perl) {
      this.push({ kind: 'class', set: perl, negated: false });
      return i + 2;
    }
    const escape = parseEscape(src, i);
    this.literal(escape.cp);
    return escape.end;
  }
}

/** Parses a pattern as regexp.Compile does (syntax.Perl flags); throws GoRegexpSyntaxError as Go would. */
export function parseGoRegexp(pattern: string): Node {
  return new Parser(pattern).parse();
}
