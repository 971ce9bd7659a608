import type { ASTNode, Environment } from '@marcbachmann/cel-js';
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

/**
 * The errors kube-apiserver reports when a program is created, not evaluated: regex.go registers
 * FindRegexOptimization and FindAllRegexOptimization, which compile a literal pattern of `find`/`findAll`
 * while the program is built, so an invalid literal pattern fails the expression at compile time
 * (compile.go wraps it as `program instantiation failed: <error>`) rather than at evaluation. cel-js has no
 * such hook; this walks a parsed expression for those literal patterns and returns Go's error for each.
 */
export function literalRegexErrors(ast: ASTNode): string[] {
  const errors: string[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(visit);
      return;
    }
    if (!isAstNode(node) || node.op === 'value') return;
    if (node.op === 'rcall') {
      const [name, , args] = node.args as [string, ASTNode, ASTNode[]];
      const pattern = args[0];
      if ((name === 'find' || name === 'findAll') && pattern?.op === 'value' && typeof pattern.args === 'string') {
        const error = goRegexpError(pattern.args);
        if (error) errors.push(error);
      }
    }
    const args: unknown = node.args;
    // Nodes keep their operands in args: nodes, arrays of nodes, or (comprehensions) an object of them.
    if (args !== null && typeof args === 'object' && !Array.isArray(args) && !isAstNode(args)) visit(Object.values(args));
    else visit(args);
  };
  visit(ast);
  return errors;
}

function isAstNode(value: unknown): value is ASTNode {
  return value !== null && typeof value === 'object' && typeof (value as { op?: unknown }).op === 'string' && 'args' in value;
}
