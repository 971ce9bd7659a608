import type { Environment } from '@marcbachmann/cel-js';
import { CelFunctionError } from '../errors';
import { celEquals, compare } from './compare';
import { registerNamespace } from './namespace';

/*
 * cel-go's lists extension (ext/lists.go) at version 3: `lists.range`, `slice`, `flatten`, `reverse`,
 * `sort` and `distinct`, with cel-go's error texts. (`sortBy`, a macro, is not here.)
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
