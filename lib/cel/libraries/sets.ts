import type { ASTNode, Environment } from '@marcbachmann/cel-js';
import { CelFunctionError, celGoTypeName } from '../errors';
import { celEquals } from './equality';
import { runSync, type Checker, type Evaluator, type MacroInput, type TypeDecl } from './macro';
import { registerNamespace } from './namespace';

/*
 * cel-go ext.Sets (ext/sets.go), which kube enables from 1.29: set relations on lists, with CEL
 * equality (so `1`, `1.0` and `1u` are the same element).
 *
 * The functions are declared `(list(T), list(T))`: with static element types, both lists must agree
 * (`sets.contains([1], ['a'])` does not compile), while dyn lists — JSON data — are compared whatever
 * their elements. cel-js binds T again from the runtime elements of dyn lists and would then reject two
 * JSON lists of ints and doubles, so the functions are macros that check types as cel-go's checker does
 * and leave the values alone at runtime.
 */

type Relation = 'contains' | 'equivalent' | 'intersects';

const RELATIONS: Readonly<Record<Relation, (a: unknown[], b: unknown[]) => boolean>> = {
  contains,
  equivalent: (a, b) => contains(a, b) && contains(b, a),
  intersects,
};

export function registerSets(env: Environment): void {
  registerNamespace(env, 'sets');
  for (const relation of Object.keys(RELATIONS) as Relation[]) {
    env.registerFunction(`sets.${relation}(ast, ast): bool`, (input: MacroInput) => setsMacro(relation, input));
  }
}

/** Whether every element of `sublist` is in `list` (true for an empty sublist). */
function contains(list: unknown[], sublist: unknown[]): boolean {
  return sublist.every((element) => list.some((candidate) => celEquals(element, candidate)));
}

/** Whether some element of `a` is in `b`. */
function intersects(a: unknown[], b: unknown[]): boolean {
  return a.some((element) => b.some((candidate) => celEquals(element, candidate)));
}

interface TypeTree extends TypeDecl {
  readonly keyType?: TypeTree;
  readonly valueType?: TypeTree;
}

/** Whether two types can bind the same type parameter: equal, or dyn where they differ. */
function unifiable(a: TypeTree, b: TypeTree): boolean {
  if (a.kind === 'dyn' || b.kind === 'dyn' || a.kind === 'param' || b.kind === 'param') return true;
  if (a.kind !== b.kind) return false;
  if (a.kind === 'list') return unifiable(a.valueType as TypeTree, b.valueType as TypeTree);
  if (a.kind === 'map') return unifiable(a.keyType as TypeTree, b.keyType as TypeTree) && unifiable(a.valueType as TypeTree, b.valueType as TypeTree);
  return a.name === b.name;
}

function setsMacro(relation: Relation, { ast, args, receiver }: MacroInput) {
  const isSets = receiver?.op === 'id' && receiver.args === 'sets';
  const [first, second] = args as [ASTNode, ASTNode];
  return {
    async: false,
    typeCheck(checker: Checker, _macro: unknown, ctx: unknown): TypeDecl {
      if (!isSets) {
        const receiverType = receiver ? checker.check(receiver, ctx).name : '';
        throw checker.createError('no_matching_overload', `found no matching overload for '${receiverType}.${relation}(...)'`, ast);
      }
      const a = checker.check(first, ctx) as TypeTree;
      const b = checker.check(second, ctx) as TypeTree;
      const listOrDyn = (t: TypeTree) => t.kind === 'dyn' || t.kind === 'list';
      const element = (t: TypeTree) => (t.kind === 'list' ? (t.valueType as TypeTree) : t);
      if (!listOrDyn(a) || !listOrDyn(b) || !unifiable(element(a), element(b))) {
        const shown = [a, b].map((t) => celGoTypeName(t.name)).join(', ');
        throw checker.createError('invalid_argument', `found no matching overload for 'sets.${relation}' applied to '(${shown})'`, ast);
      }
      return checker.getType('bool');
    },
    evaluate(evaluator: Evaluator, _macro: unknown, ctx: unknown): boolean {
      const a = runSync(evaluator, first, ctx);
      const b = runSync(evaluator, second, ctx);
      const asList = (value: unknown) => (Array.isArray(value) || value instanceof Set ? [...(value as Iterable<unknown>)] : undefined);
      const left = asList(a);
      const right = asList(b);
      if (!left || !right) throw new CelFunctionError('no such overload');
      return RELATIONS[relation](left, right);
    },
  };
}
