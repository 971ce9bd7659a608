import type { ASTNode, Environment } from '@marcbachmann/cel-js';
import { CelFunctionError, checkerTypeName } from '../errors';
import { celModule } from '../runtime';
import { celEquals, compare } from './compare';
import { type Checker, type Evaluator, goTypeName, type MacroInput, runSync, type TypeDecl } from './macro';
import { registerNamespace } from './namespace';

/*
 * cel-go's lists extension (ext/lists.go) at version 3: `lists.range`, `slice`, `flatten`, `reverse`,
 * `sort`, `sortBy` and `distinct`, with cel-go's error texts.
 */

// ext/lists.go declares sort on these element types only, so any other fails when compiled.
const SORTABLE = ['int', 'uint', 'double', 'bool', 'string', 'bytes', 'google.protobuf.Duration', 'google.protobuf.Timestamp'];

export function registerLists(env: Environment): void {
  const sync = { async: false };
  registerNamespace(env, 'lists');
  env
    .registerFunction('lists.range(int): list<int>', (_lists: unknown, n: bigint) => Array.from({ length: n > 0n ? Number(n) : 0 }, (_, i) => BigInt(i)), sync)
    .registerFunction('list<A>.slice(int, int): list<A>', slice, sync)
    .registerFunction('list<list<A>>.flatten(): list<A>', (list: unknown[]) => flatten(list, 1n), sync)
    .registerFunction('list.flatten(int): list', flatten, sync)
    .registerFunction('list<A>.reverse(): list<A>', (list: unknown[]) => [...list].reverse(), sync)
    .registerFunction('list<A>.distinct(): list<A>', distinct, sync);
  for (const element of SORTABLE) env.registerFunction(`list<${element}>.sort(): list<${element}>`, sort, sync);
  env.registerFunction('list.sortBy(ast, ast): list<dyn>', sortByMacro);
}

interface ContextLike {
  forkWithVariable(name: string, type: TypeDecl): ContextLike;
  reuse(parent: unknown): ContextLike;
  setIterValue(value: unknown, evaluator: Evaluator): ContextLike;
}

/**
 * lists.go `sortByMacro`: `list.sortBy(e, key)` is `list.@sortByAssociatedKeys(list.map(e, key))`, the
 * list evaluated once, its elements ordered by their keys, which must all be of one comparable type.
 */
function sortByMacro({ args, receiver }: MacroInput) {
  const variable = args[0] as ASTNode;
  const key = args[1] as ASTNode;
  const { ParseError } = celModule();
  if (!receiver || !['list', 'id', '.', 'call', 'rcall'].includes(receiver.op)) {
    throw new ParseError('sortBy can only be applied to a list, identifier, comprehension, call or select expression', receiver ?? variable);
  }
  if (variable.op !== 'id' || typeof variable.args !== 'string') throw new ParseError('argument is not an identifier', variable);
  const variableName = variable.args;
  let scope: ContextLike | undefined;
  let size = 0;
  return {
    async: false,
    /**
     * The expansion's steps cel-js does not run: the binding fold's empty list 10, two reads of the bound
     * list 2, the map fold (its initial list 10, per element a read, a list literal and an add 12, its
     * result 1) and the `@sortByAssociatedKeys` call 1.
     */
    hiddenCost: () => 24 + 12 * size,
    typeCheck(checker: Checker, _macro: unknown, ctx: unknown): TypeDecl {
      const list = checker.check(receiver, ctx) as TypeDecl & { valueType?: TypeDecl };
      if (list.kind !== 'list' && list.kind !== 'dyn') {
        throw checker.createError(
          'invalid_comprehension_range',
          `expression of type '${checkerTypeName(list.name)}' cannot be range of a comprehension (must be list, map, or dynamic)`,
          receiver,
        );
      }
      scope = (ctx as ContextLike).forkWithVariable(variableName, list.valueType ?? checker.getType('dyn'));
      const keyType = checker.check(key, scope);
      if (keyType.kind !== 'dyn' && keyType.kind !== 'param' && !SORTABLE.includes(keyType.name)) {
        throw checker.createError(
          'no_matching_overload',
          `found no matching overload for '@sortByAssociatedKeys' applied to '${checkerTypeName(list.name)}.(list(${checkerTypeName(keyType.name)}))'`,
          key,
        );
      }
      return list.kind === 'list' ? list : checker.getType('list<dyn>');
    },
    evaluate(evaluator: Evaluator, _macro: unknown, ctx: unknown): unknown {
      if (!scope) throw new Error('sortBy evaluated before it was checked');
      const list = runSync(evaluator, receiver, ctx);
      if (!Array.isArray(list)) throw new CelFunctionError('no such overload');
      size = list.length;
      const bound = scope.reuse(ctx);
      const keys = list.map((element) => runSync(evaluator, key, bound.setIterValue(element, evaluator)));
      return sortByKeys(list, keys, (value) => goTypeName(evaluator.debugType(value)));
    },
  };
}

// lists.go `sortByAssociatedKeys`: the first key's type decides; every key must share it.
function sortByKeys(list: unknown[], keys: unknown[], typeOf: (value: unknown) => string): unknown[] {
  if (list.length === 0) return list;
  const first = typeOf(keys[0]);
  if (!SORTABLE.includes(first)) throw new CelFunctionError('list elements must be comparable');
  if (keys.some((k) => typeOf(k) !== first)) throw new CelFunctionError('list elements must have the same type');
  return list
    .map((element, index) => ({ element, key: keys[index], index }))
    .sort((a, b) => compare(a.key, b.key) || a.index - b.index)
    .map(({ element }) => element);
}

function slice(list: unknown[], start: bigint, end: bigint): unknown[] {
  if (start < 0n || end < 0n) throw new CelFunctionError(`cannot slice(${start}, ${end}), negative indexes not supported`);
  if (start > end) throw new CelFunctionError(`cannot slice(${start}, ${end}), start index must be less than or equal to end index`);
  if (BigInt(list.length) < end) throw new CelFunctionError(`cannot slice(${start}, ${end}), list is length ${list.length}`);
  return list.slice(Number(start), Number(end));
}

function flatten(list: unknown[], depth: bigint): unknown[] {
  if (depth < 0n) throw new CelFunctionError('level must be non-negative');
  const out: unknown[] = [];
  for (const element of list) {
    if (Array.isArray(element) && depth > 0n) out.push(...flatten(element, depth - 1n));
    else out.push(element);
  }
  return out;
}

// The first of equal elements stays, in order; equality is CEL's (1 and 1.0 are the same element).
function distinct(list: unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const element of list) if (!out.some((kept) => celEquals(kept, element))) out.push(element);
  return out;
}

// A stable sort, as sort.SliceStable keeps equal elements in their order.
function sort(list: unknown[]): unknown[] {
  return list
    .map((element, index) => ({ element, index }))
    .sort((a, b) => compare(a.element, b.element) || a.index - b.index)
    .map(({ element }) => element);
}
