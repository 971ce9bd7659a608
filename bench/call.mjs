// call: h.call() throughput on one keep-alive connection and at concurrency 16, against raw HTTPS
// POSTs of the same bodies to the same server, in the same run.
import https from 'node:https';
import { allowHandler, harness, paired, rawPoster, timeLoop } from './lib.mjs';

const COUNT = Number(process.env.BENCH_CALLS ?? 400);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);

export async function call() {
  const { createHarness, review, objects, encodeReview, sharedAuthority } = harness();
  const ca = await sharedAuthority();
  const server = https.createServer(await ca.issueServing(), allowHandler);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  const h = await createHarness({ target: { url: `https://127.0.0.1:${port}`, ca: ca.cert }, seed: 1 });
  const pod = review.create(objects.pod());
  // The baseline sends the same bytes: the review as encoded for the call, with a fixed uid.
  const body = JSON.stringify(encodeReview(pod.attributes, 'v1', '00000000-0000-4000-8000-000000000000'));
  const raw = rawPoster({ host: '127.0.0.1', port, ca: ca.cert, servername: 'localhost' });
  const inline = { type: 'validating', path: '/v' };
  const rows = [];
  try {
    for (const concurrency of [1, 16]) {
      const { samples, baseline, ratios } = await paired(
        ROUNDS,
        async () => (await timeLoop(COUNT, concurrency, () => h.call(inline, pod))) / COUNT,
        async () => (await timeLoop(COUNT, concurrency, () => raw.post('/v?timeout=10s', body))) / COUNT,
      );
      rows.push({ name: `call c=${concurrency}`, unit: 'ms/call', samples, baseline, ratios, goal: '≤ 1.15× raw', goalRatio: 1.15 });
    }
  } finally {
    raw.close();
    await h.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  return rows;
}
