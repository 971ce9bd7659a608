import type { ASTNode, Environment } from '@marcbachmann/cel-js';
import { CelFunctionError, celGoTypeName } from '../errors';
import { celModule } from '../runtime';
import { celEquals } from './compare';
import { type Checker, type Evaluator, goTypeName, type MacroInput, runSync, type TypeDecl } from './macro';

/*
 * cel-go's two-variable comprehensions (ext/comprehensions.go, `TwoVarComprehensions`, enabled by
 * kube-apiserver since 1.32 in pkg/cel/environment/base.go): `all`, `exists`, `existsOne` (also spelt
 * `exists_one`) with three arguments, and `transformList`, `transformMap`, `transformMapEntry` with
 * three or four (the third then a filter). Over a list the variables are the index and the element;
 * over a map, the key and the value.
 *
 * cel-go expands each into a fold; cel-js's fold has a single iteration variable, so these are macros
 * that check and evaluate themselves, with cel-go's semantics: `all` and `exists` stop at the first
 * false (true) predicate and otherwise report an error met on the way, as `&&` and `||` absorb errors;
 * `existsOne` and the transforms stop at the first error.
 */

type Kind = 'all' | 'exists' | 'existsOne' | 'transformList' | 'transformMap' | 'transformMapEntry';

interface ContextLike {
  forkWithVariable(name: string, type: TypeDecl): ContextLike;
  reuse(parent: unknown): ContextLike;
  setIterValue(value: unknown, evaluator: Evaluator): ContextLike;
}

/** What the last evaluation of a comprehension did, for the cost tracker (lib/cel/cost/node-cost.ts). */
export interface FoldRecord {
  kind: Kind;
  /** Entries in the range. */
  size: number;
  /** Entries stepped into (`all` and `exists` stop early). */
  iterations: number;
  /** Entries the filter kept (transforms), or the predicate held for (`existsOne`). */
  kept: number;
}

export function registerComprehensions(env: Environment): void {
  const three = 'ast, ast, ast';
  const four = 'ast, ast, ast, ast';
  env
    .registerFunction(`list.all(${three}): bool`, (input: MacroInput) => twoVariableMacro('all', input))
    .registerFunction(`list.exists(${three}): bool`, (input: MacroInput) => twoVariableMacro('exists', input))
    .registerFunction(`list.existsOne(${three}): bool`, (input: MacroInput) => twoVariableMacro('existsOne', input))
    .registerFunction(`list.exists_one(${three}): bool`, (input: MacroInput) => twoVariableMacro('existsOne', input));
  for (const kind of ['transformList', 'transformMap', 'transformMapEntry'] as const) {
    const result = kind === 'transformList' ? 'list<dyn>' : 'map<dyn, dyn>';
    env
      .registerFunction(`list.${kind}(${three}): ${result}`, (input: MacroInput) => twoVariableMacro(kind, input))
      .registerFunction(`list.${kind}(${four}): ${result}`, (input: MacroInput) => twoVariableMacro(kind, input));
  }
}

/** comprehensions.go `extractIterVar`: each variable must be a plain identifier. */
function iterationVariable(node: ASTNode): string {
  if (node.op === 'id' && typeof node.args === 'string') return node.args;
  const { ParseError } = celModule();
  throw new ParseError('argument must be a simple name', node);
}

function twoVariableMacro(kind: Kind, { ast, args, receiver }: MacroInput) {
  if (!receiver) throw new Error(`${kind} needs a receiver`);
  const first = iterationVariable(args[0] as ASTNode);
  const second = iterationVariable(args[1] as ASTNode);
  const filter = args.length === 4 ? (args[2] as ASTNode) : undefined;
  const body = args[args.length - 1] as ASTNode;
  let scope: { outer: ContextLike; inner: ContextLike } | undefined;
  const record: FoldRecord = { kind, size: 0, iterations: 0, kept: 0 };
  return {
    async: false,
    foldRecord: record,
    typeCheck(checker: Checker, _macro: unknown, ctx: unknown): TypeDecl {
      const [firstType, secondType] = variableTypes(checker, receiver, ctx);
      const outer = (ctx as ContextLike).forkWithVariable(first, firstType);
      const inner = outer.forkWithVariable(second, secondType);
      scope = { outer, inner };
      if (filter) expectBool(checker, filter, checker.check(filter, inner), '_?_:_');
      const bodyType = checker.check(body, inner);
      switch (kind) {
        case 'all':
        case 'exists':
          expectBool(checker, body, bodyType, kind === 'all' ? '_&&_' : '_||_');
          return checker.getType('bool');
        case 'existsOne':
          expectBool(checker, body, bodyType, '_?_:_');
          return checker.getType('bool');
        case 'transformList':
          return checker.getType(`list<${bodyType.name}>`);
        case 'transformMap':
          return checker.getType(`map<${firstType.name}, ${bodyType.name}>`);
        case 'transformMapEntry':
          if (bodyType.kind !== 'map' && bodyType.kind !== 'dyn') {
            throw checker.createError(
              'no_matching_overload',
              `found no matching overload for 'cel.@mapInsert' applied to '(map(${celGoTypeName(firstType.name)}, dyn), ${celGoTypeName(bodyType.name)})'`,
              ast,
            );
          }
          return bodyType;
      }
    },
    evaluate(evaluator: Evaluator, _macro: unknown, ctx: unknown): unknown {
      if (!scope) throw new Error(`${kind} evaluated before it was checked`);
      const range = runSync(evaluator, receiver, ctx);
      const entries = isRange(range) ? iterationEntries(range) : notIterable(goTypeName(evaluator.debugType(range)));
      const outer = scope.outer.reuse(ctx);
      const inner = scope.inner.reuse(outer);
      record.size = entries.length;
      record.iterations = 0;
      record.kept = 0;
      const step = (key: unknown, value: unknown): { keep: boolean; value?: unknown } => {
        record.iterations++;
        outer.setIterValue(key, evaluator);
        inner.setIterValue(value, evaluator);
        if (filter && runSync(evaluator, filter, inner) !== true) return { keep: false };
        const result = runSync(evaluator, body, inner);
        if (kind !== 'existsOne' || result === true) record.kept++;
        return { keep: true, value: result };
      };
      return fold(kind, entries, step);
    },
  };
}

/** checker.go `checkComprehension` for two variables: (int, element) over a list, (key, value) over a map. */
function variableTypes(checker: Checker, receiver: ASTNode, ctx: unknown): [TypeDecl, TypeDecl] {
  const range = checker.check(receiver, ctx) as TypeDecl & { valueType?: TypeDecl; keyType?: TypeDecl };
  if (range.kind === 'list' && range.valueType) return [checker.getType('int'), range.valueType];
  if (range.kind === 'map' && range.keyType && range.valueType) return [range.keyType, range.valueType];
  if (range.kind === 'dyn') return [range, range];
  throw checker.createError(
    'invalid_comprehension_range',
    `expression of type '${celGoTypeName(range.name)}' cannot be range of a comprehension (must be list, map, or dynamic)`,
    receiver,
  );
}

function expectBool(checker: Checker, node: ASTNode, type: TypeDecl, operator: string): void {
  if (type.name === 'bool' || type.kind === 'dyn') return;
  const operands = operator === '_?_:_' ? `(${celGoTypeName(type.name)}, int, int)` : `(bool, ${celGoTypeName(type.name)})`;
  throw checker.createError('no_matching_overload', `found no matching overload for '${operator}' applied to '${operands}'`, node);
}

function isRange(value: unknown): boolean {
  return Array.isArray(value) || value instanceof Map || (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype);
}

// Go's %T of cel-go's values, as interpreter/interpretable.go evalFold names a range it cannot iterate.
const GO_VALUE_TYPES: Readonly<Record<string, string>> = {
  int: 'types.Int',
  uint: 'types.Uint',
  double: 'types.Double',
  bool: 'types.Bool',
  string: 'types.String',
  bytes: 'types.Bytes',
  null_type: 'types.Null',
  'google.protobuf.Duration': 'types.Duration',
  'google.protobuf.Timestamp': 'types.Timestamp',
  optional_type: '*types.Optional',
};

function notIterable(type: string): never {
  throw new CelFunctionError(`got '${GO_VALUE_TYPES[type] ?? type}', expected iterable type`);
}

/** The (first, second) variable pairs of a list (index, element) or a map (key, value), in order. */
function iterationEntries(range: unknown): [unknown, unknown][] {
  if (Array.isArray(range)) return range.map((element, index) => [BigInt(index), element]);
  if (range instanceof Map) return [...range.entries()];
  if (range !== null && typeof range === 'object' && !(range instanceof Uint8Array)) return Object.entries(range);
  throw new CelFunctionError('cannot be range of a comprehension (must be list, map, or dynamic)');
}

type Step = (key: unknown, value: unknown) => { keep: boolean; value?: unknown };

function fold(kind: Kind, entries: [unknown, unknown][], step: Step): unknown {
  switch (kind) {
    case 'all':
    case 'exists':
      return quantify(kind === 'all', entries, step);
    case 'existsOne': {
      let count = 0;
      for (const [key, value] of entries) if (truth(step(key, value).value)) count++;
      return count === 1;
    }
    case 'transformList': {
      const out: unknown[] = [];
      for (const [key, value] of entries) {
        const result = step(key, value);
        if (result.keep) out.push(result.value);
      }
      return out;
    }
    default: {
      const out = new MapBuilder();
      for (const [key, value] of entries) {
        const result = step(key, value);
        if (!result.keep) continue;
        if (kind === 'transformMap') out.insert(key, result.value);
        else for (const [k, v] of iterationEntries(result.value)) out.insert(k, v);
      }
      return out.value();
    }
  }
}

/** `&&` (all) and `||` (exists) folded: the deciding value wins over an error met before or after it. */
function quantify(all: boolean, entries: [unknown, unknown][], step: Step): boolean {
  let error: unknown;
  for (const [key, value] of entries) {
    let result: unknown;
    try {
      result = step(key, value).value;
    } catch (caught) {
      error ??= caught;
      continue;
    }
    if (typeof result !== 'boolean') {
      error ??= new CelFunctionError('no such overload');
      continue;
    }
    if (result !== all) return !all;
  }
  if (error !== undefined) throw error;
  return all;
}

function truth(value: unknown): boolean {
  if (typeof value !== 'boolean') throw new CelFunctionError('no such overload');
  return value;
}

/** cel-go's mutable map of `cel.@mapInsert`: a key present already is an error. */
class MapBuilder {
  private readonly entries: [unknown, unknown][] = [];

  insert(key: unknown, value: unknown): void {
    if (this.entries.some(([k]) => celEquals(k, key))) throw new CelFunctionError(`insert failed: key ${String(key)} already exists`);
    this.entries.push([key, value]);
  }

  /** A plain object when every key is a string, as cel-js builds map literals; a Map otherwise. */
  value(): unknown {
    if (this.entries.every(([key]) => typeof key === 'string')) return Object.fromEntries(this.entries);
    return new Map(this.entries);
  }
}
