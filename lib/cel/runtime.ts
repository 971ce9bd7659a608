import { HarnessError } from '../errors';

/** The ESM-only CEL library. Only its types are imported statically, so loading this file loads nothing. */
export type CelModule = typeof import('@marcbachmann/cel-js');

let loaded: CelModule | undefined;
let loading: Promise<CelModule> | undefined;

/**
 * Loads the CEL library. It is imported lazily because it is ESM-only and sizeable: importing the
 * harness must stay cheap for users who never write matchConditions. Safe to call repeatedly.
 */
export async function loadCel(): Promise<void> {
  loading ??= import('@marcbachmann/cel-js').catch((error: unknown) => {
    // A failed import must not poison every later attempt.
    loading = undefined;
    throw error;
  });
  loaded = await loading;
}

/** The loaded library; compile and evaluate are synchronous, so they need it loaded beforehand. */
export function celModule(): CelModule {
  if (!loaded) {
    throw new HarnessError('USAGE', 'matchConditions need the CEL library, which is not loaded yet', 'await loadCel() once before compiling or evaluating matchConditions');
  }
  return loaded;
}
