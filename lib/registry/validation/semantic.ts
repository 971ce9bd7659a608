/**
 * apimachinery's Semantic.DeepEqual, as far as v1 JSON lets it be told: a missing, null, empty list
 * and empty map are alike (a nil and an empty slice or map are equal), quantities in resource lists
 * compare by value, everything else by JSON equality. Without the Go types it cannot tell a nil
 * pointer from a pointer to a zero value; the objects compared here are both decoded and defaulted,
 * where that difference does not arise.
 */
import { isObject, type Json } from '../../kube/json';
import { compareQuantities, quantityFromJson } from '../../kube/quantity';

/** Members of these maps are resource.Quantity values. */
const QUANTITY_MAPS = new Set(['limits', 'requests', 'overhead', 'capacity', 'allocatable', 'hard', 'used']);
const QUANTITY_FIELDS = new Set(['sizeLimit', 'divisor', 'storage']);

function isEmpty(value: Json | undefined): boolean {
  if (value === undefined || value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  return isObject(value) && Object.keys(value).length === 0;
}

function sameQuantity(a: Json | undefined, b: Json | undefined): boolean {
  const x = quantityFromJson(a);
  const y = quantityFromJson(b);
  return x !== undefined && y !== undefined ? compareQuantities(x, y) === 0 : a === b;
}

function equal(a: Json | undefined, b: Json | undefined, quantities: boolean): boolean {
  if (isEmpty(a) || isEmpty(b)) return isEmpty(a) && isEmpty(b);
  if (quantities) return sameQuantity(a, b);
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => equal(item, b[i], false));
  if (isObject(a)) {
    if (!isObject(b)) return false;
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const key of keys) {
      if (QUANTITY_MAPS.has(key) && isObject(a[key] ?? null) && isObject(b[key] ?? null)) {
        const x = a[key] as Record<string, Json>;
        const y = b[key] as Record<string, Json>;
        const names = new Set([...Object.keys(x), ...Object.keys(y)]);
        for (const name of names) if (!(name in x && name in y && sameQuantity(x[name], y[name]))) return false;
        continue;
      }
      if (!equal(a[key], b[key], QUANTITY_FIELDS.has(key))) return false;
    }
    return true;
  }
  return a === b;
}

/** Semantic.DeepEqual over two JSON values. */
export function semanticEqual(a: Json | undefined, b: Json | undefined): boolean {
  return equal(a, b, false);
}
