// The mock API's lists and watches at another version than the stored one, against the recordings in ./fixtures
// (recorded on a real kube-apiserver v1.36.2): with the watch cache (kube's default, files without a suffix) they
// are served from a v2 cache converted as writes happen, one review per write; without it (`.no-watch-cache`),
// each list or watch sends one review per object it returns. Answers compared field by field but for uids,
// timestamps and resourceVersions.
import { openWatch, type WatchLine } from '../mockapi/watch/watch-client';
import { comparable, createWidgets, fixture, recordedCluster, recordedReviews, watchCacheOf, widget, type Cluster, type Step } from './mock-api-cluster';

jest.setTimeout(120_000);

const both = (name: string): string[] => [name, `${name}.no-watch-cache`];

/** A recorded cluster with w1, w2 and w3 stored; `run` gets it and the count of reviews sent so far. */
async function withWidgets(name: string, run: (cluster: Cluster, from: number) => Promise<void>): Promise<void> {
  const cluster = await recordedCluster(fixture(name));
  try {
    await createWidgets(cluster);
    await run(cluster, cluster.received.length);
  } finally {
    await cluster.h.close();
  }
}

function expectAnswer(reply: { status: number; body: unknown }, step: Step): void {
  expect(reply.status).toBe(step.response.code);
  expect(comparable(reply.body)).toEqual(comparable(step.response.body));
}

/** The path of a recorded request with the recorded resourceVersion replaced by the mock API's. */
const atVersion = (path: string, recordedVersion: string, version: string): string =>
  path.replace(`resourceVersion=${recordedVersion}`, `resourceVersion=${version}`);

describe('list-v2: a LIST in v2 of three objects stored in v1', () => {
  it.each(['list-v2', 'list-v2.no-watch-cache'])('%s', async (name) => {
    const recorded = fixture(name);
    const cached = watchCacheOf(recorded);
    const cluster = await recordedCluster(recorded);
    try {
      const { namespace } = cluster;
      const collection = (version: string) => `/apis/stable.example.com/${version}/namespaces/${namespace}/widgets`;
      expect((await cluster.send('POST', collection('v2'), widget(namespace, 'w1', 'v2', { colour: 'red', size: 1 }))).status).toBe(201);
      expect((await cluster.send('POST', collection('v1'), widget(namespace, 'w2', 'v1', { color: 'blue', size: 1 }))).status).toBe(201);
      await cluster.api.settled();
      const from = cluster.received.length;
      // As recorded, w3 is created just before the LIST.
      expect((await cluster.send('POST', collection('v1'), widget(namespace, 'w3', 'v1', { color: 'green', size: 1 }))).status).toBe(201);
      expectAnswer(await cluster.replay(recorded.steps[0] as Step), recorded.steps[0] as Step);
      // With the watch cache the LIST sends none: the one review is the cache converting w3's create, which the
      // LIST waited for (kube's consistent read from the cache); without it, one review per object listed.
      expect(cluster.reviewsSince(from, false)).toEqual(recordedReviews(recorded, false));
      expect(cluster.received.length - from).toBe(cached ? 1 : 3);
    } finally {
      await cluster.h.close();
    }
  });
});

describe('list-v2-exact-rv: a LIST in v2 at the resourceVersion of a v1 list, and one at 0', () => {
  it.each(['list-v2-exact-rv', 'list-v2-exact-rv.no-watch-cache'])('%s', async (name) => {
    const recorded = fixture(name);
    await withWidgets(name, async (cluster, from) => {
      const v1 = await cluster.send('GET', `/apis/stable.example.com/v1/namespaces/${cluster.namespace}/widgets`);
      const version = String((v1.body as { metadata: { resourceVersion: string } }).metadata.resourceVersion);
      const exact = recorded.steps[0] as Step;
      const recordedVersion = String((exact.response.body.metadata as { resourceVersion: string }).resourceVersion);
      expectAnswer(await cluster.send('GET', atVersion(exact.request.path, recordedVersion, version)), exact);
      expectAnswer(await cluster.replay(recorded.steps[1] as Step), recorded.steps[1] as Step);
      // From the watch cache: no review; without it: three per LIST.
      expect(cluster.reviewsSince(from, false)).toEqual(recordedReviews(recorded, false));
    });
  });
});

describe('list-v2-limit: a LIST in v2 with limit=2', () => {
  it.each(['list-v2-limit', 'list-v2-limit.no-watch-cache'])('%s', async (name) => {
    const recorded = fixture(name);
    await withWidgets(name, async (cluster, from) => {
      const reply = await cluster.replay(recorded.steps[0] as Step);
      if (watchCacheOf(recorded)) {
        expectAnswer(reply, recorded.steps[0] as Step);
      } else {
        // The mock API's continue tokens are the watch cache's (`/w2\u0000`), etcd's lack the slash (`w2\u0000`).
        const token = (reply.body as { metadata: { continue: string } }).metadata.continue;
        expect(JSON.parse(Buffer.from(token, 'base64url').toString()).start).toBe('/w2\u0000');
        const step = structuredClone(recorded.steps[0] as Step);
        const metadata = step.response.body.metadata as { continue: string };
        const recordedToken = JSON.parse(Buffer.from(metadata.continue, 'base64url').toString()) as { start: string };
        expect(recordedToken.start).toBe('w2\u0000');
        metadata.continue = Buffer.from(JSON.stringify({ ...recordedToken, start: `/${recordedToken.start}` })).toString('base64url');
        expectAnswer(reply, step);
      }
      expect(cluster.reviewsSince(from, false)).toEqual(recordedReviews(recorded, false));
    });
  });
});

const comparableEvents = (events: readonly WatchLine[]): unknown => comparable(events);

describe('watch-v2: a watch in v2 while w4 is created, patched and deleted in v1', () => {
  it.each(['watch-v2', 'watch-v2.no-watch-cache'])('%s', async (name) => {
    const recorded = fixture(name);
    const cached = watchCacheOf(recorded);
    await withWidgets(name, async (cluster, from) => {
      const [list, create, patch, remove] = recorded.steps as [Step, Step, Step, Step];
      const v1 = await cluster.replay(list);
      expect(v1.status).toBe(200);
      const version = String((v1.body as { metadata: { resourceVersion: string } }).metadata.resourceVersion);
      const recordedVersion = String((list.response.body.metadata as { resourceVersion: string }).resourceVersion);
      const watch = await openWatch(cluster.api, atVersion(recorded.watch?.request.path ?? '', recordedVersion, version), 'msw');
      try {
        expect(watch.status).toBe(200);
        for (const step of [create, patch, remove]) expectAnswer(await cluster.replay(step), step);
        const events = await watch.next(3);
        expect(comparableEvents(events)).toEqual(comparableEvents(recorded.watch?.response.events as WatchLine[]));
      } finally {
        watch.abort();
      }
      await cluster.api.settled();
      // One review per event: the v2 cache's (its order is its own), or the watch's own, in order.
      expect(cluster.reviewsSince(from, cached)).toEqual(recordedReviews(recorded, cached));
    });
  });
});

describe('watch-v2-initial-events: a watch in v2 with sendInitialEvents', () => {
  it.each(['watch-v2-initial-events', 'watch-v2-initial-events.no-watch-cache'])('%s', async (name) => {
    const recorded = fixture(name);
    await withWidgets(name, async (cluster, from) => {
      const watch = await openWatch(cluster.api, recorded.watch?.request.path ?? '', 'msw');
      try {
        expect(watch.status).toBe(200);
        const events = await watch.next(4);
        expect(comparableEvents(events)).toEqual(comparableEvents(recorded.watch?.response.events as WatchLine[]));
      } finally {
        watch.abort();
      }
      // From the watch cache: no review; without it: one per object sent.
      expect(cluster.reviewsSince(from, false)).toEqual(recordedReviews(recorded, false));
    });
  });
});

describe('get-v2, get-v1: a GET in v2 sends one review, with or without the watch cache; in v1 none', () => {
  it.each([...both('get-v2'), ...both('get-v1')])('%s', async (name) => {
    const recorded = fixture(name);
    await withWidgets(name, async (cluster, from) => {
      expectAnswer(await cluster.replay(recorded.steps[0] as Step), recorded.steps[0] as Step);
      expect(cluster.reviewsSince(from, false)).toEqual(recordedReviews(recorded, false));
    });
  });
});
