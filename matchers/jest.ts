/**
 * `import 'admission-harness/jest'` (or list it in `setupFilesAfterEnv`): registers the harness
 * matchers on Jest's global `expect` and adds their types.
 */
import { matchers, type HarnessMatchers } from './index';

declare global {
  namespace jest {
    // biome-ignore lint/complexity/noBannedTypes: the default must be jest's own, `{}`, for the declarations to merge
    interface Matchers<R, T = {}> extends HarnessMatchers<R> {}
  }
}

declare module 'expect' {
  interface Matchers<R extends void | Promise<void>, T = unknown> extends HarnessMatchers<R> {}
}

const globalExpect = (globalThis as { expect?: { extend(m: object): void } }).expect;
if (!globalExpect) {
  throw new Error(
    "admission-harness/jest found no global `expect`: import it from a Jest test or setupFilesAfterEnv file (for Vitest use 'admission-harness/vitest')",
  );
}
globalExpect.extend(matchers);

export { matchers };
export type { HarnessMatchers };
