import { parseSuite } from '../lib/suite/parse';
import { runCase, UNEXPECTED_PASS, type SuiteOptions } from '../lib/suite/run';

type TestBody = () => Promise<void>;

interface TestRegistrar {
  describe(name: string, body: () => void): void;
  it: ((name: string, body: TestBody) => void) & {
    /** Jest: a test that must fail. */
    failing?: (name: string, body: TestBody) => void;
    /** Vitest: the same. */
    fails?: (name: string, body: TestBody) => void;
  };
}

/**
 * Registers a suite file as Jest (or Vitest) tests: a `describe` for the file, an `it` per case, each
 * failing with the case's mismatches and trace; a case marked `knownFailure` is registered as a test that
 * must fail (`it.failing`, Vitest's `it.fails`), visible as such in the runner's report. Call it at the top
 * level of a test file.
 */
export function runSuite(file: string, options: SuiteOptions = {}): void {
  const { describe, it } = globalThis as unknown as Partial<TestRegistrar>;
  if (!describe || !it) throw new Error('runSuite registers tests: call it at the top level of a Jest or Vitest test file (or use runSuiteFile)');
  const suite = parseSuite(file);
  describe(file, () => {
    for (const testCase of suite.cases) {
      const body = async (): Promise<void> => {
        const result = await runCase(suite, testCase, options);
        if (!result.passed) throw new Error(`${testCase.name}:\n  ${result.failures.join('\n  ')}`);
      };
      if (!testCase.knownFailure) {
        it(testCase.name, body);
        continue;
      }
      const name = `${testCase.name} [known failure: ${testCase.knownFailure}]`;
      const mustFail = it.failing ?? it.fails;
      if (mustFail) mustFail(name, body);
      else {
        it(name, async () => {
          const failed = await body().then(
            () => false,
            () => true,
          );
          if (!failed) throw new Error(`${testCase.name}: ${UNEXPECTED_PASS(testCase.knownFailure as string)}`);
        });
      }
    }
  });
}
