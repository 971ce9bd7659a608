// The store's event log and the watch's own rules: one counter for every write, an event per write (none for a
// dry run), a namespace's objects deleted one write each, bookmarks before a deadline, and the stream's end.
import { startMockApi, type MockApi } from '../../../lib/mockapi';
import { ManualClock, openWatch, request } from './watch-client';

jest.setTimeout(60_000);

const configMap = (namespace: string, name: string, labels?: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace, ...(labels ? { labels } : {}) },
  data: { k: name },
});

/** A refused watch's body: one Status, not an event. */
const statusOf = (watch: { events: unknown[] }) => watch.events[0] as { message: string };

let api: MockApi;
let clock: ManualClock;
beforeEach(async () => {
  clock = new ManualClock();
  api = await startMockApi({ seed: 31, watchClock: clock, namespaces: [{ name: 'team' }, { name: 'gone' }] });
});
afterEach(async () => {
  await api.close();
  expect(api.watches.size).toBe(0);
});

describe('the event log', () => {
  it('gives every write the next version of one counter, and the object that version', async () => {
    const start = Number(api.store.resourceVersion);
    const events: [string, string, number][] = [];
    const stop = api.store.events.subscribe((e) => events.push([e.type, e.key, e.revision]));
    const created = api.store.put(configMap('team', 'a'));
    // A put with a status is two writes: the object, then its status, each a version of its own.
    const withStatus = api.store.put({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', namespace: 'team' },
      spec: { containers: [{ name: 'c', image: 'i' }] },
      status: { phase: 'Running' },
    });
    await request(api, 'POST', '/api/v1/namespaces/team/configmaps?dryRun=All', configMap('team', 'dry'));
    await request(api, 'DELETE', '/api/v1/namespaces/team/configmaps/a');
    stop();
    expect(events).toEqual([
      ['ADDED', 'team/a', start + 1],
      ['ADDED', 'team/p', start + 2],
      ['MODIFIED', 'team/p', start + 3],
      ['DELETED', 'team/a', start + 4],
    ]);
    expect(created.metadata?.resourceVersion).toBe(String(start + 1));
    expect(withStatus.metadata?.resourceVersion).toBe(String(start + 3));
    expect(api.store.read('v1', 'Pod', 'p', 'team')?.metadata?.resourceVersion).toBe(String(start + 3));
    expect(api.store.resourceVersion).toBe(String(start + 4));
  });

  it("deletes a namespace's objects one write each, then the namespace, so watchers see each go", async () => {
    api.store.put(configMap('gone', 'x'));
    api.store.put(configMap('gone', 'y'));
    const watch = await openWatch(api, `/api/v1/configmaps?watch=1&resourceVersion=${api.store.resourceVersion}`, 'msw');
    const namespaces = await openWatch(api, `/api/v1/namespaces?watch=1&resourceVersion=${api.store.resourceVersion}`, 'msw');
    await request(api, 'DELETE', '/api/v1/namespaces/gone');
    const events = await watch.next(2);
    expect(events.map((e) => [e.type, e.object.metadata?.name, e.object.metadata?.namespace])).toEqual([
      ['DELETED', 'x', 'gone'],
      ['DELETED', 'y', 'gone'],
    ]);
    const [namespace] = await namespaces.next(1);
    expect([namespace!.type, namespace!.object.metadata?.name]).toEqual(['DELETED', 'gone']);
    expect(Number(namespace!.object.metadata?.resourceVersion)).toBeGreaterThan(Number(events[1]!.object.metadata?.resourceVersion));
  });
});

describe('watch rules', () => {
  it('sends a bookmark 2 s before the deadline, and every minute, with the current version', async () => {
    const watch = await openWatch(
      api,
      `/api/v1/namespaces/team/configmaps?watch=1&resourceVersion=${api.store.resourceVersion}&allowWatchBookmarks=true&timeoutSeconds=150`,
      'msw',
    );
    expect(clock.pending()).toEqual([60_000, 150_000]);
    clock.advance(60_000);
    await watch.next(1);
    api.store.put(configMap('team', 'z'));
    clock.advance(60_000);
    expect(clock.pending()).toEqual([28_000, 30_000]);
    clock.advance(28_000);
    const events = await watch.next(4);
    expect(events.map((e) => [e.type, e.object.metadata?.resourceVersion])).toEqual([
      ['BOOKMARK', String(Number(api.store.resourceVersion) - 1)],
      ['ADDED', api.store.resourceVersion],
      ['BOOKMARK', api.store.resourceVersion],
      ['BOOKMARK', api.store.resourceVersion],
    ]);
    expect(watch.hasEnded()).toBe(false);
    clock.advance(2000);
    await watch.ended;
    expect(clock.pending()).toEqual([]);
  });

  it('sends no bookmark to a watch that did not allow them', async () => {
    await openWatch(api, `/api/v1/namespaces/team/configmaps?watch=1&resourceVersion=${api.store.resourceVersion}&timeoutSeconds=150`, 'msw');
    expect(clock.pending()).toEqual([150_000]);
  });

  it('answers a watch from a version the store has not reached with 504 before streaming', async () => {
    const ahead = Number(api.store.resourceVersion) + 1;
    const watch = await openWatch(api, `/api/v1/namespaces/team/configmaps?watch=1&resourceVersion=${ahead}`, 'msw');
    await watch.ended;
    expect(watch.status).toBe(504);
    expect(statusOf(watch).message).toBe(`Timeout: Too large resource version: ${ahead}, current: ${api.store.resourceVersion}`);
  });

  it('follows a fieldSelector on metadata.name, across namespaces', async () => {
    const watch = await openWatch(api, '/api/v1/configmaps?watch=1&fieldSelector=metadata.name%3Dpicked', 'msw');
    api.store.put(configMap('team', 'other'));
    api.store.put(configMap('team', 'picked'));
    api.store.put(configMap('gone', 'picked'));
    const events = await watch.next(2);
    expect(events.map((e) => [e.type, e.object.metadata?.namespace])).toEqual([
      ['ADDED', 'team'],
      ['ADDED', 'gone'],
    ]);
  });

  it('streams to global fetch in process, as undici-based clients read it', async () => {
    const response = await fetch(`${api.url}/api/v1/namespaces/team/configmaps?watch=true&resourceVersion=${api.store.resourceVersion}`, {
      headers: { Authorization: `Bearer ${api.token}` },
    });
    expect([response.status, response.headers.get('content-type'), response.headers.get('content-length')]).toEqual([200, 'application/json', null]);
    api.store.put(configMap('team', 'f'));
    const reader = response.body!.getReader();
    let text = '';
    while (!text.includes('\n')) text += new TextDecoder().decode((await reader.read()).value);
    expect(JSON.parse(text)).toMatchObject({ type: 'ADDED', object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'f' } } });
    // msw hands the client a copy of the body, so a cancel does not reach the watch: close() ends it (afterEach).
    void reader.cancel();
  });

  it('refuses a selector kube would refuse, with its 400', async () => {
    const watch = await openWatch(api, '/api/v1/configmaps?watch=1&fieldSelector=spec.x%3D1', 'msw');
    await watch.ended;
    expect(watch.status).toBe(400);
    expect(statusOf(watch).message).toBe('"spec.x" is not a known field selector: only "metadata.name", "metadata.namespace"');
  });

  it('is refused (403) to a user who may list but not watch', async () => {
    api.authorizer = (attributes) => ({ decision: attributes.verb === 'watch' ? 'noOpinion' : 'allow' });
    const watch = await openWatch(api, '/api/v1/namespaces/team/configmaps?watch=1', 'msw');
    await watch.ended;
    expect(watch.status).toBe(403);
    expect(statusOf(watch).message).toMatch(/cannot watch resource "configmaps"/);
  });
});

describe('the deprecated /watch/ paths', () => {
  it('watch a collection, or one object by name, and serve nothing but GET', async () => {
    api.store.put(configMap('team', 'a'));
    const collection = await openWatch(api, '/api/v1/watch/namespaces/team/configmaps', 'msw');
    const one = await openWatch(api, `/api/v1/watch/namespaces/team/configmaps/b?resourceVersion=${api.store.resourceVersion}`, 'msw');
    api.store.put(configMap('team', 'b'));
    // Without `?watch` the WatchList defaults do not apply: the objects come first, with no end bookmark.
    expect((await collection.next(2)).map((e) => [e.type, e.object.metadata?.name])).toEqual([
      ['ADDED', 'a'],
      ['ADDED', 'b'],
    ]);
    expect((await one.next(1)).map((e) => [e.type, e.object.metadata?.name])).toEqual([['ADDED', 'b']]);
    const post = await request(api, 'POST', '/api/v1/watch/namespaces/team/configmaps', configMap('team', 'c'));
    expect(post.status).toBe(405);
  });
});
