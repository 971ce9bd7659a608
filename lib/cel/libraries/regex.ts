import type { ASTNode, Environment } from '@marcbachmann/cel-js';
import { forEachNode, stringLiteral } from '../ast-walk';
import { CelFunctionError } from '../errors';
import { compileGoRegexp, goFindAllString, goFindString, goRegexpError, GoRegexpSyntaxError, type GoRegexp } from './go-regexp';

/*
 * Kubernetes regex library (k8s.io/apiserver/pkg/cel/library/regex.go): `find` and `findAll`, with Go's
 * regexp (RE2) as go-regexp.ts runs it.
 */

export function registerRegex(env: Environment): void {
  const sync = { async: false };
  env
    .registerFunction('string.find(string): string', (s: string, pattern: string) => goFindString(compile(pattern), s), sync)
    .registerFunction('string.findAll(string): list<string>', (s: string, pattern: string) => goFindAllString(compile(pattern), s, -1), sync)
    .registerFunction(
      'string.findAll(string, int): list<string>',
      // regex.go passes the int64 limit to FindAllString as an int (64 bits wide there).
      (s: string, pattern: string, n: bigint) => goFindAllString(compile(pattern), s, n < 0n ? -1 : Number(n)),
      sync,
    );
}

// regex.go find/findAll: `types.NewErr("Illegal regex: %v", err.Error())`.
function compile(pattern: string): GoRegexp {
  try {
    return compileGoRegexp(pattern);
  } catch (error) {
    if (error instanceof GoRegexpSyntaxError) throw new CelFunctionError(`Illegal regex: ${error.message}`);
    throw error;
  }
}

// The functions whose literal pattern cel-go compiles while building a program: regex.go's
// FindRegexOptimization and FindAllRegexOptimization, which kube-apiserver passes to every Program, and
// cel-go's MatchesRegexOptimization, which its OptOptimize adds (cel/program.go `newProgram`).
const OPTIMIZED = new Set(['find', 'findAll', 'matches']);

/**
 * The errors cel-go reports when a program is created rather than evaluated: each of those calls
 * compiles its pattern (the call's argument 1, counting a member call's receiver as 0) when it is a
 * literal, so a pattern Go rejects fails the program (interpreter/decorators.go `decRegexOptimizer`),
 * which kube reports as `program instantiation failed: <Go's error>`. In the order cel-go's planner
 * meets them: a call after its operands, left to right (cel-go stops at the first).
 */
export function literalRegexErrors(ast: ASTNode): string[] {
  const errors: string[] = [];
  forEachNode(
    ast,
    (node) => {
      if (node.op !== 'rcall' && node.op !== 'call') return;
      const operands = node.args as unknown[];
      const args = node.op === 'rcall' ? operands[2] : operands[1];
      const text = Array.isArray(args) ? stringLiteral(node.op === 'rcall' ? args[0] : args[1]) : undefined;
      if (typeof operands[0] !== 'string' || !OPTIMIZED.has(operands[0]) || text === undefined) return;
      const error = goRegexpError(text);
      if (error) errors.push(error);
    },
    true,
  );
  return errors;
}
