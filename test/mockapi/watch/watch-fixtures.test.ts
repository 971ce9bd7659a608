// The watch recordings of test/mockapi/fixtures (a real kube-apiserver v1.36.2, see README.md there) replayed
// against the mock API, in process through msw and over the loopback HTTPS server: the same requests, the same
// events field by field, resourceVersions in the same order.
import { startMockApi, type MockApi } from '../../../lib/mockapi';
import {
  comparable,
  expectSameOrder,
  ManualClock,
  openWatch,
  recording,
  request,
  versionsOf,
  type OpenWatch,
  type Transport,
  type WatchLine,
} from './watch-client';

jest.setTimeout(60_000);

const configMap = (namespace: string, name: string, data: Record<string, string> | undefined, labels?: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace, ...(labels ? { labels } : {}) },
  ...(data ? { data } : {}),
});

/** The recorded events and ours agree field by field, and their resourceVersions order alike. */
function expectEventsLike(actual: readonly WatchLine[], recorded: readonly WatchLine[]): void {
  expect(actual.map(comparable)).toEqual(recorded.map(comparable));
  // Byte for byte too, but for what may differ: the same members in the same order.
  expect(JSON.stringify(actual.map(comparable))).toBe(JSON.stringify(recorded.map(comparable)));
  expectSameOrder(versionsOf(recorded), versionsOf(actual));
}

/** The headers a watch response starts with, as recorded: JSON, and (over a socket) chunked. */
function expectWatchHeaders(watch: OpenWatch, transport: Transport): void {
  expect(watch.status).toBe(200);
  expect(watch.headers['content-type']).toBe('application/json');
  expect(watch.headers['content-length']).toBeUndefined();
  if (transport === 'loopback') expect(watch.headers['transfer-encoding']).toBe('chunked');
}

/** Replays a recorded write, with the resourceVersion of a PUT body taken from the object as the mock API has it. */
async function replayWrite(api: MockApi, step: ReturnType<typeof recording>['steps'][number], last?: { metadata: { resourceVersion: string; uid: string } }) {
  const { method, path, headers, body } = step.request;
  const sent =
    method === 'PUT' && last ? { ...body, metadata: { ...body.metadata, resourceVersion: last.metadata.resourceVersion, uid: last.metadata.uid } } : body;
  const reply = await request(api, method, path, sent, headers['Content-Type']);
  expect(reply.status).toBe(step.response.code);
  return reply.body;
}

describe.each<Transport>(['msw', 'loopback'])('watch over %s', (transport) => {
  let api: MockApi;
  let clock: ManualClock;
  beforeEach(async () => {
    clock = new ManualClock();
    api = await startMockApi({
      seed: 27,
      intercept: transport === 'msw',
      watchClock: clock,
      namespaces: ['o4-watch', 'o4-sie', 'o4-sel', 'o4-compact', 'o4-err2'].map((name) => ({ name })),
    });
  });
  afterEach(async () => {
    await api.close();
    expect(api.watches.size).toBe(0);
  });

  it('list-then-watch: a list, then every write after its resourceVersion, then the periodic bookmark', async () => {
    const recorded = recording('list-then-watch');
    const [list, ...writes] = recorded.steps;
    const listed = await request(api, 'GET', list!.request.path);
    expect(comparable(listed.body)).toEqual(comparable(list!.response.body));
    const watchPath = recorded.watch!.request.path.replace('resourceVersion=208', `resourceVersion=${listed.body.metadata.resourceVersion}`);
    const watch = await openWatch(api, watchPath, transport);
    expectWatchHeaders(watch, transport);
    let last;
    for (const step of writes) last = await replayWrite(api, step, last);
    await watch.next(5);
    // kube-apiserver sends a bookmark about every minute (cacher.go defaultBookmarkFrequency).
    expect(clock.pending()).toEqual([60_000]);
    clock.advance(60_000);
    const events = await watch.next(6);
    expectEventsLike(events, recorded.watch!.response.events);
    expectSameOrder([208, ...versionsOf(recorded.watch!.response.events)], [Number(listed.body.metadata.resourceVersion), ...versionsOf(events)]);
    // One compact JSON event a line; the bookmark, which holds nothing volatile but its version, byte for byte.
    expect(watch.raw()).toBe(events.map((e) => `${JSON.stringify(e)}\n`).join(''));
    const recordedBookmark = (recorded.watch!.response as { streamRaw?: string }).streamRaw!.split('\n').at(-2)!;
    expect(watch.raw().split('\n').at(-2)).toBe(recordedBookmark.replace('"213"', `"${events[5]!.object.metadata!.resourceVersion}"`));
    watch.abort();
  });

  it('watch-send-initial-events: the objects as ADDED, the initial-events-end bookmark, then new writes; 422 without resourceVersionMatch', async () => {
    const recorded = recording('watch-send-initial-events');
    for (const name of ['x1', 'x2', 'x3']) api.store.put(configMap('o4-sie', name, { n: name }));
    const watch = await openWatch(api, recorded.watch!.request.path, transport);
    const watch2 = await openWatch(api, recorded.watch2!.request.path, transport);
    expectWatchHeaders(watch, transport);
    await watch.next(4);
    await replayWrite(api, recorded.steps[0]!);
    expectEventsLike(await watch.next(5), recorded.watch!.response.events);
    expectEventsLike(await watch2.next(4), recorded.watch2!.response.events);
    const refused = await openWatch(api, recorded.watch3!.request.path, transport);
    await refused.ended;
    expect(refused.status).toBe(422);
    expect(refused.events).toEqual(recorded.watch3!.response.events);
    watch.abort();
    watch2.abort();
  });

  it('watch-label-selector: leaving the selector is a DELETED with the old object at the new version, coming back an ADDED', async () => {
    const recorded = recording('watch-label-selector');
    const watch = await openWatch(api, recorded.watch!.request.path, transport);
    for (const step of recorded.steps) await replayWrite(api, step);
    expectEventsLike(await watch.next(5), recorded.watch!.response.events);
    watch.abort();
  });

  it('watch-timeout-seconds: the server ends the response at timeoutSeconds; a watch without a version first says its initial events ended', async () => {
    const recorded = recording('watch-timeout-seconds');
    const listed = await request(api, 'GET', recorded.steps[0]!.request.path);
    const rv = listed.body.metadata.resourceVersion as string;
    const watches = await Promise.all(
      [recorded.watch!, recorded.watch2!, recorded.watch3!].map((w) =>
        openWatch(api, w.request.path.replace('resourceVersion=255', `resourceVersion=${rv}`), transport),
      ),
    );
    await watches[1]!.next(1);
    // Each watch holds one timer, for its 2 s; with a 2 s timeout no bookmark comes before the deadline.
    expect(clock.pending()).toEqual([2000, 2000, 2000]);
    clock.advance(1999);
    expect(watches.map((w) => w.hasEnded())).toEqual([false, false, false]);
    clock.advance(1);
    await Promise.all(watches.map((w) => w.ended));
    const recordings = [recorded.watch!, recorded.watch2!, recorded.watch3!];
    watches.forEach((w, i) => {
      expectWatchHeaders(w, transport);
      expect(w.events.map(comparable)).toEqual(recordings[i]!.response.events.map(comparable));
      expect(recordings[i]!.response.howStreamEnded).toBe('server closed the stream (end of response)');
    });
    expect(watches[1]!.events[0]!.object.metadata?.resourceVersion).toBe(rv);
  });

  it('watch-rv0-and-no-rv: without a version, or with 0, every object first arrives as ADDED, in key order', async () => {
    const recorded = recording('watch-rv0-and-no-rv');
    for (const name of ['p1', 'p2', 'p3', 'p4', 'p5']) api.store.put(configMap('o4-err2', name, { n: name }));
    await request(api, 'DELETE', '/api/v1/namespaces/o4-err2/configmaps/p3');
    // Created with an empty data map and an unknown field, which kube's decoding drops: stored without either.
    api.store.put(configMap('o4-err2', 'warnunknown', undefined));
    for (const recordedWatch of [recorded.watch!, recorded.watch2!]) {
      const watch = await openWatch(api, recordedWatch.request.path, transport);
      expectEventsLike(await watch.next(5), recordedWatch.response.events);
      watch.abort();
    }
  });
});

describe('history: watches and exact lists at past versions', () => {
  let api: MockApi;
  beforeEach(async () => {
    api = await startMockApi({ seed: 28, namespaces: ['o4-watch', 'o4-sie', 'o4-sel', 'o4-compact'].map((name) => ({ name })) });
  });
  afterEach(() => api.close());

  /** The writes the recording's cluster had made to configmaps before watch-too-old-rv, in order. */
  async function replayHistory(): Promise<void> {
    api.store.put({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'kube-apiserver-legacy-service-account-token-tracking', namespace: 'kube-system' },
      data: { since: '2026-12-01' },
    });
    let last;
    for (const step of recording('list-then-watch').steps.slice(1)) last = await replayWrite(api, step, last);
    for (const name of ['x1', 'x2', 'x3']) api.store.put(configMap('o4-sie', name, { n: name }));
    await replayWrite(api, recording('watch-send-initial-events').steps[0]!);
    for (const step of recording('watch-label-selector').steps) await replayWrite(api, step);
    await request(api, 'POST', '/api/v1/namespaces/o4-sel/configmaps', configMap('o4-sel', 'x', { k: '1' }));
    await request(api, 'POST', '/api/v1/namespaces/o4-sel/configmaps', configMap('o4-sel', 'y', { k: '1' }));
    await request(api, 'PATCH', '/api/v1/namespaces/o4-sel/configmaps/x', { data: { k: '2' } }, 'application/merge-patch+json');
    await request(api, 'DELETE', '/api/v1/namespaces/o4-sel/configmaps/y');
    await request(api, 'DELETE', '/api/v1/namespaces/o4-sel/configmaps/x');
  }

  it('watch-too-old-rv: from resourceVersion 1 the whole history is replayed, namespaced and cluster-wide; lists at 1', async () => {
    const recorded = recording('watch-too-old-rv');
    await replayHistory();
    const [exact, notOlderThan] = recorded.steps;
    const exactList = await request(api, 'GET', exact!.request.path);
    expect(exactList.body).toEqual(exact!.response.body);
    const latest = await request(api, 'GET', notOlderThan!.request.path);
    expect(latest.body).toEqual({ ...notOlderThan!.response.body, metadata: { resourceVersion: api.store.resourceVersion } });
    for (const recordedWatch of [recorded.watch!, recorded.watch2!]) {
      const watch = await openWatch(api, recordedWatch.request.path, 'msw');
      expectEventsLike(await watch.next(recordedWatch.response.events.length), recordedWatch.response.events);
      watch.abort();
    }
  });

  it('watch-after-etcd-compaction: the watch cache still serves the old versions, exact lists rebuild the past', async () => {
    const recorded = recording('watch-after-etcd-compaction');
    const created = await replayWrite(api, recorded.steps[0]!);
    const oldRv = created.metadata.resourceVersion as string;
    for (const k of ['1', '2', '3', '4', '5'])
      await request(api, 'PATCH', '/api/v1/namespaces/o4-compact/configmaps/c', { data: { k } }, 'application/merge-patch+json');
    for (const step of recorded.steps.slice(2)) {
      const reply = await request(api, 'GET', step.request.path.replace('370', oldRv));
      expect(reply.status).toBe(200);
      expect(comparable(reply.body)).toEqual(comparable(step.response.body));
      expect(reply.body.metadata.resourceVersion).toBe(oldRv);
      expect(reply.body.items[0].metadata.resourceVersion).toBe(oldRv);
    }
    for (const recordedWatch of [recorded.watch!, recorded.watch2!]) {
      const watch = await openWatch(api, recordedWatch.request.path.replace('370', oldRv), 'msw');
      expectEventsLike(await watch.next(recordedWatch.response.events.length), recordedWatch.response.events);
      watch.abort();
    }
  });
});
