// chain: h.admit() through 3 mutating + 2 validating webhooks, three ways.
// - answered in memory (bench/in-memory.mjs: no socket, no TLS, no HTTP): the harness's own work per
//   admission, as CPU time of the process (a loaded machine does not count against it), against the same
//   harness with no webhook (the object's decode, defaults, strategy, validation and the built-in plugins);
//   and against the baseline build's (bench/baseline-build.mjs) same admission, both in this process.
// - through 5 stubs, against 5 raw HTTPS POSTs of the same reviews to one server (3 serial + 2 parallel).
// - with no webhook, against one raw POST: the part of the chain no POST stands for.
import path from 'node:path';
import { baselineBuild } from './baseline-build.mjs';
import { answeredInMemory } from './in-memory.mjs';
import { chainHarness, fixedBody, harness, paired, require, startAllowServer, timeLoop } from './lib.mjs';

const COUNT = Number(process.env.BENCH_ADMITS ?? 150);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 3000);

/** CPU milliseconds per iteration of `count` runs of `task`, one at a time. */
async function cpuLoop(count, task) {
  const started = process.cpuUsage();
  for (let i = 0; i < count; i++) await task();
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000 / count;
}

/**
 * Checks that an in-memory admission goes through the five webhooks, allowed; then warms the code up:
 * on a loaded machine V8's optimizing compiler, on a background thread, takes thousands of admissions
 * to catch up, and a build measured cold against a warm one would lose by 3–4×.
 */
async function throughFive(h, review) {
  const first = await h.admit(review);
  const called = first.trace.steps.filter((step) => !step.plugin && step.decision === 'called').length;
  if (!first.allowed || called !== 5) throw new Error(`the in-memory chain called ${called} webhooks, not 5`);
  for (let i = 0; i < WARM_UP; i++) await h.admit(review);
}

export async function chain() {
  const { createHarness, review, objects } = harness();
  const h = await chainHarness();
  // One seeded pod for every row and both builds: a generated pod's size varies with its seed.
  const object = objects.pod({}, { seed: 1 });
  const pod = review.create(object);
  const previous = baselineBuild();
  if (previous.error) process.stderr.write(`bench: ${previous.error}\n`);
  const before = previous.dist ? require(path.join(previous.dist, 'index.cjs')) : undefined;
  const hBefore = before && (await chainHarness(before));
  const podBefore = before?.review.create(object);
  const { body } = fixedBody(pod);
  const bare = await createHarness({ seed: 1 });
  const server = await startAllowServer();
  const raw = server.poster();
  let memory;
  let versusBefore;
  let stubs;
  let alone;
  try {
    await h.admit(pod);
    await bare.admit(pod);
    memory = await answeredInMemory(async () => {
      await throughFive(h, pod);
      for (let i = 0; i < WARM_UP; i++) await bare.admit(pod);
      return paired(
        ROUNDS,
        () => cpuLoop(COUNT * 4, () => h.admit(pod)),
        () => cpuLoop(COUNT * 4, () => bare.admit(pod)),
      );
    });
    if (hBefore) {
      versusBefore = await answeredInMemory(async () => {
        await throughFive(hBefore, podBefore);
        return paired(
          ROUNDS,
          () => cpuLoop(COUNT * 4, () => h.admit(pod)),
          () => cpuLoop(COUNT * 4, () => hBefore.admit(podBefore)),
        );
      });
    }
    stubs = await paired(
      ROUNDS,
      async () => (await timeLoop(COUNT, 1, () => h.admit(pod))) / COUNT,
      async () =>
        (await timeLoop(COUNT, 1, async () => {
          for (let k = 0; k < 3; k++) await raw.post('/m', body);
          await Promise.all([raw.post('/v', body), raw.post('/v', body)]);
        })) / COUNT,
    );
    alone = await paired(
      ROUNDS,
      async () => (await timeLoop(COUNT, 1, () => bare.admit(pod))) / COUNT,
      async () => (await timeLoop(COUNT, 1, () => raw.post('/v', body))) / COUNT,
    );
  } finally {
    raw.close();
    await h.close();
    await hBefore?.close();
    await bare.close();
    await server.close();
  }
  return [
    {
      name: 'admit, in memory',
      unit: 'ms/admit (CPU)',
      ...memory,
      goal: "≤ 0.1 ms: the harness's own work over 3m+2v webhooks answered in memory (baseline: the same with no webhook)",
      goalMs: 0.1,
    },
    ...(versusBefore
      ? [{ name: 'admit, mem/before', unit: 'ms/admit (CPU)', ...versusBefore, goal: `the same, against the ${previous.label} (< 1: faster)` }]
      : []),
    { name: 'chain 3m+2v', unit: 'ms/admit', ...stubs, goal: '≤ 2× 5 raw POSTs (3 serial + 2 parallel)', goalRatio: 2 },
    { name: 'admit, 0 hooks', unit: 'ms/admit', ...alone, goal: 'registry and built-in plugins alone, in raw POSTs (1 = one POST)' },
  ];
}
