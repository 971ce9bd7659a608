// The mock API's conversions against a webhook that never answers (the deadline, and close() with calls in
// flight), and reads served from the watch cache. Recordings in ./fixtures, from a real kube-apiserver v1.36.2.
import { sharedAuthority } from '../../lib';
import { listenTls, type LoopbackServer } from '../../lib/net/loopback-server';
import { openWatch } from '../mockapi/watch/watch-client';
import { comparable, createWidgets, fixture, recordedCluster, widget, type Step } from './mock-api-cluster';

jest.setTimeout(120_000);

describe('fail-timeout: a GET in v2 whose webhook never answers meets the 30 s deadline', () => {
  it('fail-timeout', async () => {
    const recorded = fixture('fail-timeout');
    // timeScale 0.1: the deadline is 3 s of real time; the webhook never answers, so the failure proves it.
    const cluster = await recordedCluster(recorded, [], 0.1);
    try {
      await createWidgets(cluster);
      cluster.mode = { kind: 'never-answer' };
      const step = recorded.steps[0] as Step;
      const reply = await cluster.replay(step);
      expect(reply.status).toBe(500);
      const port = new URL(`https://${String(cluster.received.at(-1)?.headers.host)}`).port;
      const expected = JSON.parse(JSON.stringify(step.response.body).split('127.0.0.1:9445').join(`127.0.0.1:${port}`)) as unknown;
      expect(comparable(reply.body)).toEqual(comparable(expected));
    } finally {
      await cluster.h.close();
    }
  });
});

describe('close() with conversions in flight', () => {
  it.each(['create-v1', 'create-v1.no-watch-cache'])('ends the watches and returns (%s cluster)', async (name) => {
    const cluster = await recordedCluster(fixture(name), [], 0.1);
    const { api, namespace } = cluster;
    await createWidgets(cluster);
    cluster.mode = { kind: 'never-answer' };
    const watch = await openWatch(
      api,
      `/apis/stable.example.com/v2/namespaces/${namespace}/widgets?watch=1&resourceVersion=${api.store.resourceVersion}`,
      'msw',
    );
    // The write's event waits on a conversion that never comes: in the watch cache, or in the watch itself.
    const reply = await cluster.send(
      'POST',
      `/apis/stable.example.com/v1/namespaces/${namespace}/widgets`,
      widget(namespace, 'w4', 'v1', { color: 'yellow', size: 1 }),
    );
    expect(reply.status).toBe(201);
    await cluster.h.close();
    await watch.ended;
    expect(api.watches.size).toBe(0);
    expect(watch.events).toEqual([]);
  });
});

describe('a GET with a resourceVersion reads the watch cache', () => {
  it('get-v2 at resourceVersion=0 sends no review; without one, one review', async () => {
    const recorded = fixture('get-v2');
    const cluster = await recordedCluster(recorded);
    try {
      await createWidgets(cluster);
      const path = (recorded.steps[0] as Step).request.path;
      const from = cluster.received.length;
      const cached = await cluster.send('GET', `${path}?resourceVersion=0`);
      expect(cluster.received.length).toBe(from);
      const read = await cluster.send('GET', path);
      expect(cluster.received.length).toBe(from + 1);
      expect(comparable(cached.body)).toEqual(comparable((recorded.steps[0] as Step).response.body));
      expect(comparable(read.body)).toEqual(comparable((recorded.steps[0] as Step).response.body));
    } finally {
      await cluster.h.close();
    }
  });
});

describe('fail-unreachable: the webhook stopped, a GET in v2 answers the dial error and one in v1 the stored object', () => {
  it.each(['fail-unreachable', 'fail-unreachable.no-watch-cache'])('%s', async (name) => {
    const recorded = fixture(name);
    let server: LoopbackServer | undefined;
    const serving = await (await sharedAuthority()).issueServing();
    const cluster = await recordedCluster(recorded, [], 1, async (handler) => {
      server = await listenTls(handler, serving);
      return { url: `https://127.0.0.1:${server.port}` };
    });
    try {
      const port = (server as LoopbackServer).port;
      await createWidgets(cluster);
      // Recorded after fail-change-labels, whose writes the GET in v1 shows.
      cluster.mode = { kind: 'change-labels' };
      for (const step of fixture(name.replace('fail-unreachable', 'fail-change-labels')).steps) await cluster.replay(step);
      await cluster.api.settled();
      await server?.close();
      const [inV2, inV1] = recorded.steps as [Step, Step];
      // The CRD's URL names 127.0.0.1:9445; the harness dials the target's port in its place.
      const expected = JSON.parse(JSON.stringify(inV2.response.body).split('dial tcp 127.0.0.1:9445').join(`dial tcp 127.0.0.1:${port}`)) as unknown;
      const reply = await cluster.replay(inV2);
      expect(reply.status).toBe(500);
      expect(comparable(reply.body)).toEqual(comparable(expected));
      const stored = await cluster.replay(inV1);
      expect(stored.status).toBe(200);
      expect(comparable(stored.body)).toEqual(comparable(inV1.response.body));
    } finally {
      await cluster.h.close();
      await server?.close();
    }
  });
});
