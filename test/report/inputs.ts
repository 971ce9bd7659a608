// Real inputs for the HTML reports, made by running the harness rather than written by hand: the
// battery against the repository's example webhook and against a broken one from the zoo, the
// battery's scenarios with hostile text in the request, and fixtures recorded and replayed.
import path from 'node:path';
import { createHarness, objects, review, type Harness } from '../../lib';
import { writeFixtures } from '../../lib/audit';
import type { CoverageSummary } from '../../lib/admission-coverage';
import { loadFixtures, replayFixtures, type ReplayReport } from '../../lib/replay';
import { planBattery, runBattery, runScenario, type BatteryReport } from '../../lib/battery/battery';
import { app } from '../../examples/pod-defaults/src/app';
import sidecarAppend from '../webhooks/zoo/sidecar-append';
import { changedWebhook, halveFirstCpuLimit, MANIFESTS, MUTATE, recorded, tempDir, VALIDATE } from '../replay/helpers';

export const SEED = 7;
const root = path.join(__dirname, '../..');
const POLICIES = path.join(root, 'test/cli/fixtures/policies.yaml');
const MUTATING_POLICY = path.join(root, 'test/cli/fixtures/mutating-policy.yaml');
const FRAGILE_POLICIES = path.join(root, 'test/cli/fixtures/policies-fragile.yaml');
const ZOO_SIDECAR = path.join(root, 'test/webhooks/zoo/sidecar-append.yaml');

/** Markup in places a user controls: a label value and a container name, which the report must print as text. */
export const HOSTILE_LABEL = '<script>alert("label")</script>';
export const HOSTILE_CONTAINER = '<img src=x onerror=alert(1)>';

export interface BatteryRun {
  report: BatteryReport;
  coverage: CoverageSummary;
}

async function batteryOf(harness: Harness): Promise<BatteryRun> {
  const report = await runBattery(harness);
  return { report, coverage: harness.coverage().summary() };
}

/** Harnesses made by these helpers, closed by closeAll(). */
const open: Harness[] = [];
async function harness(options: Parameters<typeof createHarness>[0]): Promise<Harness> {
  const h = await createHarness(options);
  open.push(h);
  return h;
}

export async function closeAll(): Promise<void> {
  await Promise.all(open.splice(0).map((h) => h.close()));
}

/** The battery against examples/pod-defaults (every check passes) with a ValidatingAdmissionPolicy and a MutatingAdmissionPolicy beside it. */
export async function exampleBattery(): Promise<BatteryRun> {
  return batteryOf(await harness({ target: app, manifests: [MANIFESTS, POLICIES, MUTATING_POLICY], seed: SEED }));
}

/**
 * The example's coverage after one pod CREATE from a namespace its selector matches: the battery now
 * covers every cell of the example, so a page with cells not covered comes from a partial run such as this.
 */
export async function partialExampleCoverage(): Promise<CoverageSummary> {
  const h = await harness({ target: app, manifests: [MANIFESTS], namespaces: [{ name: 'shop' }], seed: SEED });
  await h.admit(review.create(objects.pod({ namespace: 'shop', name: 'web-1' }, { seed: SEED })));
  return h.coverage().summary();
}

/**
 * The battery against the zoo's sidecar-append webhook (it appends its sidecar again when reinvoked:
 * idempotent-reinvocation fails, with a patch and an object diff) and a policy whose expression fails
 * on a DELETE (policy-evaluates fails, with a trace).
 */
export async function brokenBattery(): Promise<BatteryRun> {
  return batteryOf(await harness({ target: sidecarAppend, manifests: [ZOO_SIDECAR, FRAGILE_POLICIES], seed: SEED }));
}

/**
 * The example's battery scenarios for pod CREATE, each sent a pod whose label value and container name
 * are markup, run and checked as the battery runs them (runScenario), in a report of their own.
 */
export async function hostileBattery(): Promise<BatteryReport> {
  const h = await harness({ target: app, manifests: [MANIFESTS], seed: SEED });
  const pod = objects.pod(
    { namespace: 'shop', name: 'web-1', labels: { note: HOSTILE_LABEL }, spec: { containers: [{ name: HOSTILE_CONTAINER, image: 'nginx:1.27' }] } },
    { seed: SEED },
  );
  const creates = planBattery(h.webhooks, h.seed).plan.filter((p) => p.scenario.title === 'CREATE pods' && !p.version);
  const results = [];
  for (const planned of creates) results.push(await runScenario(h, { ...planned, scenario: { ...planned.scenario, review: review.create(pod) } }));
  const checks = results.flatMap((r) => r.checks);
  return {
    seed: h.seed,
    results,
    policies: [],
    skipped: [],
    passed: checks.filter((c) => c.status === 'pass').length,
    failed: checks.filter((c) => c.status === 'fail').length,
    notRun: [],
  };
}

export interface ReplayRuns {
  /** The mutating webhook's recordings replayed against a changed webhook (one CPU limit differs): failed, failed, new. */
  failing: ReplayReport;
  /** The validating webhook's recordings replayed against the example itself: passed, passed. */
  passing: ReplayReport;
  coverage: CoverageSummary;
  remove: () => void;
}

/** Records answers of the example webhook, as test/replay/round-trip.test.ts does, and replays them. */
export async function replays(): Promise<ReplayRuns> {
  const temp = tempDir('report');
  const [h, changed] = await Promise.all([
    harness({ target: app, manifests: [MANIFESTS], seed: SEED }),
    harness({ target: changedWebhook(halveFirstCpuLimit), manifests: [MANIFESTS], seed: SEED }),
  ]);
  const pinned = (name: string, images: string[]) => objects.pod({ images, namespace: 'shop', name });
  const created = await h.call(MUTATE, review.create(pinned('web-1', ['nginx:1.27'])));
  const withSidecar = await h.call(MUTATE, review.create(pinned('web-2', ['nginx:1.27', 'redis:7.4'])));
  const unrecorded = await h.call(MUTATE, review.create(pinned('web-4', ['nginx:1.27'])));
  const denied = await h.call(VALIDATE, review.create(pinned('web-3', ['nginx:latest'])));
  const updated = await h.call(VALIDATE, review.update(pinned('web-1', ['nginx:1.27']), pinned('web-1', ['nginx:1.27'])));
  // A recording without its response: replay has nothing to compare it with, so it is `new`.
  const { response: _dropped, ...withoutResponse } = recorded(unrecorded, 5);
  writeFixtures(`${temp.dir}/mutating`, [recorded(created, 1), recorded(withSidecar, 2), withoutResponse]);
  writeFixtures(`${temp.dir}/validating`, [recorded(denied, 3), recorded(updated, 4)]);
  const failing = await replayFixtures(changed, loadFixtures([`${temp.dir}/mutating`]), { webhook: MUTATE });
  const passing = await replayFixtures(h, loadFixtures([`${temp.dir}/validating`]), { webhook: VALIDATE });
  return { failing, passing, coverage: changed.coverage().summary(), remove: temp.remove };
}

/** An admission through the example's whole chain (mutating webhook, registry, validating webhook): a real trace. */
export async function exampleAdmission(): Promise<Awaited<ReturnType<Harness['admit']>>> {
  const h = await harness({ target: app, manifests: [MANIFESTS], seed: SEED, namespaces: [{ name: 'shop' }] });
  return h.admit(review.create(objects.pod({ images: ['nginx:1.27'], namespace: 'shop', name: 'web-1' })));
}
