import { createHarness } from '../../lib/harness';
import { reviewFromRequest } from '../../lib/review/from-request';
import type { Target } from '../../lib/target/targets';
import { checkExpectation } from './check';
import type { CaseResult, Suite, SuiteCase, SuiteReport } from './model';
import { parseSuite } from './parse';

export interface SuiteOptions {
  /** The real webhook, for the webhooks the suite does not stub. */
  target?: Target;
}

/** Runs one case in a harness of its own, so stubs, metrics and namespaces never leak between cases. */
export async function runCase(suite: Suite, testCase: SuiteCase, options: SuiteOptions = {}): Promise<CaseResult> {
  const started = performance.now();
  const review = reviewFromRequest(testCase.request, `${suite.file} case ${JSON.stringify(testCase.name)}`);
  const harness = await createHarness({
    manifests: [...suite.manifests, ...suite.configurations],
    stubs: { ...suite.webhooks, ...testCase.webhooks },
    namespaces: suite.namespaces,
    ...(options.target ? { target: options.target } : {}),
    ...(suite.seed !== undefined ? { seed: suite.seed } : {}),
    ...(suite.timeScale !== undefined ? { timeScale: suite.timeScale } : {}),
  });
  try {
    const result = await harness.admit(review, testCase.requestTimeoutSeconds !== undefined ? { timeoutSeconds: testCase.requestTimeoutSeconds } : {});
    const failures = checkExpectation(testCase.expect, result, harness.metrics());
    const status = result.status;
    return {
      name: testCase.name,
      passed: failures.length === 0,
      failures: failures.length === 0 ? [] : [...failures, `trace:\n${String(result.trace)}`],
      result: {
        allowed: result.allowed,
        ...(status ? { code: status.code, reason: status.reason, message: status.message } : {}),
        called: result.trace.calls.map((s) => s.webhook),
        warnings: result.warnings,
        auditAnnotations: result.auditAnnotations,
      },
      ...(status ? { status } : {}),
      durationMs: performance.now() - started,
    };
  } finally {
    await harness.close();
  }
}

/** Runs every case of a suite file, in order. */
export async function runSuiteFile(file: string, options: SuiteOptions = {}): Promise<SuiteReport> {
  const suite = parseSuite(file);
  const cases: CaseResult[] = [];
  for (const testCase of suite.cases) cases.push(await runCase(suite, testCase, options));
  const passed = cases.filter((c) => c.passed).length;
  return { file, cases, passed, failed: cases.length - passed };
}

interface TestRegistrar {
  describe(name: string, body: () => void): void;
  it(name: string, body: () => Promise<void>): void;
}

/**
 * Registers a suite file as Jest (or Vitest) tests: a `describe` for the file, an `it` per case, each
 * failing with the case's mismatches and trace. Call it at the top level of a test file.
 */
export function runSuite(file: string, options: SuiteOptions = {}): void {
  const { describe, it } = globalThis as unknown as Partial<TestRegistrar>;
  if (!describe || !it) throw new Error('runSuite registers tests: call it at the top level of a Jest or Vitest test file (or use runSuiteFile)');
  const suite = parseSuite(file);
  describe(file, () => {
    for (const testCase of suite.cases) {
      it(testCase.name, async () => {
        const result = await runCase(suite, testCase, options);
        if (!result.passed) throw new Error(`${testCase.name}:\n  ${result.failures.join('\n  ')}`);
      });
    }
  });
}
