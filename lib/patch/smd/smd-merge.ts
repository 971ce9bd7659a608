/**
 * Server-side apply's merge of an apply configuration (rhs) into an object (lhs), as
 * structured-merge-diff's `TypedValue.Merge` does it with its keep-the-rhs rule (typed/merge.go):
 * - a scalar, an atomic list and an atomic map or struct take the rhs whole when it is present;
 * - granular maps and structs merge key by key, keys only on one side are kept;
 * - associative lists merge item by item, items matched by their keys (list-maps) or values (sets):
 *   matched items merge recursively, lhs-only items stay, rhs-only items are added; the order is
 *   smd's (`visitListItems`): rhs order for the items the rhs has, lhs items kept near their place;
 * - an explicit null in the rhs replaces a scalar or an atomic value, and leaves a granular map or list
 *   that has content untouched; lists and maps empty on both sides are kept as the rhs has them.
 */
import { deduceAtom, handleAtom, sameAtom } from './smd-atoms';
import { prefixed, smdError, type SmdError } from './smd-errors';
import { fieldElement, listItemElement, type PathElement } from './smd-path';
import type { ListAtom, MapAtom, TypeRef } from './schema';
import { validateScalar } from './smd-validate';
import { isGoList, isGoMap, type GoMap, type GoValue } from './smd-values';

export interface MergeResult {
  /** The merged value; undefined when it has none (smd leaves the field out). */
  readonly out: GoValue | undefined;
  readonly errors: SmdError[];
}

/** Merges `rhs` into `lhs`, both of type `type` (either may be absent, not both). */
export function mergeValues(lhs: GoValue | undefined, rhs: GoValue | undefined, type: TypeRef): MergeResult {
  if (lhs === undefined && rhs === undefined) return { out: undefined, errors: [smdError('at least one of lhs and rhs must be provided')] };
  const atom = type();
  const lhsAtom = deduceAtom(atom, lhs);
  const rhsAtom = deduceAtom(atom, rhs);
  if (sameAtom(lhsAtom, rhsAtom)) return mergeAtom(rhsAtom, lhs, rhs);
  // The sides are different shapes: the lhs one is walked for its errors only, the rhs one makes the output.
  const lhsSide = mergeAtom(lhsAtom, lhs, rhs);
  const rhsSide = mergeAtom(rhsAtom, lhs, rhs);
  return { out: rhsSide.out, errors: [...lhsSide.errors, ...rhsSide.errors] };
}

function mergeAtom(atom: ReturnType<TypeRef>, lhs: GoValue | undefined, rhs: GoValue | undefined): MergeResult {
  return handleAtom<MergeResult>(atom, {
    scalar: (scalar) => {
      const errors = [...validateScalar(scalar, lhs, 'lhs: '), ...validateScalar(scalar, rhs, 'rhs: ')];
      return errors.length > 0 ? { out: undefined, errors } : leaf(lhs, rhs);
    },
    list: (list) => mergeList(list, lhs, rhs),
    map: (map) => mergeMap(map, lhs, rhs),
  });
}

/** `ruleKeepRHS`. */
function leaf(lhs: GoValue | undefined, rhs: GoValue | undefined): MergeResult {
  return { out: rhs !== undefined ? rhs : lhs, errors: [] };
}

function mergeList(list: ListAtom, lhs: GoValue | undefined, rhs: GoValue | undefined): MergeResult {
  // derefList: null, or a value that is no list, counts as no list (its error is not reported here).
  const left = isGoList(lhs) ? lhs : undefined;
  const right = isGoList(rhs) ? rhs : undefined;
  const bothEmpty = (left?.length ?? 0) === 0 && (right?.length ?? 0) === 0;
  if (list.elementRelationship === 'atomic' || bothEmpty) return leaf(lhs, rhs);
  if (!left && !right) return { out: undefined, errors: [] };
  return mergeListItems(list, left ?? [], right ?? []);
}

interface IndexedItems {
  order: PathElement[];
  items: Map<PathElement, GoValue>;
  errors: SmdError[];
}

function indexItems(list: ListAtom, values: readonly GoValue[]): IndexedItems {
  const indexed: IndexedItems = { order: [], items: new Map(), errors: [] };
  values.forEach((value, i) => {
    const identity = listItemElement(list, i, value);
    if (!identity.ok) {
      indexed.errors.push(smdError(`element ${i}: ${identity.error}`));
      return;
    }
    if (indexed.items.has(identity.element)) {
      indexed.errors.push(smdError(`duplicate entries for key ${identity.element}`));
      return;
    }
    indexed.items.set(identity.element, value);
    indexed.order.push(identity.element);
  });
  return indexed;
}

/** typed/merge.go `visitListItems`. */
function mergeListItems(list: ListAtom, lhs: readonly GoValue[], rhs: readonly GoValue[]): MergeResult {
  const right = indexItems(list, rhs);
  const left = indexItems(list, lhs);
  const errors = [...right.errors, ...left.errors];
  const out: GoValue[] = [];
  // smd merges each item with `mergeOut, errs := w.mergeListItem(…)`, which shadows the list's error
  // list: errors found inside items are dropped. Validation has already reported them.
  const emit = (element: PathElement) => {
    const merged = mergeValues(left.items.get(element), right.items.get(element), list.elementType);
    if (merged.out !== undefined) out.push(merged.out);
  };
  const shared = right.order.filter((element) => left.items.has(element));
  let nextShared = shared.shift();
  let l = 0;
  let r = 0;
  while (l < left.order.length || r < right.order.length) {
    const progress = l + r;
    const leftElement = left.order[l];
    const rightElement = right.order[r];
    if (leftElement !== undefined && rightElement !== undefined) {
      if (leftElement === rightElement) {
        emit(leftElement);
        l++;
        r++;
        nextShared = shared.shift();
        continue;
      }
      // A shared item whose turn in the rhs order has not come yet: it is emitted when it does.
      if (right.items.has(leftElement) && nextShared !== undefined && nextShared !== leftElement) {
        l++;
        continue;
      }
    }
    if (leftElement !== undefined && !right.items.has(leftElement)) {
      emit(leftElement);
      l++;
      continue;
    }
    if (rightElement !== undefined) {
      emit(rightElement);
      r++;
      if (nextShared === rightElement) nextShared = shared.shift();
    }
    if (l + r === progress) throw new Error('structured merge: list merge made no progress');
  }
  return { out: out.length > 0 ? out : undefined, errors };
}

function mergeMap(map: MapAtom, lhs: GoValue | undefined, rhs: GoValue | undefined): MergeResult {
  const left = isGoMap(lhs) ? lhs : undefined;
  const right = isGoMap(rhs) ? rhs : undefined;
  const bothEmpty = Object.keys(left ?? {}).length === 0 && Object.keys(right ?? {}).length === 0;
  if (map.elementRelationship === 'atomic' || bothEmpty) return leaf(lhs, rhs);
  if (!left && !right) return { out: undefined, errors: [] };
  const out: GoMap = {};
  const errors: SmdError[] = [];
  const keys = [...Object.keys(left ?? {}), ...Object.keys(right ?? {}).filter((key) => !left || !Object.hasOwn(left, key))];
  for (const key of keys) {
    const type = map.fields.get(key)?.type ?? map.elementType;
    if (!type) {
      errors.push({ path: fieldElement(key), message: 'field not declared in schema' });
      continue;
    }
    const merged = mergeValues(left && Object.hasOwn(left, key) ? left[key] : undefined, right && Object.hasOwn(right, key) ? right[key] : undefined, type);
    errors.push(...prefixed(merged.errors, fieldElement(key)));
    if (merged.out !== undefined) out[key] = merged.out;
  }
  return { out: Object.keys(out).length > 0 ? out : undefined, errors };
}
