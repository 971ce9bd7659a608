import { re2Module, type Re2Module } from '../runtime';

/*
 * Go's regexp as kube-apiserver runs it: `regexp.Compile` (RE2 syntax, syntax.Perl flags) and the
 * methods CEL calls, MatchString (cel-go common/types/string.go `Match`, behind `matches`), FindString
 * and FindAllString (k8s.io/apiserver/pkg/cel/library/regex.go `find`, `findAll`). The engine is re2js,
 * a port of RE2/J: an automaton whose time is linear in the input, as Go's, where a backtracking
 * engine can take hours on a pattern such as `(a+)+$`.
 *
 * Where re2js and Go differ, Go wins:
 * - regexp/syntax parse.go `(*Error).Error()` always ends with ": `expr`", also when the expression is
 *   empty (`\` alone: "trailing backslash at end of expression: ``") or is the whole pattern ("expression
 *   too large", "expression nests too deeply"), which re2js reports without it;
 * - Go accepts a capture name used twice (regexp.go `SubexpIndex`: `(?P<bob>a+)(?P<bob>b+)` declares two
 *   subexpressions named "bob"), where RE2/J refuses "duplicate capture group name". Names do not change
 *   what matches, so such a pattern is compiled with its groups unnamed.
 * Requires `loadCel()` (lib/cel/runtime.ts), which loads re2js.
 */

type Re2 = ReturnType<Re2Module['RE2JS']['prototype']['re2']>;
type Re2SyntaxError = InstanceType<Re2Module['RE2JSSyntaxException']>;

/** A compiled Go regular expression. */
export interface GoRegexp {
  readonly source: string;
  /** re2js's object with Go's API (find, findAll, match). */
  readonly re2: Re2;
}

/** A pattern Go's regexp.Compile rejects; `message` is Go's `*syntax.Error` text. */
export class GoRegexpSyntaxError extends Error {
  override readonly name = 'GoRegexpSyntaxError';
  constructor(code: string, expr: string) {
    super(`error parsing regexp: ${code}: \`${expr}\``);
  }
}

const TRAILING_BACKSLASH = 'trailing backslash at end of expression';
const DUPLICATE_NAME = 'duplicate capture group name';

const cache = new Map<string, GoRegexp>();
const CACHE_SIZE = 256;

/** regexp.Compile: throws GoRegexpSyntaxError with Go's message for a pattern Go rejects. */
export function compileGoRegexp(pattern: string): GoRegexp {
  const cached = cache.get(pattern);
  if (cached) return cached;
  const compiled: GoRegexp = { source: pattern, re2: compileRe2(pattern) };
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(pattern, compiled);
  return compiled;
}

function compileRe2(pattern: string): Re2 {
  const { RE2JS, RE2JSSyntaxException } = re2Module();
  try {
    return RE2JS.compile(pattern).re2();
  } catch (error) {
    if (!(error instanceof RE2JSSyntaxException)) throw error;
    if (error.error !== DUPLICATE_NAME) throw goSyntaxError(error, pattern, pattern);
  }
  const unnamed = withoutCaptureNames(pattern);
  try {
    return RE2JS.compile(unnamed).re2();
  } catch (error) {
    // An error later in the pattern, which Go reaches since it accepts the duplicate name.
    if (error instanceof RE2JSSyntaxException) throw goSyntaxError(error, pattern, unnamed);
    throw error;
  }
}

/** Go's error for re2js's; `compiled` is the text re2js parsed, quoted as the user wrote it (`pattern`). */
function goSyntaxError(error: Re2SyntaxError, pattern: string, compiled: string): GoRegexpSyntaxError {
  // re2js leaves the expression out where Go quotes an empty one or the whole pattern.
  const expr = error.input ?? (error.error === TRAILING_BACKSLASH ? '' : compiled);
  return new GoRegexpSyntaxError(error.error, expr === compiled ? pattern : expr);
}

const NAMED_GROUP = /\(\?P?<[A-Za-z0-9_]+>/y;

/**
 * The pattern with each `(?P<name>` and `(?<name>` written `(`: the same capture groups, unnamed. The
 * pattern is read as regexp/syntax parse.go reads it, so an escaped `\(`, a `(` in a class or in `\Q…\E`
 * is left alone.
 */
function withoutCaptureNames(pattern: string): string {
  let out = '';
  let i = 0;
  while (i < pattern.length) {
    let next = i + 1;
    if (pattern.startsWith('\\Q', i)) {
      const end = pattern.indexOf('\\E', i + 2);
      next = end < 0 ? pattern.length : end + 2;
    } else if (pattern[i] === '\\') {
      next = i + 2;
    } else if (pattern[i] === '[') {
      next = classEnd(pattern, i);
    } else if (pattern[i] === '(') {
      NAMED_GROUP.lastIndex = i;
      const named = NAMED_GROUP.exec(pattern);
      if (named) {
        out += '(';
        i += named[0].length;
        continue;
      }
    }
    out += pattern.slice(i, next);
    i = next;
  }
  return out;
}

/** Where the class opened at `start` ends (past its `]`): a `]` first is a literal, `[:alpha:]` a name. */
function classEnd(pattern: string, start: number): number {
  let i = start + 1;
  if (pattern[i] === '^') i++;
  if (pattern[i] === ']') i++;
  while (i < pattern.length && pattern[i] !== ']') {
    const posixEnd = pattern.startsWith('[:', i) ? pattern.indexOf(':]', i + 2) : -1;
    if (posixEnd >= 0) i = posixEnd + 2;
    else i += pattern[i] === '\\' ? 2 : 1;
  }
  return Math.min(i + 1, pattern.length);
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

/** (*Regexp).MatchString: whether the pattern matches anywhere in s (unanchored). */
export function goMatchString(re: GoRegexp, s: string): boolean {
  return re.re2.match(s);
}

/** (*Regexp).FindString: the leftmost match, or '' when there is none. */
export function goFindString(re: GoRegexp, s: string): string {
  return (re.re2.find(s) as string | null) ?? '';
}

/** (*Regexp).FindAllString(s, n): successive non-overlapping matches, at most n of them (all when n < 0). */
export function goFindAllString(re: GoRegexp, s: string, n: number): string[] {
  return (re.re2.findAll(s, n) as string[] | null) ?? [];
}
