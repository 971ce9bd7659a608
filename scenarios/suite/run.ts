import { HarnessError } from '../../lib/errors';
import { createHarness, type Harness, type HarnessOptions } from '../../lib/harness';
import { assertNoPluginBothEnabledAndDisabled } from '../../lib/plugins';
import { reviewFromRequest } from '../../lib/review/from-request';
import type { Target } from '../../lib/target/targets';
import { checkExpectation } from './check';
import type { CaseResult, Suite, SuiteCase, SuiteReport } from './model';
import { parseSuite } from './parse';

export interface SuiteOptions {
  /** The real webhook, for the webhooks the suite does not stub. */
  target?: Target;
  /** Built-in plugins every suite's cluster runs without, besides its own `plugins.disable` (`test --disable-admission-plugins`). */
  disablePlugins?: string[];
  /** Off-by-default plugins every suite's cluster runs too, besides its own `plugins.enable` (`test --enable-admission-plugins`). */
  enablePlugins?: string[];
  /** Their AdmissionConfiguration (`test --admission-control-config-file`). */
  admissionConfigFile?: string;
}

/** The harness's options for the suite's cluster: its configurations, objects, plugins and server flags. */
function clusterOptions(suite: Suite, testCase: SuiteCase, options: SuiteOptions): HarnessOptions {
  const disable = [...new Set([...(suite.plugins?.disable ?? []), ...(options.disablePlugins ?? [])])];
  const enable = [...new Set([...(suite.plugins?.enable ?? []), ...(options.enablePlugins ?? [])])];
  const plugins = { ...(disable.length > 0 ? { disable } : {}), ...(enable.length > 0 ? { enable } : {}), ...(options.admissionConfigFile ? { configuration: options.admissionConfigFile } : {}) };
  return {
    manifests: [...suite.manifests, ...suite.configurations],
    stubs: { ...suite.webhooks, ...testCase.webhooks },
    namespaces: suite.namespaces,
    objects: suite.objects,
    ...(Object.keys(plugins).length > 0 ? { plugins } : {}),
    ...(suite.allowPrivileged !== undefined ? { allowPrivileged: suite.allowPrivileged } : {}),
    ...(suite.podSecurity ? { podSecurity: suite.podSecurity } : {}),
    ...(options.target ? { target: options.target } : {}),
    ...(suite.seed !== undefined ? { seed: suite.seed } : {}),
    ...(suite.timeScale !== undefined ? { timeScale: suite.timeScale } : {}),
  };
}

/** The cluster a suite describes, or an error naming the suite file (a namespace never defined, a plugin both on and off). */
async function harnessFor(suite: Suite, testCase: SuiteCase, options: SuiteOptions): Promise<Harness> {
  try {
    assertNoPluginBothEnabledAndDisabled(suite.plugins?.enable ?? [], options.disablePlugins ?? [], { enable: 'plugins.enable', disable: '--disable-admission-plugins' });
    assertNoPluginBothEnabledAndDisabled(options.enablePlugins ?? [], suite.plugins?.disable ?? [], { enable: '--enable-admission-plugins', disable: 'plugins.disable' });
    return await createHarness(clusterOptions(suite, testCase, options));
  } catch (error) {
    if (!(error instanceof HarnessError)) throw error;
    throw new HarnessError(error.code, `${suite.file}: ${error.message}`, undefined, { cause: error });
  }
}

/** Runs one case in a harness of its own, so stubs, metrics and namespaces never leak between cases. */
export async function runCase(suite: Suite, testCase: SuiteCase, options: SuiteOptions = {}): Promise<CaseResult> {
  const started = performance.now();
  const review = reviewFromRequest(testCase.request, `${suite.file} case ${JSON.stringify(testCase.name)}`);
  const harness = await harnessFor(suite, testCase, options);
  try {
    const result = await harness.admit(review, testCase.requestTimeoutSeconds !== undefined ? { timeoutSeconds: testCase.requestTimeoutSeconds } : {});
    const failures = checkExpectation(testCase.expect, result, harness.metrics());
    const status = result.status;
    return {
      name: testCase.name,
      passed: failures.length === 0,
      verdict: failures.length === 0 ? 'passed' : testCase.knownFailure ? 'known-failure' : 'failed',
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
      ...(testCase.knownFailure ? { knownFailure: testCase.knownFailure } : {}),
    };
  } finally {
    await harness.close();
  }
}

/** A case marked knownFailure that passes: the mark is stale, which fails the case. */
const UNEXPECTED_PASS = (reason: string) => `passed, though marked knownFailure (${reason}): remove the mark`;

/** Runs every case of a suite file, in order. */
export async function runSuiteFile(file: string, options: SuiteOptions = {}): Promise<SuiteReport> {
  const suite = parseSuite(file);
  const cases: CaseResult[] = [];
  for (const testCase of suite.cases) {
    const result = await runCase(suite, testCase, options);
    cases.push(result.knownFailure && result.passed ? { ...result, passed: false, verdict: 'failed', failures: [UNEXPECTED_PASS(result.knownFailure)] } : result);
  }
  const count = (verdict: CaseResult['verdict']) => cases.filter((c) => c.verdict === verdict).length;
  return { file, cases, passed: count('passed'), failed: count('failed'), knownFailures: count('known-failure') };
}

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
          const failed = await body().then(() => false, () => true);
          if (!failed) throw new Error(`${testCase.name}: ${UNEXPECTED_PASS(testCase.knownFailure as string)}`);
        });
      }
    }
  });
}
