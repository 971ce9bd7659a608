import { HarnessError } from './errors';

/**
 * A module imported on first need rather than on `import 'admission-harness'` (ESM-only, or heavy):
 * `load()` imports it once (a failure does not stick), `get()` hands it to synchronous code that
 * runs after a load, and says what to await when it runs before one.
 */
export function lazyModule<M>(importer: () => Promise<M>, notLoaded: { message: string; hint: string }): { load(): Promise<M>; get(): M } {
  let loaded: M | undefined;
  let loading: Promise<M> | undefined;
  return {
    async load() {
      loading ??= importer().catch((error: unknown) => {
        loading = undefined;
        throw error;
      });
      loaded = await loading;
      return loaded;
    },
    get() {
      if (loaded === undefined) throw new HarnessError('USAGE', notLoaded.message, notLoaded.hint);
      return loaded;
    },
  };
}
