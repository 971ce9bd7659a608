import type { ASTNode, ParseError, ParseResult, TypeError as CelTypeError } from '@marcbachmann/cel-js';
import { forEachNode, isNode } from './ast-walk';
import { celGoResultType, type TypeLookup } from './result-types';
import { celModule } from './runtime';

/*
 * cel-go's checker (checker/checker.go) records an issue, gives the node the error type and goes on, so
 * one compilation reports every independent issue; cel-js's checker throws at the first. Here each node
 * written in the expression gets a check that, while a check is recorded, catches cel-js's type error,
 * records it and types the node dyn. cel-go's error type is assignable to every type (checker/types.go
 * `isDynOrError`), so what is built on an error-typed node reports nothing more; cel-js lets dyn through
 * almost everywhere, and where it does not (a homogeneous list literal `[undeclared, 1]`), the issue is
 * marked as one that follows from a failed operand (lib/cel/errors.ts `checkIssues` leaves it out).
 */

/** One issue cel-js's checker raised, and whether a node it rests on had already failed. */
export interface RecordedIssue {
  readonly error: CelTypeError | ParseError;
  /** An operand of the node (or of the node the error names) was itself an issue. */
  readonly followsFailure: boolean;
}

/** What checking found: the type when nothing failed, else every issue in the order cel-js met them. */
export type EveryIssue = { type: string; issues?: undefined } | { issues: RecordedIssue[] };

interface Recording {
  readonly issues: RecordedIssue[];
  readonly failed: WeakSet<object>;
}

type NodeCheck = (checker: TypeLookup & { readonly dynType: unknown }, node: ASTNode, context: unknown) => unknown;

let recording: Recording | undefined;
const recovering = new WeakSet<ASTNode>();
// cel-js keeps each node's type once checked, so a second check of a program would find nothing wrong.
const outcomes = new WeakMap<ASTNode, EveryIssue>();

/**
 * Type-checks a parsed program, recording every issue as cel-go's checker does. An error cel-js raises
 * outside a node's check (a malformed macro is a ParseError) ends the check there, as it did before.
 */
export function checkEveryIssue(program: ParseResult): EveryIssue {
  const known = outcomes.get(program.ast);
  if (known) return known;
  // cel-go's result types apply to every check; recovering at each node costs a wrapped check per node
  // (about 1.6x the compile time of a large policy), so it is installed only once a plain check failed.
  // The nodes that plain check typed keep their types and are not checked again; what failed is.
  forEachNode(program.ast, (node) => {
    if (node.op === '+') recoverAt(node);
  });
  let checked = program.check();
  const current: Recording = { issues: [], failed: new WeakSet() };
  if (!checked.valid) {
    forEachNode(program.ast, recoverAt);
    const previous = recording;
    recording = current;
    try {
      checked = program.check();
    } finally {
      recording = previous;
    }
  }
  const issues = [...current.issues];
  if (!checked.valid) {
    const { ParseError: CelParseError, TypeError: CelCheckError } = celModule();
    const { error } = checked;
    if (!(error instanceof CelParseError || error instanceof CelCheckError)) throw error ?? new Error('cel-js rejected an expression without an error');
    issues.push({ error, followsFailure: false });
  }
  const outcome: EveryIssue = issues.length > 0 ? { issues } : { type: checked.type ?? 'dyn' };
  outcomes.set(program.ast, outcome);
  return outcome;
}

/**
 * Replaces the node's check by one that records a type error instead of throwing it, while recording,
 * and gives the node cel-go's result type where cel-js's overloads declare another (lib/cel/result-types.ts).
 */
function recoverAt(node: ASTNode): void {
  if (recovering.has(node)) return;
  recovering.add(node);
  const target = node as unknown as { check: NodeCheck };
  const original = target.check;
  target.check = function recordingCheck(checker, self, context) {
    try {
      return celGoResultType(node, original.call(this, checker, self, context), checker);
    } catch (error) {
      const active = recording;
      if (!active || !(error instanceof celModule().TypeError)) throw error;
      const named: ASTNode = error.node ?? node;
      const followsFailure = active.failed.has(named) || [node, named].some((at) => operandsOf(at).some((operand) => active.failed.has(operand)));
      active.failed.add(node);
      active.issues.push({ error: error.node ? error : error.withAst(node), followsFailure });
      return checker.dynType;
    }
  };
}

/** The nodes a node is built on: its operands, the elements of a list, the keys and values of a map. */
function operandsOf(node: ASTNode): ASTNode[] {
  const { args } = node as { args: unknown };
  const values = Array.isArray(args) ? args.flat(2) : [args];
  return values.filter(isNode);
}
