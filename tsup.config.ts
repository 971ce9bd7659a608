import { defineConfig } from 'tsup';

// Dual CJS + ESM so Jest (CJS and ESM modes) and Vitest consumers load the package with no transform
// configuration. ESM-only dependencies are listed in `noExternal` so they are bundled into the CJS
// output instead of leaking a `require()` of an ES module to Jest, which cannot load one before Node 24.9.
// ESM-only packages (and msw, whose CJS build requires three of them) are bundled into the output.
const ESM_ONLY = ['@faker-js/faker', '@marcbachmann/cel-js', 'msw', /^msw\//, 'rettime', '@open-draft/deferred-promise', 'until-async'];
// ESM output gets a `require`, so the synchronous lazy loads (lib/yaml.ts, the faker locale) work in
// both builds; esbuild's own `__require` shim uses it when it exists.
// Faker (~480 KB) is a file of its own that the bundles require on the first generated object.
const FAKER_EN = { __FAKER_EN_FILE__: JSON.stringify('./faker-en.cjs') };
const ESM_REQUIRE = ({ format }: { format: string }) =>
  format === 'esm' ? { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" } : {};

// Rollup, which converts the split chunks to CommonJS when `treeshake` is on, keeps `import()` in the
// CJS output; Jest's CommonJS runtime refuses `import()` without --experimental-vm-modules on Node 20
// and, on later Nodes, loads the target outside its module registry (a second copy of the harness).
// So the CJS build loads its lazy chunks and selfsigned with `require`, as CommonJS code does. The
// rewrite runs before rollup, on esbuild's ESM output, and only on literal specifiers: a relative
// chunk or a CommonJS package. Checked by the Jest CJS consumer (test/consumers/jest-cjs).
const REQUIRABLE = /\bimport\((["'])(\.\/[\w.-]+\.cjs|selfsigned)\1\)/g;
const requireInCjs = {
  name: 'require-in-cjs',
  renderChunk(this: { format: string }, code: string) {
    if (this.format !== 'cjs') return undefined;
    return { code: code.replace(REQUIRABLE, 'Promise.resolve().then(() => require($1$2$1))') };
  },
};

export default defineConfig([
  {
    entry: {
      index: 'lib/index.ts',
      jest: 'matchers/jest.ts',
      scenarios: 'scenarios/index.ts',
      // The Jest / Vitest reporter: Jest requires the CJS build, Vitest imports the ESM one.
      reporter: 'lib/reporter/index.ts',
    },
    format: ['cjs', 'esm'],
    dts: true,
    target: 'node20',
    platform: 'node',
    splitting: true,
    treeshake: true,
    sourcemap: false,
    // ESM-only: bundled so CJS consumers never require() them. cel-js is imported on first use, in a
    // chunk of its own; faker is required from dist/faker-en.cjs when the first object is generated.
    noExternal: ESM_ONLY,
    define: FAKER_EN,
    banner: ESM_REQUIRE,
    outExtension: ({ format }) => ({ js: format === 'cjs' ? '.cjs' : '.mjs' }),
    plugins: [requireInCjs],
  },
  {
    // Vitest runs ESM only; this entry imports `vitest`, so it must never be required from CJS.
    entry: { vitest: 'matchers/vitest.ts' },
    format: ['esm'],
    dts: true,
    target: 'node20',
    platform: 'node',
    external: ['vitest'],
    banner: ESM_REQUIRE,
    outExtension: () => ({ js: '.mjs' }),
  },
  {
    // The English Faker, CommonJS so both builds require it synchronously (the ESM one through its banner's require).
    entry: { 'faker-en': 'lib/review/objects/faker-en.ts' },
    format: ['cjs'],
    noExternal: ['@faker-js/faker'],
    target: 'node20',
    platform: 'node',
    outExtension: () => ({ js: '.cjs' }),
  },
  {
    entry: { cli: 'lib/cli/main.ts' },
    format: ['cjs'],
    noExternal: ESM_ONLY,
    define: FAKER_EN,
    target: 'node20',
    platform: 'node',
    banner: { js: '#!/usr/bin/env node' },
    outExtension: () => ({ js: '.cjs' }),
  },
]);
