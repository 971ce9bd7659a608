import { lazyModule } from '../lazy-module';

/** The ESM-only CEL library. Only its types are imported statically, so loading this file loads nothing. */
export type CelModule = typeof import('@marcbachmann/cel-js');

// Imported lazily because it is ESM-only and sizeable: importing the harness must stay cheap for users
// who never write matchConditions.
const cel = lazyModule<CelModule>(() => import('@marcbachmann/cel-js'), {
  message: 'matchConditions need the CEL library, which is not loaded yet',
  hint: 'await loadCel() once before compiling or evaluating matchConditions',
});

/** Loads the CEL library. Safe to call repeatedly. */
export async function loadCel(): Promise<void> {
  await cel.load();
}

/** The loaded library; compile and evaluate are synchronous, so they need it loaded beforehand. */
export function celModule(): CelModule {
  return cel.get();
}
