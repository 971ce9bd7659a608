import type { ASTNode, Environment } from '@marcbachmann/cel-js';
import { CelFunctionError, celGoTypeName } from '../errors';
import { celModule } from '../runtime';
import { isDuration, isUint } from './cel-values';
import { celEquals, durationNanos } from './compare';
import { type Checker, type Evaluator, type MacroInput, runSync, type TypeDecl } from './macro';
import { installOptionalEntries } from './optional-entries';

/*
 * The optional-types parts cel-go has and cel-js lacks (cel/library.go `optionalLib`, which kube's
 * base environment enables unversioned, so at its latest version): `optional.ofNonZeroValue`, the
 * `optMap` and `optFlatMap` macros (version 1), and `==` between optionals (cel-go types/optional.go
 * `Equal`: two empty optionals are equal, two valued ones when their values are), and optional entries
 * in list and map literals (`[?a]`, `{?'k': v}`: optional-entries.ts). cel-js names the `optional`
 * namespace's type `OptionalNamespace`.
 */

interface OptionalValue {
  hasValue(): boolean;
  value(): unknown;
}

interface ContextLike {
  forkWithVariable(name: string, type: TypeDecl): ContextLike;
  reuse(parent: unknown): ContextLike;
  setIterValue(value: unknown, evaluator: Evaluator): ContextLike;
}

export function registerOptionals(env: Environment): void {
  // A parser change, for every environment at once: installed with the first that has optionals.
  installOptionalEntries();
  const { Optional } = celModule();
  const sync = { async: false };
  env
    .registerFunction(
      'OptionalNamespace.ofNonZeroValue(A): optional<A>',
      (_namespace: unknown, value: unknown) => (isZeroValue(value) ? Optional.none() : Optional.of(value)),
      sync,
    )
    .registerFunction('optional<dyn>.optMap(ast, ast): optional<dyn>', (input: MacroInput) => optionalMapMacro('optMap', input))
    .registerFunction('optional<dyn>.optFlatMap(ast, ast): optional<dyn>', (input: MacroInput) => optionalMapMacro('optFlatMap', input))
    .registerOperator('optional<A> == optional<A>', (a: OptionalValue, b: OptionalValue) => optionalsEqual(a, b));
}

function optionalsEqual(a: OptionalValue, b: OptionalValue): boolean {
  if (!a.hasValue() || !b.hasValue()) return a.hasValue() === b.hasValue();
  return celEquals(a.value(), b.value());
}

/**
 * library.go `optMap` / `optFlatMap`: `target.hasValue() ? optional.of(expr) : optional.none()` with the
 * value bound to the variable (optFlatMap's expression is itself an optional, returned as it is).
 */
function optionalMapMacro(name: 'optMap' | 'optFlatMap', { args, receiver }: MacroInput) {
  const variable = args[0] as ASTNode;
  const body = args[1] as ASTNode;
  if (variable.op !== 'id' || typeof variable.args !== 'string') {
    const { ParseError } = celModule();
    throw new ParseError(`${name}() variable name must be a simple identifier`, variable);
  }
  if (!receiver) throw new Error(`${name} needs a receiver`);
  const variableName = variable.args;
  let scope: ContextLike | undefined;
  let hadValue = false;
  return {
    async: false,
    /**
     * The expansion's steps cel-js does not run: `hasValue()` 1; with a value, `value()` 1, the fold's
     * empty list 10 and optMap's `optional.of` 1; without, `optional.none()` 1. (The target's second
     * evaluation, for `value()`, runs and is charged as any step.)
     */
    hiddenCost: () => (hadValue ? (name === 'optMap' ? 13 : 12) : 2),
    typeCheck(checker: Checker, _macro: unknown, ctx: unknown): TypeDecl {
      const target = checker.check(receiver, ctx) as TypeDecl & { valueType?: TypeDecl };
      if (target.kind !== 'optional' && target.kind !== 'dyn') {
        throw checker.createError('no_matching_overload', `found no matching overload for 'hasValue' applied to '${celGoTypeName(target.name)}.()'`, receiver);
      }
      const inner = target.kind === 'optional' && target.valueType ? target.valueType : checker.getType('dyn');
      scope = (ctx as ContextLike).forkWithVariable(variableName, inner);
      const result = checker.check(body, scope);
      if (name === 'optMap') return checker.getType(`optional<${result.name}>`);
      if (result.kind === 'optional' || result.kind === 'dyn') return result;
      throw checker.createError(
        'no_matching_overload',
        `found no matching overload for '_?_:_' applied to '(bool, ${celGoTypeName(result.name)}, optional_type(${celGoTypeName(result.name)}))'`,
        body,
      );
    },
    evaluate(evaluator: Evaluator, _macro: unknown, ctx: unknown): unknown {
      if (!scope) throw new Error(`${name} evaluated before it was checked`);
      const { Optional } = celModule();
      const target = runSync(evaluator, receiver, ctx);
      if (!(target instanceof Optional)) throw new CelFunctionError('no such overload');
      const optional = target as OptionalValue;
      hadValue = optional.hasValue();
      if (!hadValue) return Optional.none();
      // cel-go's expansion evaluates the target again for `value()`: so does this, for the cost it adds.
      const again = runSync(evaluator, receiver, ctx) as OptionalValue;
      const result = runSync(evaluator, body, scope.reuse(ctx).setIterValue(again.value(), evaluator));
      if (name === 'optMap') return Optional.of(result);
      if (!(result instanceof Optional)) throw new CelFunctionError('no such overload');
      return result;
    },
  };
}

// Go's zero time, 0001-01-01T00:00:00Z: what time.Time.IsZero (Timestamp.IsZeroValue) tests for.
const GO_ZERO_TIME = -62135596800000;

/** cel-go's traits.Zeroer `IsZeroValue` for each kind of value. */
function isZeroValue(value: unknown): boolean {
  if (value === null || value === false || value === '' || value === 0n || value === 0) return true;
  if (isUint(value)) return value.value === 0n;
  if (isDuration(value)) return durationNanos(value) === 0n;
  if (value instanceof Date) return value.getTime() === GO_ZERO_TIME;
  if (value instanceof Uint8Array || Array.isArray(value)) return value.length === 0;
  if (value instanceof Map) return value.size === 0;
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) return Object.keys(value).length === 0;
  return false;
}
