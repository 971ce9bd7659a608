/**
 * Sizes of CEL values as cel-go's cost tracker reads them (interpreter/runtimecost.go `actualSize`:
 * a string's code points, a byte sequence's bytes, a list's or map's entries, 1 for anything else)
 * and k8s.io/apiserver pkg/cel/library/cost.go `traversalCost` (a walk of the whole value).
 */

const STRING_TRAVERSAL_FACTOR = 0.1;

export function actualSize(value: unknown): number {
  if (typeof value === 'string') return codePoints(value);
  if (value instanceof Uint8Array) return value.length;
  if (Array.isArray(value)) return value.length;
  if (value instanceof Map || value instanceof Set) return value.size;
  if (isPlainMap(value)) return Object.keys(value).length;
  return 1;
}

/** A CEL map as this project and cel-js build them: a plain object (cel-js's literals have no prototype). */
function isPlainMap(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Code points, as Go's utf8.RuneCountInString: a surrogate pair is one. */
function codePoints(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--;
        i++;
      }
    }
  }
  return count;
}

/** library/cost.go `traversalCost`: strings and bytes by their UTF-8 length (truncated, not rounded up), containers summed. */
export function traversalCost(value: unknown): number {
  if (typeof value === 'string') return Math.floor(Buffer.byteLength(value) * STRING_TRAVERSAL_FACTOR);
  if (value instanceof Uint8Array) return Math.floor(value.length * STRING_TRAVERSAL_FACTOR);
  if (Array.isArray(value)) return value.reduce<number>((sum, item) => sum + traversalCost(item), 0);
  if (value instanceof Map) {
    let sum = 0;
    for (const [key, item] of value) sum += traversalCost(key) + traversalCost(item);
    return sum;
  }
  if (isPlainMap(value)) {
    let sum = 0;
    for (const [key, item] of Object.entries(value)) sum += traversalCost(key) + traversalCost(item);
    return sum;
  }
  return 1;
}
