/**
 * The static cost estimate of a CEL expression, as cel-go's checker/cost.go `Cost` computes it before
 * the expression ever runs: every node's cost as a range, sizes taken from literals, from what a
 * call is known to return, and from the schema the data is declared with (`SizedType`). Macros
 * are costed as the folds cel-go expands them into (parser/macro.go), their loop body times the
 * largest number of elements the range can hold. Kube runs it with presence tests free
 * (k8s.io/apiserver pkg/cel/environment/base.go `PresenceTestHasCost(false)`).
 *
 * It walks cel-js's parsed AST (see ../ast-walk.ts for its shape). cel-js does not type the
 * variables from a schema, so the kinds the cost rules need (string or list, object or map) are
 * taken from the schema types and the literals here.
 */
import { OPERATOR_FUNCTIONS } from './kube-costs';
import type { ASTNode } from '@marcbachmann/cel-js';
import { estimateCall, type Operand, SIZED_RESULTS } from './estimate-calls';
import { add, fixed, multiply, type Range, sum, UNKNOWN, union, ZERO } from './estimate-range';

export type SizedKind = 'object' | 'map' | 'list' | 'string' | 'bytes' | 'int' | 'double' | 'bool' | 'duration' | 'timestamp' | 'dyn';

/**
 * A variable's declared type as far as sizes go (for a CRD rule, what kube derives from the schema:
 * lib/registry/crd/cel/rule-types.ts).
 */
export interface SizedType {
  readonly kind: SizedKind;
  /** The largest size a value of this type can have (`MaxElements`); 0 where the type has no size (objects, numbers). */
  readonly maxElements: number;
  /** The smallest JSON a value of this type is written as (`MinSerializedSize`). */
  readonly minSerializedSize: number;
  readonly fields: ReadonlyMap<string, SizedType>;
  /** A list's items, a map's values. */
  readonly elem?: SizedType;
  /** A map's keys: schemas.go's plain string type, whose MaxElements is 0. */
  readonly key?: SizedType;
}

const SELECT_AND_IDENT = fixed(1);
const LIST_CREATE = fixed(10);
const MAP_CREATE = fixed(30);
const ONE = fixed(1);

/** What is known of a value: its size, its schema type and its kind, and those of its elements. */
interface Shape {
  readonly size?: Range | undefined;
  readonly type?: SizedType | undefined;
  readonly kind?: string | undefined;
  readonly elem?: Shape | undefined;
  readonly literal?: unknown;
}

interface Info extends Shape {
  readonly cost: Range;
}

/** A value of a schema type: sized `[0, MaxElements]` as kube's size estimator answers for its path. */
function ofType(type: SizedType | undefined): Shape {
  if (!type) return {};
  return { type, kind: type.kind, size: { min: 0, max: type.maxElements }, elem: type.elem ? ofType(type.elem) : undefined };
}

const SCALARS = new Set(['int', 'uint', 'double', 'bool', 'duration', 'timestamp', 'null']);

/** checker/cost.go `computeSize`: a known size, else 1 for scalars (computeTypeSize), else undefined. */
function sizeOf(shape: Shape | undefined): Range | undefined {
  if (shape?.size) return shape.size;
  return shape?.kind !== undefined && SCALARS.has(shape.kind) ? ONE : undefined;
}

const operand = (shape: Shape | undefined): Operand => ({
  size: sizeOf(shape),
  kind: shape?.kind,
  elemSize: sizeOf(shape?.elem),
  elemKind: shape?.elem?.kind,
  literal: shape?.literal,
});

type Node = ASTNode & { op: string; args: unknown };
const COMPREHENSIONS = new Set(['all', 'exists', 'exists_one', 'map', 'filter']);
/** cel-go ext/comprehensions.go's two-variable macros: (index or key, value, [predicate,] expression). */
const TWO_VARIABLE = new Set(['all', 'exists', 'existsOne', 'exists_one', 'transformList', 'transformMap', 'transformMapEntry']);
const isIdent = (node: Node | undefined): boolean => node?.op === 'id';

function literalShape(value: unknown): Shape {
  if (typeof value === 'string') return { kind: 'string', size: fixed([...value].length), literal: value };
  if (value instanceof Uint8Array) return { kind: 'bytes', size: fixed(value.length), literal: value };
  if (typeof value === 'bigint') return { kind: 'int', literal: value };
  if (typeof value === 'number') return { kind: 'double', literal: value };
  if (typeof value === 'boolean') return { kind: 'bool', literal: value };
  return { kind: value === null ? 'null' : undefined, literal: value };
}

class Estimator {
  private readonly scopes = new Map<string, Shape[]>();

  /** The first variable's type: kube's size estimator starts every path there (compilation.go `EstimateSize`). */
  private readonly root: SizedType | undefined;

  constructor(variables: ReadonlyMap<string, SizedType | undefined>) {
    for (const [name, type] of variables) this.scopes.set(name, [ofType(type)]);
    this.root = variables.values().next().value;
  }

  estimate(node: Node): Info {
    switch (node.op) {
      case 'value':
        return { cost: ZERO, ...literalShape(node.args) };
      case 'id':
        return { cost: SELECT_AND_IDENT, ...this.lookup(node.args as string) };
      case '.':
      case '.?':
        return this.select(node);
      case '[]':
      case '[?]':
        return this.index(node);
      case 'list':
        return this.list(node.args as Node[]);
      case 'map':
        return this.map(node.args as [Node, Node][]);
      case '&&':
      case '||': {
        const [left, right] = (node.args as Node[]).map((arg) => this.estimate(arg)) as [Info, Info];
        // Short-circuiting: at least the left side, at most both.
        return { cost: { min: left.cost.min, max: add(left.cost, right.cost).max }, kind: 'bool' };
      }
      case '?:': {
        const [condition, whenTrue, whenFalse] = (node.args as Node[]).map((arg) => this.estimate(arg)) as [Info, Info, Info];
        const size = union(sizeOf(whenTrue) ?? UNKNOWN, sizeOf(whenFalse) ?? UNKNOWN);
        return { cost: add(condition.cost, union(whenTrue.cost, whenFalse.cost)), size, kind: whenTrue.kind ?? whenFalse.kind };
      }
      case 'call':
      case 'rcall':
        return this.call(node);
      default:
        return this.operator(node);
    }
  }

  private lookup(name: string): Shape {
    const stack = this.scopes.get(name);
    return stack?.[stack.length - 1] ?? {};
  }

  private withVariable<T>(name: string, shape: Shape, body: () => T): T {
    const stack = this.scopes.get(name) ?? [];
    stack.push(shape);
    this.scopes.set(name, stack);
    try {
      return body();
    } finally {
      stack.pop();
    }
  }

  /** `costSelect`: the operand, plus 1 when it is a map or an object (cel-go charges nothing on dyn). */
  private select(node: Node): Info {
    const [target, field] = node.args as [Node, string];
    const from = this.estimate(target);
    const charged = from.kind === undefined || from.kind === 'object' || from.kind === 'map';
    const fieldShape = from.type?.kind === 'object' ? ofType(from.type.fields.get(field)) : from.type?.kind === 'map' ? ofType(from.type.elem) : {};
    // `a.?b` is the call `_?._`: 1 on top of its operand.
    const extra = node.op === '.?' ? ONE : charged ? SELECT_AND_IDENT : ZERO;
    return { cost: add(from.cost, extra), ...fieldShape };
  }

  /** `_[_]` is a call: 1 plus its operands; the element's size is the container's entries'. */
  private index(node: Node): Info {
    const [target, key] = (node.args as Node[]).map((arg) => this.estimate(arg)) as [Info, Info];
    return { cost: sum([target.cost, key.cost, ONE]), ...(target.elem ?? {}) };
  }

  private list(elements: readonly Node[]): Info {
    const infos = elements.map((element) => this.estimate(element));
    const elemSize = infos.length === 0 ? ZERO : infos.map((info) => sizeOf(info) ?? UNKNOWN).reduce(union);
    const elem: Shape = { size: elemSize, kind: infos[0]?.kind };
    return { cost: add(sum(infos.map((info) => info.cost)), LIST_CREATE), kind: 'list', size: fixed(elements.length), elem };
  }

  private map(entries: readonly [Node, Node][]): Info {
    const values: Info[] = [];
    let cost = MAP_CREATE;
    for (const [key, value] of entries) {
      const valueInfo = this.estimate(value);
      cost = sum([cost, this.estimate(key).cost, valueInfo.cost]);
      values.push(valueInfo);
    }
    const elemSize = values.length === 0 ? ZERO : values.map((info) => sizeOf(info) ?? UNKNOWN).reduce(union);
    return { cost, kind: 'map', size: fixed(entries.length), elem: { size: elemSize, kind: values[0]?.kind } };
  }

  private operator(node: Node): Info {
    const name = OPERATOR_FUNCTIONS[node.op];
    const nodes = Array.isArray(node.args) ? (node.args as Node[]) : [node.args as Node];
    const infos = nodes.map((arg) => this.estimate(arg));
    const argCost = sum(infos.map((info) => info.cost));
    if (name === undefined) return { cost: argCost };
    const call = estimateCall(name, undefined, infos.map(operand));
    const kind = name === '_+_' ? (infos[0]?.kind ?? infos[1]?.kind) : name.startsWith('_') && '+-*/%'.includes(name[1]!) ? infos[0]?.kind : 'bool';
    const elem = name === '_+_' ? (infos[0]?.elem ?? infos[1]?.elem) : undefined;
    return { cost: add(call.cost, argCost), size: call.resultSize, kind, elem };
  }

  private call(node: Node): Info {
    const isMember = node.op === 'rcall';
    const [name, first, second] = node.args as [string, Node | Node[], Node[] | undefined];
    const target = isMember ? (first as Node) : undefined;
    const args = (isMember ? second : first) as Node[];
    if (!isMember && name === 'has' && args.length === 1 && (args[0] as Node).op === '.') {
      // A presence test costs nothing of its own in kube; its operand is still selected.
      const [selected] = (args[0] as Node).args as [Node, string];
      return { cost: this.estimate(selected).cost, kind: 'bool' };
    }
    if (isMember && name === 'bind' && target?.op === 'id' && target.args === 'cel' && args.length === 3) return this.bind(args as [Node, Node, Node]);
    if (isMember && COMPREHENSIONS.has(name) && isIdent(args[0]) && (args.length === 2 || (name === 'map' && args.length === 3)))
      return this.comprehension(name, target as Node, args, 1);
    const transforms = name.startsWith('transform') ? [3, 4] : [3];
    if (isMember && TWO_VARIABLE.has(name) && isIdent(args[0]) && isIdent(args[1]) && transforms.includes(args.length))
      return this.comprehension(name, target as Node, args, 2);
    const targetInfo = target ? (this.isNamespace(target) ? { cost: ZERO } : this.estimate(target)) : undefined;
    const argInfos = args.map((arg) => this.estimate(arg));
    const call = estimateCall(name, targetInfo ? operand(targetInfo) : undefined, argInfos.map(operand));
    const cost = sum([call.cost, targetInfo?.cost ?? ZERO, ...argInfos.map((info) => info.cost)]);
    const size = call.resultSize ?? (SIZED_RESULTS.has(name) ? undefined : ONE);
    return { cost, size, kind: SIZED_RESULTS.has(name) ? 'string' : undefined };
  }

  /**
   * `optional` in `optional.of(…)`, `sets` in `sets.contains(…)`: cel-go resolves the qualified function
   * name when checking, so no variable is read (cel-js reads a namespace constant, neither declared nor bound).
   */
  private isNamespace(node: Node): boolean {
    return node.op === 'id' && (this.scopes.get(node.args as string)?.length ?? 0) === 0;
  }

  /** `costBind`: the empty range literal (10), the value, and the expression with the variable bound. */
  private bind([variable, init, body]: [Node, Node, Node]): Info {
    const value = this.estimate(init);
    const result = this.withVariable(variable.args as string, value, () => this.estimate(body));
    return { ...result, cost: sum([LIST_CREATE, value.cost, result.cost]) };
  }

  /**
   * `costComprehension` over parser/macro.go's expansions: the range, the accumulator's initial
   * value and the result once; the loop condition and step once per element the range can hold.
   */
  private comprehension(name: string, rangeNode: Node, args: readonly Node[], variables: 1 | 2): Info {
    const range = this.estimate(rangeNode);
    const count = sizeOf(range) ?? UNKNOWN;
    const isMap = range.kind === 'map';
    // A map's key (its declared type has no size: 0), a list's element.
    let key: Shape = range.type?.key ? ofType(range.type.key) : { kind: isMap ? 'string' : 'int' };
    let value: Shape = range.elem ?? {};
    // Over a range with no schema path (a literal, a call's result), cel-go gives each variable a path of
    // one step (`[@items]`, `[@keys]`, `[@indices]`), which kube's size estimator resolves to the root
    // itself: the variable is sized as `self` is (an object: 0), whatever the range holds.
    if (!range.type && this.root) {
      const asRoot = { min: 0, max: this.root.maxElements };
      key = { ...key, size: asRoot };
      value = { ...value, size: asRoot };
    }
    // One variable: a map's key or a list's element. Two: a list's index (an int, 1) or a map's key, then the value.
    const bound: [string, Shape][] =
      variables === 1
        ? [[(args[0] as Node).args as string, isMap ? key : value]]
        : [
            [(args[0] as Node).args as string, key],
            [(args[1] as Node).args as string, value],
          ];
    const bindAll = (index: number, body: () => Info): Info =>
      index === bound.length ? body() : this.withVariable(bound[index]![0], bound[index]![1], () => bindAll(index + 1, body));
    const body = args.slice(variables).map((arg) => bindAll(0, () => this.estimate(arg)));
    const [predicate, transform] = body as [Info, Info | undefined];
    const { init, loop, result, kind } = foldParts(name, predicate, transform);
    const cost = sum([range.cost, init, result, multiply(count, loop)]);
    if (kind === 'list' || kind === 'map') {
      const produced = name === 'filter' ? value : (transform ?? predicate);
      return { cost, kind, size: count, elem: { size: sizeOf(produced), kind: produced.kind } };
    }
    return { cost, kind };
  }
}

/**
 * The fixed parts of each macro's fold: the accumulator's initial value, the loop condition plus
 * step per element, and the result. `__result__` reads cost 1 each; `@not_strictly_false` is a call.
 */
function foldParts(name: string, predicate: Info, transform: Info | undefined): { init: Range; loop: Range; result: Range; kind: string } {
  const accumulator = ONE;
  switch (name) {
    case 'all':
      // init true; condition @not_strictly_false(__result__) = 2; step __result__ && p.
      return { init: ZERO, loop: add(fixed(2), { min: 1, max: add(accumulator, predicate.cost).max }), result: accumulator, kind: 'bool' };
    case 'exists':
      // init false; condition @not_strictly_false(!__result__) = 3; step __result__ || p.
      return { init: ZERO, loop: add(fixed(3), { min: 1, max: add(accumulator, predicate.cost).max }), result: accumulator, kind: 'bool' };
    case 'exists_one':
    case 'existsOne':
      // init 0; condition true (0); step p ? __result__ + 1 : __result__; result __result__ == 1 (2).
      return { init: ZERO, loop: add(predicate.cost, union(fixed(2), accumulator)), result: fixed(2), kind: 'bool' };
    case 'transformMap':
    case 'transformMapEntry': {
      // init {} (30); step [p ?] cel.@mapInsert(__result__, k, f) (1 + 1 + 1 + f; without k for an entry) [: __result__].
      const insert = sum([fixed(name === 'transformMap' ? 3 : 2), (transform ?? predicate).cost]);
      const loop = transform ? add(predicate.cost, union(insert, accumulator)) : insert;
      return { init: MAP_CREATE, loop, result: accumulator, kind: 'map' };
    }
    case 'map':
    case 'transformList': {
      // init []; step [p ?] __result__ + [f] (1 + 1 + 10 + f) [: __result__].
      const append = sum([fixed(12), (transform ?? predicate).cost]);
      const loop = transform ? add(predicate.cost, union(append, accumulator)) : append;
      return { init: LIST_CREATE, loop, result: accumulator, kind: 'list' };
    }
    default:
      // filter: init []; step p ? __result__ + [x] (1 + 1 + 10 + 1) : __result__ (1).
      return { init: LIST_CREATE, loop: add(predicate.cost, union(fixed(13), accumulator)), result: accumulator, kind: 'list' };
  }
}

/** The estimated cost range of a parsed expression whose variables have these schema types (undefined: unknown). */
export function estimateCost(ast: ASTNode, variables: ReadonlyMap<string, SizedType | undefined>): Range {
  return new Estimator(variables).estimate(ast as Node).cost;
}
