import type { ASTNode } from '@marcbachmann/cel-js';

/*
 * The parts of cel-js's macro interface the libraries use. A function declared with `ast` parameters is
 * a macro: its handler runs when the expression is parsed and returns `typeCheck` and `evaluate`
 * callbacks, which receive cel-js's checker and evaluator. cel-js does not type these; this is the
 * subset relied upon (node/lib/macros.js and operators.js of @marcbachmann/cel-js 8).
 */

export interface TypeDecl {
  readonly name: string;
  readonly kind: string;
}

export interface Checker {
  check(node: ASTNode, ctx: unknown): TypeDecl;
  getType(name: string): TypeDecl;
  createError(code: string, message: string, node?: ASTNode): Error;
}

export interface Evaluator {
  run(node: ASTNode, ctx: unknown): unknown;
  debugType(value: unknown): TypeDecl;
}

export interface MacroInput {
  ast: ASTNode;
  args: ASTNode[];
  receiver: ASTNode | null;
}

/** A cel-js type in cel-go's spelling of Type.TypeName(): `list`, `map`, `null_type`, `dyn`. */
export function goTypeName(t: TypeDecl): string {
  if (t.kind === 'list') return 'list';
  if (t.kind === 'map') return 'map';
  if (t.kind === 'optional') return 'optional_type';
  if (t.kind === 'dyn' || t.kind === 'param') return 'dyn';
  return t.name === 'null' ? 'null_type' : t.name;
}

/** The value an evaluated node produced; macros here are synchronous. */
export function runSync(evaluator: Evaluator, node: ASTNode, ctx: unknown): unknown {
  const value = evaluator.run(node, ctx);
  if (value instanceof Promise) throw new Error('asynchronous functions are not supported in this macro');
  return value;
}
