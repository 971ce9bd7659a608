// The mock API's writes at another version than the stored one, against the recordings in ./fixtures (recorded on
// a real kube-apiserver v1.36.2): the reviews sent (all but those kube sent to convert for its v1-only admission
// webhook, see forAdmission) and the answers, field by field but for uids, timestamps and resourceVersions.
import type { KubeObject } from '../../lib';
import { comparable, createWidgets, fixture, recordedCluster, recordedReviews, watchCacheOf, type Cluster, type Step } from './mock-api-cluster';

jest.setTimeout(120_000);

const both = (name: string): string[] => [name, `${name}.no-watch-cache`];

async function closing(cluster: Cluster, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } finally {
    await cluster.h.close();
  }
}

function expectAnswer(reply: { status: number; body: unknown }, step: Step): void {
  expect(reply.status).toBe(step.response.code);
  expect(comparable(reply.body)).toEqual(comparable(step.response.body));
}

describe('create-v2: a create in v2 is converted to v1 for storage and back to v2 for the answer', () => {
  it.each(['create-v2', 'create-v2.no-watch-cache'])('%s', async (name) => {
    const recorded = fixture(name);
    const cached = watchCacheOf(recorded);
    // With the watch cache, the recording starts with the v2 cache's relist after an apiserver restart: the
    // objects then stored (in namespace o4-conv) are converted one review each on the first request.
    const relisted = cached ? recorded.backendReceived.filter((review) => review.body.request.objects[0]?.metadata?.namespace === 'o4-conv') : [];
    const cluster = await recordedCluster(recorded, cached ? ['o4-conv'] : []);
    await closing(cluster, async () => {
      for (const review of relisted) cluster.api.store.put(review.body.request.objects[0] as KubeObject);
      expectAnswer(await cluster.replay(recorded.steps[0] as Step), recorded.steps[0] as Step);
      await cluster.api.settled();
      expect(cluster.reviewsSince(0, cached)).toEqual(recordedReviews(recorded, cached));
      // Stored at v1: the storage version's fields, read without a review.
      const stored = cluster.api.store.read('stable.example.com/v1', 'Widget', 'w1', cluster.namespace);
      expect(stored?.spec).toEqual({ color: 'red', size: 1 });
    });
  });
});

describe('create-v1: a create at the storage version sends no review of its own', () => {
  it.each(['create-v1', 'create-v1.no-watch-cache'])('%s', async (name) => {
    const recorded = fixture(name);
    const cached = watchCacheOf(recorded);
    const cluster = await recordedCluster(recorded);
    await closing(cluster, async () => {
      const w1 = {
        apiVersion: 'stable.example.com/v2',
        kind: 'Widget',
        metadata: { name: 'w1', namespace: cluster.namespace },
        spec: { colour: 'red', size: 1 },
      };
      expect((await cluster.send('POST', `/apis/stable.example.com/v2/namespaces/${cluster.namespace}/widgets`, w1)).status).toBe(201);
      await cluster.api.settled();
      const from = cluster.received.length;
      expectAnswer(await cluster.replay(recorded.steps[0] as Step), recorded.steps[0] as Step);
      await cluster.api.settled();
      // With the watch cache, its v2 cache converts the new object (one review); without it, nothing is sent.
      expect(cluster.reviewsSince(from, cached)).toEqual(recordedReviews(recorded, cached));
    });
  });
});

describe('fail-change-labels, after-failures-get-v1: labels a webhook adds on the write path are stored', () => {
  it.each([
    ['fail-change-labels', 'after-failures-get-v1'],
    ['fail-change-labels.no-watch-cache', 'after-failures-get-v1.no-watch-cache'],
  ])('%s, then %s', async (changeLabels, afterwards) => {
    const recorded = fixture(changeLabels);
    const cached = watchCacheOf(recorded);
    const cluster = await recordedCluster(recorded);
    await closing(cluster, async () => {
      await createWidgets(cluster);
      const from = cluster.received.length;
      cluster.mode = { kind: 'change-labels' };
      // GET w1 in v2, LIST in v2, POST f-change-labels in v2, merge-PATCH w1's labels in v2.
      for (const step of recorded.steps) expectAnswer(await cluster.replay(step), step);
      await cluster.api.settled();
      expect(cluster.reviewsSince(from, cached)).toEqual(recordedReviews(recorded, cached));
      cluster.mode = { kind: 'ok' };
      const after = fixture(afterwards);
      const get = after.steps[0] as Step;
      const sent = cluster.received.length;
      expectAnswer(await cluster.replay(get), get);
      expect(cluster.received.length).toBe(sent);
    });
  });
});

/**
 * kube converted a v2 create for its v1-only admission webhook before storage gave it a uid, so a webhook
 * changing the uid met `must have the same UID:  != …`; the mock API runs no admission webhooks on its
 * writes, so the first conversion a create meets is storage's, of the object with its uid.
 */
function createdByStorage(step: Step): Step {
  if (step.request.method !== 'POST') return step;
  const text = JSON.stringify(step.response.body)
    .split('must have the same UID:  != ')
    .join('must have the same UID: 11111111-1111-1111-1111-111111111111 != ');
  return { ...step, response: { ...step.response, body: JSON.parse(text) as Record<string, unknown> } };
}

describe('a failing webhook: every request of the recorded failure cases answers as kube did', () => {
  it.each([...both('fail-wrong-uid'), ...both('fail-failure-status'), ...both('fail-change-name'), ...both('fail-change-uid'), ...both('fail-http-500')])(
    '%s',
    async (name) => {
      const recorded = fixture(name);
      const cluster = await recordedCluster(recorded);
      await closing(cluster, async () => {
        await createWidgets(cluster);
        if (name.startsWith('fail-http-500')) {
          // Recorded after fail-change-labels, whose writes the watch cache's LIST shows.
          cluster.mode = { kind: 'change-labels' };
          for (const step of fixture(name.replace('fail-http-500', 'fail-change-labels')).steps) await cluster.replay(step);
          await cluster.api.settled();
        }
        cluster.mode = recorded.backendReceived[0]?.backendAnsweredWith ?? { kind: 'ok' };
        // GET w1 in v2 (500), LIST in v2 (500 without the watch cache, 200 from it), POST in v2 (500, the text
        // wrapped twice), merge-PATCH in v2 (500 at its first conversion: the read, or with the cache the encode).
        for (const step of recorded.steps) expectAnswer(await cluster.replay(step), createdByStorage(step));
      });
    },
  );
});
