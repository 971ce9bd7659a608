import { lazyModule } from '../lazy-module';

/** The ESM-only CEL library. Only its types are imported statically, so loading this file loads nothing. */
export type CelModule = typeof import('@marcbachmann/cel-js');
/** re2js, Go's regexp (RE2) for CEL's `matches` and the regex library (lib/cel/libraries/go-regexp.ts). */
export type Re2Module = typeof import('re2js', { with: { 'resolution-mode': 'import' }});

// Imported lazily because they are sizeable (cel-js is ESM-only, re2js takes ~20 ms to load): importing
// the harness must stay cheap for users who never write CEL.
const cel = lazyModule<CelModule>(() => import('@marcbachmann/cel-js'), {
  message: 'matchConditions need the CEL library, which is not loaded yet',
  hint: 'await loadCel() once before compiling or evaluating matchConditions',
});
const re2 = lazyModule<Re2Module>(() => import('re2js'), {
  message: "CEL's regular expressions need re2js, which is not loaded yet",
  hint: 'await loadCel() once before compiling or evaluating CEL expressions',
});

/** Loads the CEL library and the regular expression engine it calls. Safe to call repeatedly. */
export async function loadCel(): Promise<void> {
  await Promise.all([cel.load(), re2.load()]);
}

/** The loaded library; compile and evaluate are synchronous, so they need it loaded beforehand. */
export function celModule(): CelModule {
  return cel.get();
}

/** The loaded re2js (loaded by `loadCel`). */
export function re2Module(): Re2Module {
  return re2.get();
}
