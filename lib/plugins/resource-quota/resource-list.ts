/**
 * `corev1.ResourceList` (a map of resource names to Quantities) and the helpers quota admission and
 * LimitRanger apply to it.
 *
 * Upstream: `staging/src/k8s.io/apiserver/pkg/quota/v1/resources.go` (Equals, LessThanOrEqual, Add,
 * SubtractWithNonNegativeResult, Mask, ResourceNames, IsNegative, RemoveZeros), and the prettyPrint
 * helpers of `staging/src/k8s.io/apiserver/pkg/admission/plugin/resourcequota/controller.go`.
 */
import { isRecord } from '../../kube/json';
import { canonicalQuantity, compareQuantities, quantityFromJson, type Quantity } from '../../kube/quantity';
import { PARSED_ZERO, addQuantities, subtractQuantities } from './quantity-arithmetic';

/** A ResourceList. A Map so that names like `__proto__` are plain keys. */
export type ResourceList = Map<string, Quantity>;

/**
 * A ResourceList from its JSON form, each value decoded as Quantity.UnmarshalJSON does. A value that
 * does not decode is left out: kube-apiserver would have refused the object before admission.
 */
export function resourceListFrom(value: unknown): ResourceList {
  const list: ResourceList = new Map();
  if (!isRecord(value)) return list;
  for (const [name, raw] of Object.entries(value)) {
    const quantity = quantityFromJson(raw);
    if (quantity !== undefined) list.set(name, quantity);
  }
  return list;
}

/** The JSON form kube-apiserver writes: Quantity.String() of each value, keys sorted (a Go map). */
export function resourceListToJson(list: ResourceList): Record<string, string> {
  return Object.fromEntries([...list.keys()].sort(byString).map((name) => [name, canonicalQuantity(list.get(name) as Quantity)]));
}

function byString(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `quota.ResourceNames`. */
export function resourceNames(list: ResourceList): string[] {
  return [...list.keys()];
}

/** `quota.Equals`: the same names, each with an equal value. */
export function resourceListsEqual(a: ResourceList, b: ResourceList): boolean {
  if (a.size !== b.size) return false;
  for (const [name, value] of a) {
    const other = b.get(name);
    if (other === undefined || compareQuantities(value, other) !== 0) return false;
  }
  return true;
}

/** `quota.Add`: the union, values summed where both have the name. */
export function addLists(a: ResourceList, b: ResourceList): ResourceList {
  const result: ResourceList = new Map();
  for (const [name, value] of a) {
    const other = b.get(name);
    result.set(name, other === undefined ? value : addQuantities(value, other));
  }
  for (const [name, value] of b) if (!result.has(name)) result.set(name, value);
  return result;
}

/** `quota.SubtractWithNonNegativeResult`: a − b per name of a, floored at zero; names only in b are zero. */
export function subtractWithNonNegativeResult(a: ResourceList, b: ResourceList): ResourceList {
  const result: ResourceList = new Map();
  for (const [name, value] of a) {
    const other = b.get(name);
    const difference = other === undefined ? value : subtractQuantities(value, other);
    result.set(name, compareQuantities(difference, PARSED_ZERO) > 0 ? difference : PARSED_ZERO);
  }
  for (const name of b.keys()) if (!result.has(name)) result.set(name, PARSED_ZERO);
  return result;
}

/** `quota.Mask`: only the named resources. */
export function mask(list: ResourceList, names: readonly string[]): ResourceList {
  const keep = new Set(names);
  return new Map([...list].filter(([name]) => keep.has(name)));
}

/**
 * `quota.LessThanOrEqual(a, b)`: whether every value of a is at most b's for the same name, and the
 * names where it is not. Names missing from either side are not compared.
 */
export function lessThanOrEqual(a: ResourceList, b: ResourceList): { allowed: boolean; exceeded: string[] } {
  const exceeded: string[] = [];
  for (const [name, limit] of b) {
    const value = a.get(name);
    if (value !== undefined && compareQuantities(value, limit) > 0) exceeded.push(name);
  }
  return { allowed: exceeded.length === 0, exceeded };
}

/** `quota.RemoveZeros`. */
export function removeZeros(list: ResourceList): ResourceList {
  return new Map([...list].filter(([, value]) => value.mantissa !== 0n));
}

/** `quota.IsNegative`: the names whose value is below zero. */
export function negativeResources(list: ResourceList): string[] {
  return [...list].filter(([, value]) => value.mantissa < 0n).map(([name]) => name);
}

/** controller.go `prettyPrint`: `name=value` sorted by name, comma-joined, values as Quantity.String(). */
export function prettyPrint(list: ResourceList): string {
  return resourceNames(list)
    .sort(byString)
    .map((name) => `${name}=${canonicalQuantity(list.get(name) as Quantity)}`)
    .join(',');
}

/** controller.go `prettyPrintResourceNames`: sorted, comma-joined. */
export function prettyPrintResourceNames(names: readonly string[]): string {
  return [...names].sort(byString).join(',');
}

/** The `addResourceList` of component-helpers and LimitRanger: adds `other` into `list` in place. */
export function addInto(list: ResourceList, other: ResourceList): void {
  for (const [name, value] of other) {
    const current = list.get(name);
    list.set(name, current === undefined ? value : addQuantities(current, value));
  }
}

/** `maxResourceList`: raises each value of `list` to `other`'s where that is greater, in place. */
export function maxInto(list: ResourceList, other: ResourceList): void {
  for (const [name, value] of other) {
    const current = list.get(name);
    if (current === undefined || compareQuantities(value, current) > 0) list.set(name, value);
  }
}

/** component-helpers' `max(a, b)`: per name the greater value, b's on a tie. */
export function maxOfLists(a: ResourceList, b: ResourceList): ResourceList {
  const result: ResourceList = new Map();
  for (const [name, value] of a) {
    const other = b.get(name);
    result.set(name, other !== undefined && compareQuantities(value, other) <= 0 ? other : value);
  }
  for (const [name, value] of b) if (!result.has(name)) result.set(name, value);
  return result;
}
