// chain: h.admit() through 3 mutating + 2 validating stub webhooks, against 5 raw HTTPS POSTs of the
// same reviews to one server, in the same run. A second row shows what h.admit costs with no webhook
// at all (the object's decode, defaults, strategy and validation, and the built-in plugins, which
// kube-apiserver runs on every request), against one raw POST: the part of the chain no POST stands for.
import { chainHarness, fixedBody, harness, paired, startAllowServer, timeLoop } from './lib.mjs';

const COUNT = Number(process.env.BENCH_ADMITS ?? 150);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);

export async function chain() {
  const { createHarness, review, objects } = harness();
  const h = await chainHarness();
  const pod = review.create(objects.pod());
  const { body } = fixedBody(pod);
  const bare = await createHarness({ seed: 1 });
  const server = await startAllowServer();
  const raw = server.poster();
  let rounds;
  let alone;
  try {
    await h.admit(pod);
    await bare.admit(pod);
    rounds = await paired(
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
    await bare.close();
    await server.close();
  }
  return [
    { name: 'chain 3m+2v', unit: 'ms/admit', ...rounds, goal: '≤ 1.5× 5 raw POSTs (3 serial + 2 parallel)', goalRatio: 1.5 },
    { name: 'admit, 0 hooks', unit: 'ms/admit', ...alone, goal: 'registry and built-in plugins alone, in raw POSTs (1 = one POST)' },
  ];
}
