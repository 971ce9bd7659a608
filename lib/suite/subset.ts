/**
 * Where `actual` fails to contain `expected`: objects match on the keys `expected` names, arrays
 * element by element with equal length, anything else by equality. Returns the first mismatch as
 * `<path>: expected …, got …`, or undefined.
 */
export function subsetMismatch(actual: unknown, expected: unknown, path = ''): string | undefined {
  const here = path || '(root)';
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${here}: expected a list, got ${preview(actual)}`;
    if (actual.length !== expected.length) return `${here}: expected ${expected.length} items, got ${actual.length}`;
    for (let i = 0; i < expected.length; i++) {
      const mismatch = subsetMismatch(actual[i], expected[i], `${path}[${i}]`);
      if (mismatch) return mismatch;
    }
    return undefined;
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return `${here}: expected an object, got ${preview(actual)}`;
    for (const [key, value] of Object.entries(expected)) {
      const mismatch = subsetMismatch((actual as Record<string, unknown>)[key], value, path ? `${path}.${key}` : key);
      if (mismatch) return mismatch;
    }
    return undefined;
  }
  return Object.is(actual, expected) ? undefined : `${here}: expected ${preview(expected)}, got ${preview(actual)}`;
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}
