import { loadManifests, type ManifestInput } from '../lib/config/load';
import { createHarness, type Harness, type HarnessOptions } from '../lib/harness';
import { defaultSeed } from '../lib/random';
import { planBattery, runScenario } from '../lib/battery/battery';
import type { CheckId } from '../lib/battery/checks';

export interface ConformanceOptions extends Omit<HarnessOptions, 'manifests' | 'seed'> {
  manifests: ManifestInput[];
  seed?: number;
  /** Only these checks. */
  only?: CheckId[];
}

interface TestRegistrar {
  describe(name: string, body: () => void): void;
  it(name: string, body: () => Promise<void>, timeout?: number): void;
  beforeAll(body: () => Promise<void>): void;
  afterAll(body: () => Promise<void>): void;
}

/**
 * Registers the conformance battery as Jest (or Vitest) tests, the way `admission-harness check` runs
 * it: a `describe` per webhook, an `it` per scenario, failing with every failed check, the request and
 * the seed. Call it at the top level of a test file; `jest --shard` splits the scenarios across machines.
 */
export function conformance(options: ConformanceOptions): void {
  const { describe, it, beforeAll, afterAll } = globalThis as unknown as Partial<TestRegistrar>;
  if (!describe || !it || !beforeAll || !afterAll) throw new Error('conformance() registers tests: call it at the top level of a Jest or Vitest test file');
  const { only, seed: givenSeed, ...harnessOptions } = options;
  const seed = givenSeed ?? defaultSeed();
  // The scenarios are planned now, from the manifests, so each is a test of its own.
  const { plan } = planBattery(loadManifests(options.manifests), seed, options.timeScale ?? 1);
  let harness: Harness | undefined;
  describe(`admission webhook conformance (seed ${seed})`, () => {
    beforeAll(async () => {
      harness = await createHarness({ ...harnessOptions, seed });
    });
    afterAll(async () => {
      await harness?.close();
    });
    for (const webhook of [...new Set(plan.map((p) => p.webhook))]) {
      describe(webhook, () => {
        for (const planned of plan.filter((p) => p.webhook === webhook)) {
          it(planned.scenario.title, async () => {
            if (!harness) throw new Error('the harness did not start; see the beforeAll error');
            const result = await runScenario(harness, planned, only);
            const failed = result.checks.filter((c) => c.status === 'fail');
            if (failed.length > 0) {
              const lines = failed.map((c) => `${c.id}: ${c.detail ?? ''}`);
              throw new Error(`${webhook} · ${planned.scenario.title} failed:\n  ${lines.join('\n  ')}\n  replay with ADMISSION_HARNESS_SEED=${seed}`);
            }
          });
        }
      });
    }
  });
}
