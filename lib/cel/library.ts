import type { Environment } from '@marcbachmann/cel-js';
import { CelFunctionError } from './errors';
import { registerKubernetesLibraries } from './libraries';
import { celValueClasses, isDuration, isUint, type CelDuration } from './libraries/cel-values';
import { celEquals, compare, durationNanos } from './libraries/compare';
import { registerMatches } from './libraries/matches';
import { durationString, rfc3339Nano } from './libraries/string-format-values';

/*
 * Kubernetes CEL functions cel-js lacks: the global `matches(string, string)` of cel-go's standard
 * library, `replace` and `charAt` of ext.Strings (kube enables version 2) and the lists library
 * (k8s.io/apiserver/pkg/cel/library/lists.go) on every element type it declares.
 */

const MAX_INT = 2n ** 63n - 1n;
const MIN_INT = -(2n ** 63n);
const MAX_UINT = 2n ** 64n - 1n;
const DURATION = 'google.protobuf.Duration';

// lists.go declares isSorted/min/max for its comparable types and sum for its summable ones, so that
// other element types fail when the expression is compiled, as in kube.
const COMPARABLE = ['int', 'uint', 'double', 'bool', 'string', 'bytes', DURATION, 'google.protobuf.Timestamp'];
// int first: an empty list of unknown element type sums to the int 0.
const SUMMABLE = ['int', 'uint', 'double', DURATION];

export function registerLibrary(env: Environment): void {
  const sync = { async: false };
  for (const element of COMPARABLE) {
    env
      .registerFunction(`list<${element}>.isSorted(): bool`, isSorted, sync)
      .registerFunction(`list<${element}>.min(): ${element}`, (list: unknown[]) => extreme(list, 'min'), sync)
      .registerFunction(`list<${element}>.max(): ${element}`, (list: unknown[]) => extreme(list, 'max'), sync);
  }
  for (const element of SUMMABLE) env.registerFunction(`list<${element}>.sum(): ${element}`, (list: unknown[]) => sum(list, element), sync);
  // lists.go declares indexOf(list(A), A); cel-js would then bind A at run time from the elements and
  // reject an int list searched for a double, which cel-go's heterogeneous equality finds. dyn keeps
  // the run-time behaviour, at the cost of accepting `[1].indexOf('a')` when compiling.
  env
    .registerFunction('list.indexOf(dyn): int', (list: unknown[], item: unknown) => BigInt(list.findIndex((element) => celEquals(element, item))), sync)
    .registerFunction('list.lastIndexOf(dyn): int', (list: unknown[], item: unknown) => BigInt(list.findLastIndex((element) => celEquals(element, item))), sync)
    .registerFunction('string.replace(string, string): string', (s: string, from: string, to: string) => goReplace(s, from, to, -1), sync)
    .registerFunction(
      'string.replace(string, string, int): string',
      (s: string, from: string, to: string, n: bigint) => goReplace(s, from, to, Number(n)),
      sync,
    )
    .registerFunction('string.charAt(int): string', charAt, sync)
    // cel-go common/types duration.go and timestamp.go `ConvertToType(StringType)`; cel-js has neither.
    .registerFunction(`string(${DURATION}): string`, durationString, sync)
    .registerFunction('string(google.protobuf.Timestamp): string', rfc3339Nano, sync);
  registerMatches(env);
  registerKubernetesLibraries(env);
}

function isSorted(list: unknown[]): boolean {
  return list.every((element, i) => i === 0 || compare(list[i - 1], element) <= 0);
}

function extreme(list: unknown[], which: 'min' | 'max'): unknown {
  if (list.length === 0) throw new CelFunctionError(`${which} called on empty list`);
  // A later element replaces the current one only when strictly better, as lists.go's cmp does.
  return list.reduce((best, element) => ((which === 'min' ? compare(best, element) > 0 : compare(best, element) < 0) ? element : best));
}

/** lists.go `sum`: from the zero of the overload's element type, with cel-go's overflow errors. */
function sum(list: unknown[], element: string): unknown {
  const { UnsignedInt, Duration } = celValueClasses();
  if (element === 'uint' || element === DURATION) {
    let total = 0n;
    for (const item of list) {
      if (element === 'uint' ? !isUint(item) : !isDuration(item)) throw new CelFunctionError('no such overload');
      total += element === 'uint' ? (item as { value: bigint }).value : durationNanos(item as CelDuration);
      if (element === 'uint' && total > MAX_UINT) throw new CelFunctionError('unsigned integer overflow');
      if (element === DURATION && (total > MAX_INT || total < MIN_INT)) throw new CelFunctionError('integer overflow');
    }
    return element === 'uint' ? new UnsignedInt(total) : new Duration(total / 1_000_000_000n, Number(total % 1_000_000_000n));
  }
  let total: bigint | number | undefined;
  for (const item of list) {
    if (typeof item === 'bigint' && (total === undefined || typeof total === 'bigint')) {
      total = (total ?? 0n) + item;
      if (total > MAX_INT || total < MIN_INT) throw new CelFunctionError('integer overflow');
    } else if (typeof item === 'number' && (total === undefined || typeof total === 'number')) {
      total = (total ?? 0) + item;
    } else {
      // int + double has no overload in cel-go.
      throw new CelFunctionError('no such overload');
    }
  }
  return total ?? (element === 'double' ? 0 : 0n);
}

/** Go's strings.Replace: `n < 0` replaces all; an empty `from` matches before every rune and at the end. */
function goReplace(s: string, from: string, to: string, n: number): string {
  if (n === 0 || from === to) return s;
  const parts = from === '' ? ['', ...[...s], ''] : s.split(from);
  const limit = n < 0 ? parts.length - 1 : Math.min(n, parts.length - 1);
  let out = parts[0] ?? '';
  for (let i = 1; i < parts.length; i++) out += (i <= limit ? to : from) + (parts[i] ?? '');
  return out;
}

// ext.Strings charAt: indexes runes; the index one past the end yields ''.
function charAt(s: string, index: bigint): string {
  const runes = [...s];
  if (index < 0n || index > BigInt(runes.length)) throw new CelFunctionError(`index out of range: ${index}`);
  return runes[Number(index)] ?? '';
}
