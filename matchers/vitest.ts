/**
 * `import 'admission-harness/vitest'` (in a test or `setupFiles`): registers the harness matchers on
 * Vitest's `expect` and adds their types.
 */
import { expect, type Assertion } from 'vitest';
import { matchers, type HarnessAsymmetricMatchers, type HarnessMatchers } from './index';

declare module 'vitest' {
  // biome-ignore lint/suspicious/noExplicitAny: the default must be vitest's own, `any`, for the declarations to merge
  interface Assertion<T = any> extends HarnessMatchers<T> {}
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
