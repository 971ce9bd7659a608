import type { ASTNode, Environment } from '@marcbachmann/cel-js';
import { forEachNode } from '../ast-walk';
import { CelFunctionError } from '../errors';
import { compileGoRegexp, goMatchString, GoRegexpSyntaxError } from './go-regexp';

/*
 * CEL's `matches` as cel-go runs it (common/types/string.go `Match`): Go's regexp.MatchString, so RE2's
 * syntax, a match anywhere in the string, linear time, and Go's error text for an invalid pattern. cel-go
 * declares it twice (checker/decls `matches(string, string)` and `string.matches(string)`). cel-js lacks
 * the global one, registered here, and runs the member one with a JavaScript RegExp (its syntax, a
 * backtracking engine); that overload cannot be replaced by registering the same signature, so each
 * checked call to it is redirected, as conversions.ts does for `duration()` and `timestamp()`.
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

type Handle = (values: unknown[], ev: unknown, node: unknown) => unknown;

/** Every `x.matches(p)` of a checked program runs `goMatches` when both are strings. */
export function redirectMatches(root: ASTNode): void {
  forEachNode(root, (node) => {
    if (node.op !== 'rcall') return;
    const [name, , args] = node.args as [string, ASTNode, ASTNode[]];
    const call = node as unknown as { handle?: Handle };
    const original = call.handle;
    if (name !== 'matches' || args.length !== 1 || typeof original !== 'function') return;
    call.handle = (values, ev, at) => {
      const [s, pattern] = values;
      return typeof s === 'string' && typeof pattern === 'string' ? goMatches(s, pattern) : original(values, ev, at);
    };
  });
}
