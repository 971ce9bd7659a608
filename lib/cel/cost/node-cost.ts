import { OPERATOR_FUNCTIONS } from './kube-costs';
import type { ASTNode } from '@marcbachmann/cel-js';
import type { FoldRecord } from '../libraries/comprehensions';
import { callCost } from './call-cost';
import { actualSize } from './value-size';

/**
 * What one evaluation step of cel-js costs, in cel-go's units (interpreter/runtimecost.go
 * `CostObserver`): constants nothing; a variable, a field selection or an index 1
 * (`SelectAndIdentCost`); `&&`, `||` and `?:` nothing of their own; a list literal 10, a map literal 30
 * (`ListCreateBaseCost`, `MapCreateBaseCost`); a call what `callCost` says. cel-go expands macros into
 * folds whose hidden steps cost too (checker/cost.go charges the same ones): those are added here
 * by the macro's name, as cel-js evaluates the same macros without them.
 */

/** The child steps of one step: how many ran, and the nodes and values of those that finished, in the order they ran. */
export interface StepChildren {
  runs: number;
  nodes: ASTNode[];
  values: unknown[];
}

interface CostNode {
  op: string;
  args: unknown;
  meta?: {
    alternate?: { op?: string; args?: { iterable?: unknown } };
    macro?: { macroHasProps?: unknown[]; exp?: unknown; foldRecord?: FoldRecord; hiddenCost?: () => number };
  };
}

/**
 * The values of a call's operands in cel-go's order (the receiver first), whatever order cel-js ran
 * them in (it may run the arguments before the receiver).
 */
function operands(children: StepChildren, nodes: readonly unknown[]): unknown[] {
  return nodes.map((node) => {
    const at = children.nodes.lastIndexOf(node as ASTNode);
    return at === -1 ? undefined : children.values[at];
  });
}

/** The operand nodes of a call or operator node, as cel-js's AST holds them. */
function operandNodes(node: CostNode): readonly unknown[] {
  const args = node.args as unknown[];
  if (node.op === 'call') return args[1] as unknown[];
  if (node.op === 'rcall') return [args[1], ...(args[2] as unknown[])];
  return Array.isArray(args) ? args : [args];
}

const SELECT_AND_IDENT = 1;
const LIST_CREATE = 10;
const MAP_CREATE = 30;

export function nodeCost(ast: ASTNode, children: StepChildren, value: unknown): number {
  const node = ast as unknown as CostNode;
  switch (node.op) {
    case 'id':
      return isNamespace(node, value) ? 0 : SELECT_AND_IDENT;
    case '.':
    case '.?':
    case '[]':
    case '[?]':
      return SELECT_AND_IDENT;
    case 'list':
      return LIST_CREATE;
    case 'map':
      return MAP_CREATE;
    case 'call':
    case 'rcall':
      return callNodeCost(node, children, value);
    default: {
      const operator = OPERATOR_FUNCTIONS[node.op];
      return operator === undefined ? 0 : callCost(operator, operands(children, operandNodes(node)), value);
    }
  }
}

/**
 * `sets` in `sets.contains(…)`, `optional` in `optional.of(…)`: cel-go resolves the qualified function
 * name when checking and reads no variable; cel-js reads a namespace constant (lib/cel/libraries/namespace.ts,
 * cel-js's own OptionalNamespace and CelNamespace), which costs nothing here.
 */
function isNamespace(node: CostNode, value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  const name = (Object.getPrototypeOf(value) as { constructor?: { name?: string } } | null)?.constructor?.name;
  return name !== undefined && (name === node.args || name.endsWith('Namespace'));
}

function callNodeCost(node: CostNode, children: StepChildren, value: unknown): number {
  const name = (node.args as [string])[0];
  const fold = node.meta?.alternate;
  if (fold?.op === 'comprehension') return foldCost(name, children, operands(children, [fold.args?.iterable])[0], value);
  const macro = node.meta?.macro;
  // has(a.b.c): cel-go tests the last field (1) after selecting the others, of which cel-js runs only the variable.
  if (macro?.macroHasProps) return macro.macroHasProps.length - 1;
  if (macro?.foldRecord) return twoVariableFoldCost(macro.foldRecord);
  // A macro that counts the hidden steps of its cel-go expansion itself (optMap, optFlatMap, sortBy).
  if (macro?.hiddenCost) return macro.hiddenCost();
  // cel.bind(v, init, expr) is a fold over an empty list literal.
  if (macro?.exp !== undefined) return LIST_CREATE;
  return callCost(name, operands(children, operandNodes(node)), value);
}

/**
 * The hidden steps of cel-go's fold for each macro (parser/macro.go): its loop condition before
 * every iteration while elements remain, the accumulator read in each step, and its result.
 * cel-js ran the iterable, the initial value, then one step per iteration.
 */
function foldCost(name: string, children: StepChildren, iterable: unknown, value: unknown): number {
  const steps = Math.max(0, children.runs - 2);
  const elements = actualSize(iterable);
  // The condition is checked once more before an element that is not stepped into.
  const conditions = steps + (steps < elements ? 1 : 0);
  switch (name) {
    case 'all':
      // condition @not_strictly_false(__result__): call + read; step __result__ && p: read; result: read.
      return 2 * conditions + steps + 1;
    case 'exists':
      // condition @not_strictly_false(!__result__): two calls + read; step __result__ || p: read.
      return 3 * conditions + steps + 1;
    case 'exists_one': {
      // step p ? __result__ + 1 : __result__ (one read, plus a call when p holds); result __result__ == 1.
      const holds = typeof value === 'boolean' ? countOf(children) : 0;
      return steps + holds + 2;
    }
    case 'map':
    case 'filter': {
      // step … ? __result__ + [x] : __result__: a read, a list literal and a call when kept, a read otherwise.
      // (The initial [] is a list literal cel-js runs too.)
      const kept = Array.isArray(value) ? value.length : steps;
      return kept * (LIST_CREATE + 2) + (steps - kept) + 1;
    }
    default:
      return 0;
  }
}

/**
 * The hidden steps of ext/comprehensions.go's folds, as `foldCost` counts the one-variable ones; the
 * initial list (10) or map (30) is charged here, as cel-js builds it without a step. `cel.@mapInsert`
 * costs 1, the default of a call kube's estimator does not price.
 */
function twoVariableFoldCost({ kind, size, iterations, kept }: FoldRecord): number {
  const conditions = iterations + (iterations < size ? 1 : 0);
  const skipped = iterations - kept;
  switch (kind) {
    case 'all':
      return 2 * conditions + iterations + 1;
    case 'exists':
      return 3 * conditions + iterations + 1;
    case 'existsOne':
      return iterations + kept + 2;
    case 'transformList':
      return LIST_CREATE + kept * (LIST_CREATE + 2) + skipped + 1;
    case 'transformMap':
      // __result__, the key variable and the insert.
      return MAP_CREATE + kept * 3 + skipped + 1;
    case 'transformMapEntry':
      return MAP_CREATE + kept * 2 + skipped + 1;
  }
}

/** exists_one's accumulator after its last step: how many elements the predicate held for. */
function countOf(children: StepChildren): number {
  for (let i = children.values.length - 1; i >= 2; i--) {
    const counted = children.values[i];
    if (typeof counted === 'number') return counted;
    if (typeof counted === 'bigint') return Number(counted);
  }
  return 0;
}
