/** @jest-config-loader esbuild-register */
import type { Config } from 'jest';

const config: Config = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test', '<rootDir>/examples'],
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/consumers/'],
  // Type errors are caught by `tsc --noEmit` in `npm test`; swc keeps the Jest run itself fast. The
  // ESM-only dependencies (bundled into dist for users) are transformed here for the sources' tests.
  transform: { '^.+\\.(m?j|t)sx?$': ['@swc/jest', {}] },
  transformIgnorePatterns: [
    '/node_modules/(?!(@faker-js/faker|@marcbachmann/cel-js|rettime|@open-draft/deferred-promise|until-async|@kubernetes/client-node|@kubernetes/client-node-2|openid-client|oauth4webapi|jose|socks-proxy-agent|agent-base)/)',
  ],
  setupFilesAfterEnv: ['<rootDir>/matchers/jest.ts'],
  // One generous limit for every test and hook, instead of numbers per test: on a loaded runner (two
  // cores, other jobs, `nice`) starting TLS servers, child processes or a browser takes many times its
  // usual time. No test races this limit: deadlines are asserted with a clock the test controls or a
  // webhook that never answers, so the limit only catches a hang.
  testTimeout: 180_000,
  // Makes the generated schema table when it is missing (a fresh checkout running Jest directly).
  globalSetup: '<rootDir>/test/global-setup.cjs',
  // Examples import the package by name, as its users do.
  moduleNameMapper: {
    // Dynamic imports name the .js the build emits; the sources are .ts.
    '^(\\.{1,2}/.*)\\.js$': '$1',
    '^admission-harness$': '<rootDir>/lib/index.ts',
    '^admission-harness/jest$': '<rootDir>/matchers/jest.ts',
    '^admission-harness/scenarios$': '<rootDir>/scenarios/index.ts',
  },
};

export default config;
