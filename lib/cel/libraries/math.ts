import type { ASTNode, Environment } from '@marcbachmann/cel-js';
import { CelFunctionError, celGoTypeName } from '../errors';
import { celModule } from '../runtime';
import { celValueClasses, isUint } from './cel-values';
import { goTypeName, runSync, type Checker, type Evaluator, type MacroInput, type TypeDecl } from './macro';
import { registerNamespace } from './namespace';

/*
 * cel-go ext.Math (ext/math.go), version 1: the math.greatest/math.least macros, rounding, sign and
 * float helpers, and bit operations. (math.sqrt is version 2.)
 *
 * math.greatest/least are macros in cel-go: their arguments are checked when the expression is parsed,
 * then the call becomes `math.@max(a)`, `math.@max(a, b)` or `math.@max([a, b, c, ...])` (@min for least).
 * cel-js keys macros by argument count, so they are declared for 1 to MAX_ARGS arguments.
 */

// cel-js's default limits.maxCallArguments.
const MAX_ARGS = 32;
const MIN_INT64 = -(1n << 63n);

/** A cel-js uint (UnsignedInt) as the handlers receive it. */
interface Unsigned {
  valueOf(): bigint;
}

export function registerMath(env: Environment): void {
  const sync = { async: false };
  const { UnsignedInt } = celValueClasses();
  const uint = (v: bigint) => new UnsignedInt(BigInt.asUintN(64, v));
  registerNamespace(env, 'math');
  for (let n = 1; n <= MAX_ARGS; n++) {
    const params = Array.from({ length: n }, () => 'ast').join(', ');
    env
      .registerFunction(`math.greatest(${params}): dyn`, (input: MacroInput) => minMaxMacro('greatest', input))
      .registerFunction(`math.least(${params}): dyn`, (input: MacroInput) => minMaxMacro('least', input));
  }
  const unary =
    <T>(fn: (value: T) => unknown) =>
    (_: unknown, value: T) =>
      fn(value);
  const binary =
    <A, B>(fn: (a: A, b: B) => unknown) =>
    (_: unknown, a: A, b: B) =>
      fn(a, b);
  env
    .registerFunction('math.ceil(double): double', unary(Math.ceil), sync)
    .registerFunction('math.floor(double): double', unary(Math.floor), sync)
    .registerFunction('math.round(double): double', unary(goRound), sync)
    .registerFunction('math.trunc(double): double', unary(Math.trunc), sync)
    .registerFunction(
      'math.isInf(double): bool',
      unary((x: number) => x === Infinity || x === -Infinity),
      sync,
    )
    .registerFunction('math.isNaN(double): bool', unary(Number.isNaN), sync)
    .registerFunction('math.isFinite(double): bool', unary(Number.isFinite), sync)
    .registerFunction('math.abs(double): double', unary(Math.abs), sync)
    .registerFunction('math.abs(int): int', unary(absInt), sync)
    .registerFunction(
      'math.abs(uint): uint',
      unary((v: unknown) => v),
      sync,
    )
    // Go's sign: NaN stays NaN, and zero of either sign is 0.
    .registerFunction(
      'math.sign(double): double',
      unary((x: number) => (Number.isNaN(x) ? x : x > 0 ? 1 : x < 0 ? -1 : 0)),
      sync,
    )
    .registerFunction(
      'math.sign(int): int',
      unary((v: bigint) => (v > 0n ? 1n : v < 0n ? -1n : 0n)),
      sync,
    )
    .registerFunction(
      'math.sign(uint): uint',
      unary((v: Unsigned) => uint(v.valueOf() === 0n ? 0n : 1n)),
      sync,
    )
    .registerFunction(
      'math.bitAnd(int, int): int',
      binary((a: bigint, b: bigint) => a & b),
      sync,
    )
    .registerFunction(
      'math.bitAnd(uint, uint): uint',
      binary((a: Unsigned, b: Unsigned) => uint(a.valueOf() & b.valueOf())),
      sync,
    )
    .registerFunction(
      'math.bitOr(int, int): int',
      binary((a: bigint, b: bigint) => a | b),
      sync,
    )
    .registerFunction(
      'math.bitOr(uint, uint): uint',
      binary((a: Unsigned, b: Unsigned) => uint(a.valueOf() | b.valueOf())),
      sync,
    )
    .registerFunction(
      'math.bitXor(int, int): int',
      binary((a: bigint, b: bigint) => a ^ b),
      sync,
    )
    .registerFunction(
      'math.bitXor(uint, uint): uint',
      binary((a: Unsigned, b: Unsigned) => uint(a.valueOf() ^ b.valueOf())),
      sync,
    )
    .registerFunction(
      'math.bitNot(int): int',
      unary((v: bigint) => ~v),
      sync,
    )
    .registerFunction(
      'math.bitNot(uint): uint',
      unary((v: Unsigned) => uint(~v.valueOf())),
      sync,
    )
    .registerFunction(
      'math.bitShiftLeft(int, int): int',
      binary((v: bigint, bits: bigint) => BigInt.asIntN(64, shiftLeft(v, bits))),
      sync,
    )
    .registerFunction(
      'math.bitShiftLeft(uint, int): uint',
      binary((v: Unsigned, bits: bigint) => uint(shiftLeft(v.valueOf(), bits))),
      sync,
    )
    .registerFunction(
      'math.bitShiftRight(int, int): int',
      // The sign bit is not extended: the int is shifted as the uint64 it is made of.
      binary((v: bigint, bits: bigint) => BigInt.asIntN(64, shiftRight(BigInt.asUintN(64, v), bits, 'math.bitShiftRight'))),
      sync,
    )
    .registerFunction(
      'math.bitShiftRight(uint, int): uint',
      binary((v: Unsigned, bits: bigint) => uint(shiftRight(v.valueOf(), bits, 'math.bitShiftRight'))),
      sync,
    );
}

/** math.Round: half away from zero. */
function goRound(x: number): number {
  const t = Math.trunc(x);
  return Math.abs(x - t) >= 0.5 ? t + Math.sign(x) : t;
}

function absInt(v: bigint): bigint {
  if (v === MIN_INT64) throw new CelFunctionError('integer overflow');
  return v < 0n ? -v : v;
}

function shiftLeft(v: bigint, bits: bigint): bigint {
  if (bits < 0n) throw new CelFunctionError(`math.bitShiftLeft() negative offset: ${bits}`);
  return bits >= 64n ? 0n : v << bits;
}

function shiftRight(v: bigint, bits: bigint, fn: string): bigint {
  if (bits < 0n) throw new CelFunctionError(`${fn}() negative offset: ${bits}`);
  return bits >= 64n ? 0n : v >> bits;
}

// --- math.greatest / math.least ---

type Extreme = 'greatest' | 'least';

const NUMERIC = new Set(['int', 'uint', 'double']);

/** math.go isNumericArgType: a numeric literal, or anything that is not a literal or an aggregate. */
function isNumericArg(node: ASTNode): boolean {
  if (node.op === 'value') return typeof node.args === 'bigint' || typeof node.args === 'number' || isUint(node.args);
  return node.op !== 'list' && node.op !== 'map';
}

function minMaxMacro(which: Extreme, { ast, args, receiver }: MacroInput) {
  const fn = which === 'greatest' ? 'math.@max' : 'math.@min';
  const name = `math.${which}()`;
  // macroTargetMatchesNamespace: only `math.greatest(...)` is the macro.
  const isMath = receiver?.op === 'id' && receiver.args === 'math';
  if (isMath) {
    const { ParseError } = celModule();
    if (args.length === 1) {
      const arg = args[0] as ASTNode;
      const listOfNumbers = arg.op === 'list' && arg.args.length > 0 && arg.args.every(isNumericArg);
      if (!listOfNumbers && !isNumericArg(arg)) throw new ParseError(`${name} invalid single argument value`, arg);
    } else {
      const bad = args.find((arg) => !isNumericArg(arg));
      if (bad) throw new ParseError(`${name} simple literal arguments must be numeric`, bad);
    }
  }
  return {
    async: false,
    typeCheck(checker: Checker, _macro: unknown, ctx: unknown): TypeDecl {
      if (!isMath) {
        const receiverType = receiver ? checker.check(receiver, ctx).name : '';
        throw checker.createError('no_matching_overload', `found no matching overload for '${receiverType}.${which}(...)'`, ast);
      }
      const types = args.map((arg) => checker.check(arg, ctx));
      const noOverload = (shown: TypeDecl[]) =>
        checker.createError(
          'invalid_argument',
          `found no matching overload for '${fn}' applied to '(${shown.map((t) => celGoTypeName(t.name)).join(', ')})'`,
          ast,
        );
      const numericOrDyn = (t: TypeDecl) => t.kind === 'dyn' || NUMERIC.has(t.name);
      if (types.length === 1) {
        const [t] = types as [TypeDecl];
        if (numericOrDyn(t)) return t;
        const element = t.kind === 'list' ? (t as TypeDecl & { valueType: TypeDecl }).valueType : undefined;
        if (element && numericOrDyn(element)) return element.kind === 'dyn' ? checker.getType('dyn') : element;
        throw noOverload(types);
      }
      if (types.length === 2) {
        const [a, b] = types as [TypeDecl, TypeDecl];
        if (!numericOrDyn(a) || !numericOrDyn(b)) throw noOverload(types);
        return a.name === b.name ? a : checker.getType('dyn');
      }
      // Three or more arguments become a list literal, which must be homogeneous.
      const first = types[0] as TypeDecl;
      types.forEach((t, i) => {
        if (t.name !== first.name) {
          throw checker.createError(
            'heterogeneous_list_element',
            `List elements must have the same type, expected type '${first.name}' but found '${t.name}'`,
            args[i],
          );
        }
      });
      if (!numericOrDyn(first))
        throw checker.createError('invalid_argument', `found no matching overload for '${fn}' applied to '(list(${celGoTypeName(first.name)}))'`, ast);
      return first;
    },
    evaluate(evaluator: Evaluator, _macro: unknown, ctx: unknown): unknown {
      const values = args.map((arg) => runSync(evaluator, arg, ctx));
      const typeOf = (value: unknown) => goTypeName(evaluator.debugType(value));
      if (values.length > 2) return extremeOfList(which, values, typeOf);
      const types = values.map(typeOf);
      if (values.length === 1) {
        if (NUMERIC.has(types[0] ?? '')) return values[0];
        if (types[0] === 'list') return extremeOfList(which, [...(values[0] as Iterable<unknown>)], typeOf);
      } else if (types.every((t) => NUMERIC.has(t))) {
        const result = pair(which, values[0], values[1]);
        if (result instanceof CelFunctionError) throw result;
        return result;
      }
      throw new CelFunctionError(`no such overload: ${fn}(${types.join(', ')})`);
    },
  };
}

/** math.go maxPair/minPair: the first value unless the second compares strictly beyond it. */
function pair(which: Extreme, first: unknown, second: unknown): unknown {
  const fn = which === 'greatest' ? 'math.@max' : 'math.@min';
  const order = compare(first, second);
  if (order instanceof CelFunctionError) {
    // maybeSuffixError: the function name is appended to the comparison error.
    return order.message.includes(fn) ? order : new CelFunctionError(`${order.message}: ${fn}`);
  }
  if (which === 'greatest') return order === -1 ? second : first;
  return order === 1 ? second : first;
}

/** math.go maxList/minList: any failure, or a non-numeric result, is `no such overload`. */
function extremeOfList(which: Extreme, list: unknown[], typeOf: (value: unknown) => string): unknown {
  const fn = which === 'greatest' ? 'math.@max' : 'math.@min';
  if (list.length === 0) throw new CelFunctionError(`${fn}(list) argument must not be empty`);
  let result: unknown = list[0];
  for (const element of list.slice(1)) {
    // An error is not a Comparer: it is carried to the end.
    if (!(result instanceof CelFunctionError)) result = pair(which, result, element);
  }
  if (result instanceof CelFunctionError || !NUMERIC.has(typeOf(result))) throw new CelFunctionError(`no such overload: ${fn}`);
  return result;
}

/** cel-go's Compare (traits.Comparer) for numbers and the other ordered kinds. */
function compare(a: unknown, b: unknown): -1 | 0 | 1 | CelFunctionError {
  const unsigned = (v: unknown) => (isUint(v) ? v.valueOf() : undefined);
  const nan = new CelFunctionError('NaN values cannot be ordered');
  const noOverload = new CelFunctionError('no such overload');
  const order = <T extends number | bigint | string>(x: T, y: T): -1 | 0 | 1 => (x < y ? -1 : x > y ? 1 : 0);
  /** compareDoubleInt: out of the int64 range, or the integer as a double. */
  // compareDoubleInt/compareDoubleUint: the bounds are math.MinInt64/MaxInt64/MaxUint64 as float64.
  const doubleInt = (d: number, i: bigint): -1 | 0 | 1 => (d < -(2 ** 63) ? -1 : d > 2 ** 63 ? 1 : order(d, Number(i)));
  const doubleUint = (d: number, u: bigint): -1 | 0 | 1 => (d < 0 ? -1 : d > 2 ** 64 ? 1 : order(d, Number(u)));
  const au = unsigned(a);
  const bu = unsigned(b);
  if (typeof a === 'number') {
    if (Number.isNaN(a)) return nan;
    if (typeof b === 'number') return Number.isNaN(b) ? nan : order(a, b);
    if (typeof b === 'bigint') return doubleInt(a, b);
    if (bu !== undefined) return doubleUint(a, bu);
    return noOverload;
  }
  if (typeof a === 'bigint') {
    if (typeof b === 'bigint') return order(a, b);
    if (typeof b === 'number') return negate(doubleInt(b, a));
    if (bu !== undefined) return a < 0n ? -1 : order(a, bu);
    return noOverload;
  }
  if (au !== undefined) {
    if (bu !== undefined) return order(au, bu);
    if (typeof b === 'number') return negate(doubleUint(b, au));
    if (typeof b === 'bigint') return b < 0n ? 1 : order(au, b);
    return noOverload;
  }
  if (typeof a === 'string') return typeof b === 'string' ? (Buffer.compare(Buffer.from(a), Buffer.from(b)) as -1 | 0 | 1) : noOverload;
  if (typeof a === 'boolean') return typeof b === 'boolean' ? order(Number(a), Number(b)) : noOverload;
  return noOverload;
}

function negate(order: -1 | 0 | 1): -1 | 0 | 1 {
  return order === 0 ? 0 : order === 1 ? -1 : 1;
}
