/** @jest-config-loader esbuild-register */
import type { Config } from 'jest';

const config: Config = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test', '<rootDir>/examples'],
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/consumers/'],
  // Type errors are caught by `tsc --noEmit` in `npm test`; swc keeps the Jest run itself fast.
  transform: { '^.+\\.tsx?$': ['@swc/jest', {}] },
  setupFilesAfterEnv: ['<rootDir>/matchers/jest.ts'],
};

export default config;
