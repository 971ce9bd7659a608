/**
 * `import 'admission-harness/vitest'` (in a test or `setupFiles`): registers the harness matchers on
 * Vitest's `expect` and adds their types.
 */
import { expect } from 'vitest';
import { matchers, type HarnessAsymmetricMatchers, type HarnessMatchers } from './index';

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Assertion<T = any> extends HarnessMatchers<T> {}
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AsymmetricMatchersContaining extends HarnessAsymmetricMatchers {}
}

expect.extend(matchers);

export { matchers };
export type { HarnessMatchers };
