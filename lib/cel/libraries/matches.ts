import type { Environment } from '@marcbachmann/cel-js';
import { CelFunctionError } from '../errors';
import { CEL_JS_RUNS, type CallRedirect, type CallShape } from '../redirect-calls';
import { compileGoRegexp, goMatchString, GoRegexpSyntaxError } from './go-regexp';

/*
 * CEL's `matches` as cel-go runs it (common/types/string.go `Match`): Go's regexp.MatchString, so RE2's
 * syntax, a match anywhere in the string, linear time, and Go's error text for an invalid pattern. cel-go
 * declares it twice (checker/decls `matches(string, string)` and `string.matches(string)`). cel-js lacks
 * the global one, registered here, and runs the member one with a JavaScript RegExp (its syntax, a
 * backtracking engine); that overload cannot be replaced by registering the same signature, so each
 * checked call to it is redirected (lib/cel/redirect-calls.ts).
 * A literal pattern Go rejects fails the compilation instead (lib/cel/checked.ts).
 */

/** `s.matches(pattern)`. */
export function goMatches(s: string, pattern: string): boolean {
  try {
    return goMatchString(compileGoRegexp(pattern), s);
  } catch (error) {
    if (error instanceof GoRegexpSyntaxError) throw new CelFunctionError(error.message);
    throw error;
  }
}

export function registerMatches(env: Environment): void {
  env.registerFunction('matches(string, string): bool', goMatches, { async: false });
}

/** Every `x.matches(p)` of a checked program runs `goMatches` when both are strings. */
export function matchesRedirect({ name, member, arity }: CallShape): CallRedirect | undefined {
  if (name !== 'matches' || !member || arity !== 1) return undefined;
  return ([s, pattern]) => (typeof s === 'string' && typeof pattern === 'string' ? goMatches(s, pattern) : CEL_JS_RUNS);
}
