import type { Environment } from '@marcbachmann/cel-js';
import { celModule } from '../runtime';
import { durationNanos } from './compare';
import { isDuration, isUint } from './cel-values';

/*
 * The optional-types functions cel-go has and cel-js lacks (cel/library.go `optionalLib`):
 * `optional.ofNonZeroValue`. cel-js names the `optional` namespace's type `OptionalNamespace`.
 */

export function registerOptionals(env: Environment): void {
  const { Optional } = celModule();
  env.registerFunction(
    'OptionalNamespace.ofNonZeroValue(A): optional<A>',
    (_namespace: unknown, value: unknown) => (isZeroValue(value) ? Optional.none() : Optional.of(value)),
    { async: false },
  );
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
