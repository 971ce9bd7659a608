/**
 * `import 'admission-harness/vitest'` (in a test or `setupFiles`): registers the harness matchers on
 * Vitest's `expect` and adds their types.
 */
import { expect, type Assertion } from 'vitest';
import { matchers, type HarnessAsymmetricMatchers, type HarnessMatchers } from './index';

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Assertion<T = any> extends HarnessMatchers<T> {}
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AsymmetricMatchersContaining extends HarnessAsymmetricMatchers {}
}

expect.extend(matchers);

/**
 * Vitest's assertion with the harness matchers. Exported (and so imported by the declaration file) so
 * that Vitest's types load before the augmentation above: without it, importing this module before
 * 'vitest' left the matchers untyped.
 */
export type HarnessAssertion<T = unknown> = Assertion<T>;

export { matchers };
export type { HarnessMatchers };
