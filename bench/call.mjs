// call: h.call() throughput on one keep-alive connection and at concurrency 16, against raw HTTPS
// POSTs of the same bodies to the same server, in the same run; and against the request kube-apiserver
// makes, done by hand, which leaves the harness's own overhead.
import { fixedBody, harness, paired, startAllowServer, timeLoop } from './lib.mjs';

const COUNT = Number(process.env.BENCH_CALLS ?? 400);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);

export async function call() {
  const { createHarness, review, objects } = harness();
  const server = await startAllowServer();
  const h = await createHarness({ target: { url: `https://127.0.0.1:${server.port}`, ca: server.ca }, seed: 1 });
  const pod = review.create(objects.pod());
  // The baseline sends the same bytes: the review as encoded for the call, with a fixed uid.
  const { uid: fixedUid, body } = fixedBody(pod);
  const raw = server.poster();
  const inline = { type: 'validating', path: '/v' };
  // kube-apiserver's request by hand: its headers, a fresh uid in every body, the reply decoded and its
  // uid checked. What h.call() costs beyond this is the harness's own.
  const kube = server.poster({ Host: 'localhost', 'User-Agent': 'kube-apiserver-admission', Accept: 'application/json, */*', 'Accept-Encoding': 'gzip' });
  const [head, tail] = body.split(JSON.stringify(fixedUid));
  let sent = 0;
  const kubeShaped = async () => {
    sent += 1;
    const uid = `00000000-0000-4000-8000-${String(sent).padStart(12, '0')}`;
    const reply = JSON.parse(await kube.post('/v?timeout=10s', `${head}"${uid}"${tail}`));
    if (reply.response?.uid !== uid) throw new Error('the webhook did not echo the uid');
  };
  const rows = [];
  const versus = (concurrency, baseline) =>
    paired(
      ROUNDS,
      async () => (await timeLoop(COUNT, concurrency, () => h.call(inline, pod))) / COUNT,
      async () => (await timeLoop(COUNT, concurrency, baseline)) / COUNT,
    );
  try {
    for (const concurrency of [1, 16]) {
      const rounds = await versus(concurrency, () => raw.post('/v?timeout=10s', body));
      rows.push({ name: `call c=${concurrency}`, unit: 'ms/call', ...rounds, goal: '≤ 1.15× raw', goalRatio: 1.15 });
    }
    for (const concurrency of [1, 16]) {
      const rounds = await versus(concurrency, kubeShaped);
      rows.push({
        name: `call/kube c=${concurrency}`,
        unit: 'ms/call',
        ...rounds,
        goal: "≤ 1.05× kube-apiserver's request by hand: the harness's own overhead",
        goalRatio: 1.05,
      });
    }
  } finally {
    raw.close();
    kube.close();
    await h.close();
    await server.close();
  }
  return rows;
}
