// informer: @kubernetes/client-node's informer against the mock API over loopback TLS — its first list of
// 5 000 ConfigMaps, then 1 000 changes made through api.store — against the same objects serialised (the list's
// JSON, then one watch-event line per change) written to a loopback socket and parsed on the other end, in the
// same run. Also the latency of one change: api.store.put to the informer's `update`, one change at a time.
import net from 'node:net';
import { harness, median } from './lib.mjs';

const OBJECTS = Number(process.env.BENCH_INFORMER_OBJECTS ?? 5000);
const CHANGES = Number(process.env.BENCH_INFORMER_CHANGES ?? 1000);
const LATENCY_CHANGES = Number(process.env.BENCH_INFORMER_LATENCY ?? 200);
const ROUNDS = Number(process.env.BENCH_INFORMER_ROUNDS ?? 3);
const NAMESPACE = 'bench';

const configMap = (i, value) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: `cm-${String(i).padStart(5, '0')}`, namespace: NAMESPACE, labels: { app: 'bench', shard: String(i % 16) } },
  data: { value: String(value), text: 'x'.repeat(200) },
});

/** Resolves after `count` more notifications of `verb`. */
function notifications(informer, verb, count) {
  return new Promise((resolve) => {
    let left = count;
    const seen = () => {
      if (--left > 0) return;
      informer.off(verb, seen);
      resolve();
    };
    informer.on(verb, seen);
  });
}

/** One round of the informer: ms to sync, ms for the changes, and the per-change latencies. */
async function informerRound(k8s, api, round) {
  const kc = new k8s.KubeConfig();
  kc.loadFromFile(api.kubeconfigPath);
  const core = kc.makeApiClient(k8s.CoreV1Api);
  const informer = k8s.makeInformer(kc, `/api/v1/namespaces/${NAMESPACE}/configmaps`, () => core.listNamespacedConfigMap({ namespace: NAMESPACE }));
  const added = notifications(informer, 'add', OBJECTS);
  let started = performance.now();
  await informer.start();
  await added;
  const syncMs = performance.now() - started;
  const updated = notifications(informer, 'update', CHANGES);
  started = performance.now();
  for (let i = 0; i < CHANGES; i++) api.store.put(configMap(i, `${round}-${i}`));
  await updated;
  const changesMs = performance.now() - started;
  const latencies = [];
  for (let i = 0; i < LATENCY_CHANGES; i++) {
    const next = notifications(informer, 'update', 1);
    const at = performance.now();
    api.store.put(configMap(i, `latency-${round}-${i}`));
    await next;
    latencies.push(performance.now() - at);
  }
  await informer.stop();
  return { syncMs, changesMs, latencies };
}

/** The same bytes over a loopback socket: the list's JSON, then one event line per change, each parsed. */
async function socketRound(list, changes) {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  const accepted = new Promise((resolve) => server.once('connection', resolve));
  const client = net.connect(port, '127.0.0.1');
  const socket = await accepted;
  // Chunks are kept until a line ends, then joined once: what a client that parses whole lines must do.
  let pending = [];
  const complete = [];
  let waiting;
  client.setEncoding('utf8').on('data', (chunk) => {
    let start = 0;
    for (let end = chunk.indexOf('\n'); end >= 0; end = chunk.indexOf('\n', start)) {
      pending.push(chunk.slice(start, end));
      complete.push(pending.join(''));
      pending = [];
      start = end + 1;
    }
    if (start < chunk.length) pending.push(chunk.slice(start));
    waiting?.();
  });
  /** Resolves with the next `count` newline-ended lines, each JSON-parsed. */
  const lines = (count) =>
    new Promise((resolve) => {
      const parsed = [];
      const take = () => {
        while (complete.length > 0 && parsed.length < count) parsed.push(JSON.parse(complete.shift()));
        if (parsed.length === count) {
          waiting = undefined;
          resolve(parsed);
        }
      };
      waiting = take;
      take();
    });
  let started = performance.now();
  socket.write(`${JSON.stringify(list)}\n`);
  await lines(1);
  const syncMs = performance.now() - started;
  started = performance.now();
  for (const object of changes) socket.write(`${JSON.stringify({ type: 'MODIFIED', object })}\n`);
  await lines(changes.length);
  const changesMs = performance.now() - started;
  client.destroy();
  socket.destroy();
  await new Promise((resolve) => server.close(resolve));
  return { syncMs, changesMs };
}

export async function informer() {
  const { startMockApi } = harness();
  const k8s = await import('@kubernetes/client-node');
  const api = await startMockApi({ seed: 7, intercept: false, namespaces: [{ name: NAMESPACE }] });
  const sync = { samples: [], baseline: [] };
  const changes = { samples: [], baseline: [] };
  const latencies = [];
  try {
    for (let i = 0; i < OBJECTS; i++) api.store.put(configMap(i, 0));
    for (let round = 0; round < ROUNDS; round++) {
      const ours = await informerRound(k8s, api, round);
      // The baseline sends what the informer received: the objects as the API holds them now.
      const listed = api.store.list(api.store.entryFor('v1', 'ConfigMap'), NAMESPACE);
      const items = Array.isArray(listed) ? listed : (listed.items ?? []);
      const base = await socketRound({ kind: 'ConfigMapList', apiVersion: 'v1', metadata: {}, items }, items.slice(0, CHANGES));
      sync.samples.push(ours.syncMs);
      sync.baseline.push(base.syncMs);
      changes.samples.push(ours.changesMs);
      changes.baseline.push(base.changesMs);
      latencies.push(median(ours.latencies));
    }
  } finally {
    await api.close();
  }
  return [
    { name: `informer sync ${OBJECTS}`, unit: 'ms', ...sync, goal: 'list + informer adds (baseline: the list over a socket)' },
    { name: `informer ${CHANGES} chg`, unit: 'ms', ...changes, goal: 'changes to updates (baseline: event lines over a socket)' },
    { name: 'watch latency', unit: 'ms/change', samples: latencies, goal: 'store.put to informer update, one at a time' },
  ];
}
