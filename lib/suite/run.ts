import { HarnessError } from '../errors';
import { createHarness, type Harness, type HarnessOptions } from '../harness';
import { assertNoPluginBothEnabledAndDisabled } from '../plugins';
import { reviewFromRequest } from '../review/from-request';
import type { Target } from '../target/targets';
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
  const plugins = {
    ...(disable.length > 0 ? { disable } : {}),
    ...(enable.length > 0 ? { enable } : {}),
    ...(options.admissionConfigFile ? { configuration: options.admissionConfigFile } : {}),
  };
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
    assertNoPluginBothEnabledAndDisabled(suite.plugins?.enable ?? [], options.disablePlugins ?? [], {
      enable: 'plugins.enable',
      disable: '--disable-admission-plugins',
    });
    assertNoPluginBothEnabledAndDisabled(options.enablePlugins ?? [], suite.plugins?.disable ?? [], {
      enable: '--enable-admission-plugins',
      disable: 'plugins.disable',
    });
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
export const UNEXPECTED_PASS = (reason: string) => `passed, though marked knownFailure (${reason}): remove the mark`;

/** Runs every case of a suite file, in order. */
export async function runSuiteFile(file: string, options: SuiteOptions = {}): Promise<SuiteReport> {
  const suite = parseSuite(file);
  const cases: CaseResult[] = [];
  for (const testCase of suite.cases) {
    const result = await runCase(suite, testCase, options);
    cases.push(
      result.knownFailure && result.passed ? { ...result, passed: false, verdict: 'failed', failures: [UNEXPECTED_PASS(result.knownFailure)] } : result,
    );
  }
  const count = (verdict: CaseResult['verdict']) => cases.filter((c) => c.verdict === verdict).length;
  return { file, cases, passed: count('passed'), failed: count('failed'), knownFailures: count('known-failure') };
}
