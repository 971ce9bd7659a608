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

import { emitJavaScript } from './emit-javascript';
import { parseGoRegexp } from './parser';
import { GoRegexpSyntaxError } from './syntax-error';

export { GoRegexpSyntaxError };

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
  const js = emitJavaScript(parseGoRegexp(pattern));
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
