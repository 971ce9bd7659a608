/*
 * Go's regexp (RE2 syntax, regexp.Compile flags = syntax.Perl) translated to a JavaScript RegExp.
 *
 * kube's regex library (k8s.io/apiserver/pkg/cel/library/regex.go) compiles patterns with Go's
 * `regexp.Compile`. JavaScript's RegExp accepts a different language, so patterns are parsed here the
 * way Go's regexp/syntax/parse.go parses them — same accepted syntax, same error texts, reported for the
 * same offending text — and re-emitted as an equivalent `u`-mode RegExp that never relies on the JS
 * flags i, m or s, whose meanings differ from Go's:
 *
 * - case folding `(?i)` is expanded here with Unicode simple case folding orbits (Go's unicode.SimpleFold),
 *   so it can be switched on and off inside a pattern as Go allows;
 * - `.` is `[^\n]` (Go excludes only \n), `\s` is `[\t\n\f\r ]`, `\b` is an ASCII word boundary, `^`/`$`
 *   follow Go's (?m) semantics, POSIX classes and `\pN` are expanded;
 * - Go's leftmost-first matching is what a backtracking engine computes for the syntax RE2 accepts, so
 *   the matched text is the same. Matching time is not: RE2 is linear, a backtracking engine can be
 *   exponential on patterns such as `(a*)*b`.
 *
 * Limits not mirrored: Go's "expression too large" (program size) check, and Unicode tables come from the
 * JavaScript engine, whose Unicode version may differ from Go's.
 */

/** A pattern Go's regexp.Compile rejects; `message` is Go's `*syntax.Error` text. */
export class GoRegexpSyntaxError extends Error {
  override readonly name = 'GoRegexpSyntaxError';
  constructor(code: string, expr: string) {
    super(`error parsing regexp: ${code}: \`${expr}\``);
  }
}

// regexp/syntax ErrorCode texts.
const ERR = {
  invalidCharRange: 'invalid character class range',
  invalidEscape: 'invalid escape sequence',
  invalidNamedCapture: 'invalid named capture',
  invalidPerlOp: 'invalid or unsupported Perl syntax',
  invalidRepeatOp: 'invalid nested repetition operator',
  invalidRepeatSize: 'invalid repeat count',
  missingBracket: 'missing closing ]',
  missingParen: 'missing closing )',
  missingRepeatArgument: 'missing argument to repetition operator',
  trailingBackslash: 'trailing backslash at end of expression',
  unexpectedParen: 'unexpected )',
  nestingDepth: 'expression nests too deeply',
} as const;

const MAX_RUNE = 0x10ffff;
const MAX_REPEAT = 1000;
const MAX_HEIGHT = 1000;
// parse.go minFold/maxFold: the runes case folding can involve.
const MIN_FOLD = 0x41;
const MAX_FOLD = 0x1e943;

type Range = readonly [number, number];

/**
 * A character class: the union of explicit ranges, JS property escapes (`\p{L}`, `\P{L}`) and
 * complemented sets (JS class bodies whose complement belongs to the class), optionally negated as a whole.
 */
interface ClassSet {
  ranges: Range[];
  props: string[];
  complements: string[];
}

interface Flags {
  fold: boolean;
  dotNL: boolean;
  oneLine: boolean;
  nonGreedy: boolean;
}

type Node =
  | { kind: 'literal'; cp: number; fold: boolean }
  | { kind: 'class'; set: ClassSet; negated: boolean }
  | { kind: 'any'; nl: boolean }
  | { kind: 'assert'; which: 'bol' | 'eol' | 'bot' | 'eot' | 'wb' | 'nwb' }
  | { kind: 'capture'; sub: Node }
  | { kind: 'concat'; subs: Node[] }
  | { kind: 'alt'; subs: Node[] }
  | { kind: 'repeat'; sub: Node; min: number; max: number; greedy: boolean; counted: boolean }
  | { kind: 'empty' };

type StackItem = Node | { kind: 'lparen'; flags: Flags; capture: boolean } | { kind: 'vbar' };

function isPseudo(item: StackItem): item is Extract<StackItem, { kind: 'lparen' | 'vbar' }> {
  return item.kind === 'lparen' || item.kind === 'vbar';
}

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
const isOctal = (c: string | undefined) => c !== undefined && c >= '0' && c <= '7';
const isAlnum = (cp: number) => (cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a);

function unhex(cp: number): number {
  if (cp >= 0x30 && cp <= 0x39) return cp - 0x30;
  if (cp >= 0x61 && cp <= 0x66) return cp - 0x61 + 10;
  if (cp >= 0x41 && cp <= 0x46) return cp - 0x41 + 10;
  return -1;
}

// perl_groups.go: \d \s \w and the POSIX classes (all ASCII).
const PERL_GROUPS: Readonly<Record<string, { sign: 1 | -1; ranges: Range[] }>> = {
  d: { sign: 1, ranges: [[0x30, 0x39]] },
  D: { sign: -1, ranges: [[0x30, 0x39]] },
  s: {
    sign: 1,
    ranges: [
      [0x09, 0x0a],
      [0x0c, 0x0d],
      [0x20, 0x20],
    ],
  },
  S: {
    sign: -1,
    ranges: [
      [0x09, 0x0a],
      [0x0c, 0x0d],
      [0x20, 0x20],
    ],
  },
  w: {
    sign: 1,
    ranges: [
      [0x30, 0x39],
      [0x41, 0x5a],
      [0x5f, 0x5f],
      [0x61, 0x7a],
    ],
  },
  W: {
    sign: -1,
    ranges: [
      [0x30, 0x39],
      [0x41, 0x5a],
      [0x5f, 0x5f],
      [0x61, 0x7a],
    ],
  },
};

const POSIX_GROUPS: Readonly<Record<string, Range[]>> = {
  alnum: [
    [0x30, 0x39],
    [0x41, 0x5a],
    [0x61, 0x7a],
  ],
  alpha: [
    [0x41, 0x5a],
    [0x61, 0x7a],
  ],
  ascii: [[0x00, 0x7f]],
  blank: [
    [0x09, 0x09],
    [0x20, 0x20],
  ],
  cntrl: [
    [0x00, 0x1f],
    [0x7f, 0x7f],
  ],
  digit: [[0x30, 0x39]],
  graph: [[0x21, 0x7e]],
  lower: [[0x61, 0x7a]],
  print: [[0x20, 0x7e]],
  punct: [
    [0x21, 0x2f],
    [0x3a, 0x40],
    [0x5b, 0x60],
    [0x7b, 0x7e],
  ],
  space: [
    [0x09, 0x0d],
    [0x20, 0x20],
  ],
  upper: [[0x41, 0x5a]],
  word: [
    [0x30, 0x39],
    [0x41, 0x5a],
    [0x5f, 0x5f],
    [0x61, 0x7a],
  ],
  xdigit: [
    [0x30, 0x39],
    [0x41, 0x46],
    [0x61, 0x66],
  ],
};

// --- rune sets ---

function normalize(ranges: readonly Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const out: [number, number][] = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

function complement(ranges: readonly Range[]): Range[] {
  const out: Range[] = [];
  let next = 0;
  for (const [lo, hi] of normalize(ranges)) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_RUNE) out.push([next, MAX_RUNE]);
  return out;
}

// --- case folding (unicode.SimpleFold orbits) ---

interface FoldTable {
  orbit: ReadonlyMap<number, readonly number[]>;
  /** Runes with a non-trivial orbit, ascending. */
  runes: readonly number[];
}

let foldTable: FoldTable | undefined;

/**
 * The orbits of Unicode simple case folding, as JavaScript's `u`+`i` canonicalisation (simple case
 * folding) defines them: candidates are the case-mapped runes, grouped by lower(upper(r)), then split by
 * what the engine actually treats as equal. Built on first use (a few tens of milliseconds).
 */
function folds(): FoldTable {
  if (foldTable) return foldTable;
  const runes: number[] = [];
  for (let c = MIN_FOLD; c <= MAX_FOLD; c++) if (c < 0xd800 || c > 0xdfff) runes.push(c);
  let text = '';
  for (let i = 0; i < runes.length; i += 8192) text += String.fromCodePoint(...runes.slice(i, i + 8192));
  const single = (s: string, fallback: number) => {
    const cp = s.codePointAt(0) ?? fallback;
    return s.length === String.fromCodePoint(cp).length ? cp : fallback;
  };
  const groups = new Map<number, number[]>();
  for (const match of text.matchAll(/\p{Changes_When_Casemapped}/gu)) {
    const c = match[0].codePointAt(0) ?? 0;
    const upper = single(String.fromCodePoint(c).toUpperCase(), c);
    const key = single(String.fromCodePoint(upper).toLowerCase(), upper);
    const group = groups.get(key) ?? [];
    group.push(c);
    groups.set(key, group);
  }
  // A back-reference under `iu` compares canonicalised (simply case-folded) runes.
  const sameFold = /^(.)\1$/isu;
  const orbit = new Map<number, number[]>();
  for (const group of groups.values()) {
    let rest = group;
    while (rest.length > 0) {
      const [first, ...others] = rest as [number, ...number[]];
      const members = [first, ...others.filter((c) => sameFold.test(String.fromCodePoint(first, c)))];
      rest = others.filter((c) => !members.includes(c));
      if (members.length > 1) for (const m of members) orbit.set(m, members);
    }
  }
  foldTable = { orbit, runes: [...orbit.keys()].sort((a, b) => a - b) };
  return foldTable;
}

function orbitOf(cp: number): readonly number[] {
  return folds().orbit.get(cp) ?? [cp];
}

/** appendFoldedRange: the range plus every rune fold-equivalent to one in it. */
function foldRanges(ranges: readonly Range[]): Range[] {
  const out: Range[] = [];
  for (const [lo, hi] of ranges) {
    out.push([lo, hi]);
    if ((lo <= MIN_FOLD && hi >= MAX_FOLD) || hi < MIN_FOLD || lo > MAX_FOLD) continue;
    const { runes, orbit } = folds();
    for (let i = lowerBound(runes, lo); i < runes.length && (runes[i] ?? Infinity) <= hi; i++) {
      for (const m of orbit.get(runes[i] ?? 0) ?? []) out.push([m, m]);
    }
  }
  return normalize(out);
}

function lowerBound(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] ?? Infinity) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const extrasCache = new Map<string, Range[]>();

/** unicode.FoldCategory / FoldScript: runes outside a property whose fold orbit reaches into it. */
function foldExtras(body: string): Range[] {
  const cached = extrasCache.get(body);
  if (cached) return cached;
  const inSet = new RegExp(`^[${body}]$`, 'u');
  const extras: Range[] = [];
  const { runes, orbit } = folds();
  for (const c of runes) {
    if (inSet.test(String.fromCodePoint(c))) continue;
    if ((orbit.get(c) ?? []).some((m) => inSet.test(String.fromCodePoint(m)))) extras.push([c, c]);
  }
  const result = normalize(extras);
  extrasCache.set(body, result);
  return result;
}

// --- Unicode classes (\p{...}) ---

// Go's unicode.Categories (short names) and, from Go 1.25, unicode.CategoryAliases.
const CATEGORIES = new Set('C Cc Cf Cn Co Cs L LC Ll Lm Lo Lt Lu M Mc Me Mn N Nd Nl No P Pc Pd Pe Pf Pi Po Ps S Sc Sk Sm So Z Zl Zp Zs'.split(' '));
const CATEGORY_ALIASES: Readonly<Record<string, string>> = {
  Other: 'C',
  Control: 'Cc',
  Format: 'Cf',
  Unassigned: 'Cn',
  Private_Use: 'Co',
  Surrogate: 'Cs',
  Letter: 'L',
  Cased_Letter: 'LC',
  Lowercase_Letter: 'Ll',
  Modifier_Letter: 'Lm',
  Other_Letter: 'Lo',
  Titlecase_Letter: 'Lt',
  Uppercase_Letter: 'Lu',
  Mark: 'M',
  Combining_Mark: 'M',
  Spacing_Mark: 'Mc',
  Enclosing_Mark: 'Me',
  Nonspacing_Mark: 'Mn',
  Number: 'N',
  Decimal_Number: 'Nd',
  Letter_Number: 'Nl',
  Other_Number: 'No',
  Punctuation: 'P',
  Connector_Punctuation: 'Pc',
  Dash_Punctuation: 'Pd',
  Close_Punctuation: 'Pe',
  Final_Punctuation: 'Pf',
  Initial_Punctuation: 'Pi',
  Other_Punctuation: 'Po',
  Open_Punctuation: 'Ps',
  Symbol: 'S',
  Currency_Symbol: 'Sc',
  Modifier_Symbol: 'Sk',
  Math_Symbol: 'Sm',
  Other_Symbol: 'So',
  Separator: 'Z',
  Line_Separator: 'Zl',
  Paragraph_Separator: 'Zp',
  Space_Separator: 'Zs',
  cntrl: 'Cc',
  digit: 'Nd',
  punct: 'P',
};
// ISO 15924 codes are four letters; these four-letter names are also the scripts' long names (Go's keys).
const FOUR_LETTER_SCRIPTS = new Set(['Cham', 'Lisu', 'Modi', 'Newa', 'Thai', 'Toto']);

/** parse.go canonicalName: leading capital, the rest lower case, without `_`, `-` and spaces. */
function canonicalName(name: string): string {
  const letters = name.replace(/[_\- ]/g, '');
  return letters.slice(0, 1).toUpperCase() + letters.slice(1).toLowerCase();
}
const CANONICAL_CATEGORIES: ReadonlyMap<string, string> = new Map([
  ...[...CATEGORIES].map((c): [string, string] => [canonicalName(c), c]),
  ...Object.entries(CATEGORY_ALIASES).map(([alias, c]): [string, string] => [canonicalName(alias), c]),
]);

interface UnicodeTable {
  /** A JS class body for the table, or explicit ranges. */
  body?: string;
  ranges?: Range[];
  /** `Assigned` is the complement of Cn. */
  negate: boolean;
  /** Explicit extra runes for folding, when the table is ASCII (asciiFoldTable). */
  foldRanges?: Range[];
}

function validProperty(body: string): boolean {
  try {
    new RegExp(`[${body}]`, 'u');
    return true;
  } catch {
    return false;
  }
}

/** parse.go unicodeTable. */
function unicodeTable(name: string): UnicodeTable | undefined {
  if (name === '') return undefined;
  const canonical = canonicalName(name);
  if (canonical === 'Any') return { ranges: [[0, MAX_RUNE]], negate: false };
  if (canonical === 'Assigned') return { body: '\\p{Cn}', negate: true };
  if (canonical === 'Ascii')
    return {
      ranges: [[0, 0x7f]],
      negate: false,
      foldRanges: [
        [0x17f, 0x17f],
        [0x212a, 0x212a],
      ],
    };
  const category = CATEGORIES.has(name) ? name : CANONICAL_CATEGORIES.get(canonical);
  if (category) return { body: `\\p{${category}}`, negate: false };
  // Scripts by their long names (unicode.Scripts keys), as the JS engine knows them.
  for (const candidate of new Set([name, canonical])) {
    if (!/^[A-Z][A-Za-z_]*$/.test(candidate) || (candidate.length === 4 && !FOUR_LETTER_SCRIPTS.has(candidate))) continue;
    const body = `\\p{Script=${candidate}}`;
    if (validProperty(body)) return { body, negate: false };
  }
  return undefined;
}

// --- the parser (parse.go) ---

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
        case '[':
          i = this.parseClass(i);
          break;
        case '*':
        case '+':
        case '?': {
          const [min, max] = c === '*' ? [0, -1] : c === '+' ? [1, -1] : [0, 1];
          repeatStart = i;
          i = this.repeat(min, max, i, i + 1, lastRepeat, false);
          break;
        }
        case '{': {
          const parsed = this.parseRepeat(i);
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

  /** parse.go parseRepeat: `{n}`, `{n,}` or `{n,m}`; undefined when the text is not a repeat. */
  private parseRepeat(i: number): { min: number; max: number; end: number } | undefined {
    let j = i + 1;
    const first = this.parseInt(j);
    if (!first) return undefined;
    let min = first.value;
    let max: number;
    j = first.end;
    if (j >= this.src.length) return undefined;
    if (this.src[j] !== ',') max = min;
    else {
      j++;
      if (j >= this.src.length) return undefined;
      if (this.src[j] === '}') max = -1;
      else {
        const second = this.parseInt(j);
        if (!second) return undefined;
        max = second.value;
        j = second.end;
        if (max < 0) min = -1;
      }
    }
    if (this.src[j] !== '}') return undefined;
    return { min, max, end: j + 1 };
  }

  /** parse.go parseInt: decimal without leading zeros; -1 when too large. */
  private parseInt(i: number): { value: number; end: number } | undefined {
    const src = this.src;
    if (!isDigit(src[i])) return undefined;
    if (src[i] === '0' && isDigit(src[i + 1])) return undefined;
    let j = i;
    let value = 0;
    while (isDigit(src[j])) {
      if (value >= 1e8) value = -1;
      else if (value >= 0) value = value * 10 + Number(src[j]);
      j++;
    }
    return { value, end: j };
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
    const unicode = this.parseUnicodeClass(i);
    if (unicode) {
      this.push({ kind: 'class', set: unicode.set, negated: false });
      return unicode.end;
    }
    const perl = this.parsePerlClassEscape(i);
    if (perl) {
      this.push({ kind: 'class', set: perl, negated: false });
      return i + 2;
    }
    const escape = this.parseEscape(i);
    this.literal(escape.cp);
    return escape.end;
  }

  /** parse.go parseEscape: a single escaped rune. */
  private parseEscape(i: number): { cp: number; end: number } {
    const src = this.src;
    let j = i + 1;
    if (j >= src.length) throw new GoRegexpSyntaxError(ERR.trailingBackslash, '');
    const next = (): number | undefined => {
      if (j >= src.length) return undefined;
      const cp = src.codePointAt(j) ?? 0;
      j += cp > 0xffff ? 2 : 1;
      return cp;
    };
    const c = next() ?? 0;
    const invalid = () => new GoRegexpSyntaxError(ERR.invalidEscape, src.slice(i, j));
    const ch = String.fromCodePoint(c);
    if (ch >= '1' && ch <= '7' && !isOctal(src[j])) {
      // A single non-zero digit is a back-reference, which Go does not support.
      throw invalid();
    }
    if (ch >= '0' && ch <= '7') {
      let r = c - 0x30;
      for (let k = 1; k < 3 && isOctal(src[j]); k++) r = r * 8 + Number(src[j++]);
      return { cp: r, end: j };
    }
    switch (ch) {
      case 'x': {
        let d = next();
        if (d === undefined) throw invalid();
        if (d === 0x7b) {
          let r = 0;
          let digits = 0;
          for (;;) {
            d = next();
            if (d === undefined) throw invalid();
            if (d === 0x7d) break;
            const v = unhex(d);
            if (v < 0) throw invalid();
            r = r * 16 + v;
            if (r > MAX_RUNE) throw invalid();
            digits++;
          }
          if (digits === 0) throw invalid();
          return { cp: r, end: j };
        }
        const x = unhex(d);
        const y = unhex(next() ?? -1);
        if (x < 0 || y < 0) throw invalid();
        return { cp: x * 16 + y, end: j };
      }
      case 'a':
        return { cp: 0x07, end: j };
      case 'f':
        return { cp: 0x0c, end: j };
      case 'n':
        return { cp: 0x0a, end: j };
      case 'r':
        return { cp: 0x0d, end: j };
      case 't':
        return { cp: 0x09, end: j };
      case 'v':
        return { cp: 0x0b, end: j };
    }
    // Escaped ASCII punctuation stands for itself; letters and digits that are no escape are errors.
    if (c < 0x80 && !isAlnum(c)) return { cp: c, end: j };
    throw invalid();
  }

  /** parse.go parsePerlClassEscape: \d \D \s \S \w \W. */
  private parsePerlClassEscape(i: number): ClassSet | undefined {
    if (this.src[i] !== '\\') return undefined;
    const group = PERL_GROUPS[this.src[i + 1] ?? ''];
    return group ? this.group(group.ranges, group.sign) : undefined;
  }

  /** parse.go appendGroup: an ASCII group, folded before it is negated. */
  private group(ranges: readonly Range[], sign: 1 | -1): ClassSet {
    const set = this.flags.fold ? foldAscii(ranges) : normalize(ranges);
    return { ranges: sign > 0 ? set : complement(set), props: [], complements: [] };
  }

  /** parse.go parseUnicodeClass: `\pL`, `\p{Greek}`, `\PL`, `\p{^Greek}`. */
  private parseUnicodeClass(i: number): { set: ClassSet; end: number } | undefined {
    const src = this.src;
    if (src[i] !== '\\' || (src[i + 1] !== 'p' && src[i + 1] !== 'P')) return undefined;
    let sign = src[i + 1] === 'P' ? -1 : 1;
    const j = i + 2;
    let seq: string;
    let name: string;
    let end: number;
    if (j >= src.length) {
      seq = src.slice(i, j);
      name = '';
      end = j;
    } else if (src[j] !== '{') {
      const cp = src.codePointAt(j) ?? 0;
      end = j + (cp > 0xffff ? 2 : 1);
      seq = src.slice(i, end);
      name = seq.slice(2);
    } else {
      const close = src.indexOf('}', i);
      if (close < 0) throw new GoRegexpSyntaxError(ERR.invalidCharRange, src.slice(i));
      seq = src.slice(i, close + 1);
      name = src.slice(i + 3, close);
      end = close + 1;
    }
    if (name.startsWith('^')) {
      sign = -sign;
      name = name.slice(1);
    }
    const table = unicodeTable(name);
    if (!table) throw new GoRegexpSyntaxError(ERR.invalidCharRange, seq);
    if (table.negate) sign = -sign;
    return { set: this.unicodeSet(table, sign), end };
  }

  private unicodeSet(table: UnicodeTable, sign: number): ClassSet {
    const fold = this.flags.fold;
    if (table.ranges) {
      const ranges = fold && table.foldRanges ? normalize([...table.ranges, ...table.foldRanges]) : table.ranges;
      return { ranges: sign > 0 ? ranges : complement(ranges), props: [], complements: [] };
    }
    const body = table.body ?? '';
    // Under (?i) the table is merged with the runes folding into it (unicode.FoldCategory/FoldScript).
    const extras = fold ? foldExtras(body) : [];
    if (sign > 0) return { ranges: extras, props: [body], complements: [] };
    if (extras.length === 0 && /^\\p\{[^}]*\}$/.test(body)) return { ranges: [], props: [`\\P${body.slice(2)}`], complements: [] };
    return { ranges: [], props: [], complements: [body + rangesBody(extras)] };
  }

  /** parse.go parseClass: `[...]`. */
  private parseClass(i: number): number {
    const src = this.src;
    const wholeClass = src.slice(i);
    let j = i + 1;
    let negated = false;
    if (src[j] === '^') {
      negated = true;
      j++;
    }
    const set: ClassSet = { ranges: [], props: [], complements: [] };
    const add = (part: ClassSet) => {
      set.ranges.push(...part.ranges);
      set.props.push(...part.props);
      set.complements.push(...part.complements);
    };
    let first = true;
    while (j >= src.length || src[j] !== ']' || first) {
      first = false;
      if (src.length - j > 2 && src[j] === '[' && src[j + 1] === ':') {
        const close = src.indexOf(':]', j + 2);
        if (close >= 0) {
          const name = src.slice(j, close + 2);
          const negatedGroup = name[2] === '^';
          const ranges = POSIX_GROUPS[name.slice(negatedGroup ? 3 : 2, -2)];
          if (!ranges) throw new GoRegexpSyntaxError(ERR.invalidCharRange, name);
          add(this.group(ranges, negatedGroup ? -1 : 1));
          j = close + 2;
          continue;
        }
      }
      const unicode = this.parseUnicodeClass(j);
      if (unicode) {
        add(unicode.set);
        j = unicode.end;
        continue;
      }
      const perl = this.parsePerlClassEscape(j);
      if (perl) {
        add(perl);
        j += 2;
        continue;
      }
      const rangeStart = j;
      const lo = this.parseClassChar(j, wholeClass);
      let hi = lo;
      j = lo.end;
      // `[a-]` means a or -.
      if (src.length - j >= 2 && src[j] === '-' && src[j + 1] !== ']') {
        hi = this.parseClassChar(j + 1, wholeClass);
        j = hi.end;
        if (hi.cp < lo.cp) throw new GoRegexpSyntaxError(ERR.invalidCharRange, src.slice(rangeStart, j));
      }
      const range: Range[] = [[lo.cp, hi.cp]];
      set.ranges.push(...(this.flags.fold ? foldRanges(range) : range));
    }
    set.ranges = normalize(set.ranges);
    this.push({ kind: 'class', set, negated });
    return j + 1;
  }

  private parseClassChar(j: number, wholeClass: string): { cp: number; end: number } {
    if (j >= this.src.length) throw new GoRegexpSyntaxError(ERR.missingBracket, wholeClass);
    if (this.src[j] === '\\') return this.parseEscape(j);
    const cp = this.src.codePointAt(j) ?? 0;
    return { cp, end: j + (cp > 0xffff ? 2 : 1) };
  }
}

/** Folding of an ASCII group: the other case, plus ſ for s and K (Kelvin) for k (asciiFoldTable). */
function foldAscii(ranges: readonly Range[]): Range[] {
  const out: Range[] = [...ranges];
  for (const [lo, hi] of ranges) {
    for (let c = lo; c <= hi && c <= 0x7f; c++) {
      const lower = c | 0x20;
      if (lower < 0x61 || lower > 0x7a) continue;
      out.push([c ^ 0x20, c ^ 0x20]);
      if (lower === 0x73) out.push([0x17f, 0x17f]);
      if (lower === 0x6b) out.push([0x212a, 0x212a]);
    }
  }
  return normalize(out);
}

/** parse.go repeatIsValid: nested counted repetitions may not exceed `n` copies of the innermost item. */
function repeatIsValid(node: Node, n: number): boolean {
  if (node.kind === 'repeat' && node.counted) {
    let m = node.max;
    if (m === 0) return true;
    if (m < 0) m = node.min;
    if (m > n) return false;
    if (m > 0) n = Math.trunc(n / m);
  }
  return children(node).every((sub) => repeatIsValid(sub, n));
}

function children(node: Node): Node[] {
  switch (node.kind) {
    case 'capture':
    case 'repeat':
      return [node.sub];
    case 'concat':
    case 'alt':
      return node.subs;
    default:
      return [];
  }
}

function height(node: Node): number {
  let max = 0;
  for (const sub of children(node)) max = Math.max(max, height(sub));
  return max + 1;
}

// --- emitting the JavaScript pattern ---

function escapeRune(cp: number): string {
  return isAlnum(cp) ? String.fromCodePoint(cp) : `\\u{${cp.toString(16)}}`;
}

function rangesBody(ranges: readonly Range[]): string {
  return ranges.map(([lo, hi]) => (lo === hi ? escapeRune(lo) : `${escapeRune(lo)}-${escapeRune(hi)}`)).join('');
}

function emitClass(set: ClassSet, negated: boolean): string {
  const positive = rangesBody(set.ranges) + set.props.join('');
  if (set.complements.length === 0) return negated ? `[^${positive}]` : `[${positive}]`;
  if (!negated) {
    const alternatives = [...(positive ? [`[${positive}]`] : []), ...set.complements.map((body) => `[^${body}]`)];
    return alternatives.length === 1 ? (alternatives[0] as string) : `(?:${alternatives.join('|')})`;
  }
  // Not (P or not N1 or not N2 ...) = not P and N1 and N2 ...
  const lookaheads = set.complements
    .slice(0, -1)
    .map((body) => `(?=[${body}])`)
    .join('');
  return `(?:${positive ? `(?![${positive}])` : ''}${lookaheads}[${set.complements[set.complements.length - 1]}])`;
}

const WORD = '[0-9A-Za-z_]';
const ASSERTIONS: Readonly<Record<Extract<Node, { kind: 'assert' }>['which'], string>> = {
  bot: '^',
  eot: '$',
  bol: '(?<![^\\n])',
  eol: '(?![^\\n])',
  wb: `(?:(?<=${WORD})(?!${WORD})|(?<!${WORD})(?=${WORD}))`,
  nwb: `(?:(?<=${WORD})(?=${WORD})|(?<!${WORD})(?!${WORD}))`,
};

function emit(node: Node): string {
  switch (node.kind) {
    case 'literal': {
      const orbit = node.fold ? orbitOf(node.cp) : [node.cp];
      return orbit.length > 1 ? `[${rangesBody(normalize(orbit.map((c) => [c, c])))}]` : escapeRune(node.cp);
    }
    case 'class':
      return emitClass(node.set, node.negated);
    case 'any':
      return node.nl ? '[^]' : '[^\\n]';
    case 'assert':
      return ASSERTIONS[node.which];
    case 'capture':
      return `(?:${emit(node.sub)})`;
    case 'concat':
      return node.subs.map(emit).join('');
    case 'alt':
      return `(?:${node.subs.map(emit).join('|')})`;
    case 'empty':
      return '(?:)';
    case 'repeat': {
      const { min, max } = node;
      const quantifier =
        min === 0 && max === -1
          ? '*'
          : min === 1 && max === -1
            ? '+'
            : min === 0 && max === 1
              ? '?'
              : max === -1
                ? `{${min},}`
                : min === max
                  ? `{${min}}`
                  : `{${min},${max}}`;
      return `(?:${emit(node.sub)})${quantifier}${node.greedy ? '' : '?'}`;
    }
  }
}

/** A compiled Go regular expression. */
export interface GoRegexp {
  readonly source: string;
  /** The equivalent JS pattern (flags `gu`). */
  readonly regexp: RegExp;
}

const cache = new Map<string, GoRegexp>();
const CACHE_SIZE = 256;

/** regexp.Compile: throws GoRegexpSyntaxError with Go's message for a pattern Go rejects. */
export function compileGoRegexp(pattern: string): GoRegexp {
  const cached = cache.get(pattern);
  if (cached) return cached;
  const js = emit(new Parser(pattern).parse());
  const compiled: GoRegexp = { source: pattern, regexp: new RegExp(js, 'gu') };
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(pattern, compiled);
  return compiled;
}

/** regexp.Compile's error for a pattern, or undefined when Go accepts it. */
export function goRegexpError(pattern: string): string | undefined {
  try {
    compileGoRegexp(pattern);
    return undefined;
  } catch (error) {
    if (error instanceof GoRegexpSyntaxError) return error.message;
    throw error;
  }
}

function matchAt(re: GoRegexp, s: string, pos: number): { start: number; end: number } | undefined {
  const regexp = re.regexp;
  regexp.lastIndex = pos;
  const match = regexp.exec(s);
  return match ? { start: match.index, end: match.index + match[0].length } : undefined;
}

/** (*Regexp).FindString: the leftmost match, or '' when there is none. */
export function goFindString(re: GoRegexp, s: string): string {
  const match = matchAt(re, s, 0);
  return match ? s.slice(match.start, match.end) : '';
}

/**
 * (*Regexp).FindAllString(s, n): successive non-overlapping matches, at most n of them (all when n < 0).
 * As Go's allMatches: after an empty match the search moves on by one rune, and an empty match right
 * where the previous match ended is skipped.
 */
export function goFindAllString(re: GoRegexp, s: string, n: number): string[] {
  const out: string[] = [];
  const limit = n < 0 ? Infinity : n;
  let pos = 0;
  let prevEnd = -1;
  while (out.length < limit && pos <= s.length) {
    const match = matchAt(re, s, pos);
    if (!match) break;
    let accept = true;
    if (match.end === pos) {
      if (match.start === prevEnd) accept = false;
      pos += pos < s.length ? String.fromCodePoint(s.codePointAt(pos) ?? 0).length : 1;
    } else {
      pos = match.end;
    }
    prevEnd = match.end;
    if (accept) out.push(s.slice(match.start, match.end));
  }
  return out;
}
