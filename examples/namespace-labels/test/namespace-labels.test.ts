import path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { createHarness, objects, review, startMockApi, type Harness, type MockApi } from 'admission-harness';
import { createApp } from '../src/app';

const WEBHOOK = 'namespace-owner.example.com';
const MANIFESTS = [path.join(__dirname, '../deploy/webhooks.yaml')];
const NAMESPACES = [{ name: 'team-a', labels: { owner: 'alice' } }, { name: 'scratch' }];
// No timeScale: the manifest's timeoutSeconds 2 stays 2 s, so a call that must succeed keeps its whole
// deadline on a loaded CI runner. The deadline tests below use an API that never answers in time, so the
// deadline decides whatever the machine's speed.
const NEVER_MS = 3_600_000;

let api: MockApi;
let h: Harness;

/** A KubeConfig from the mock API's kubeconfig file, as `KUBECONFIG=<file>` would give the webhook. */
function kubeConfig(): KubeConfig {
  const config = new KubeConfig();
  config.loadFromFile(api.kubeconfigPath);
  return config;
}

beforeAll(async () => {
  api = await startMockApi({ namespaces: NAMESPACES, seed: 21 });
  // The app needs the API's kubeconfig before the harness exists, so the API is started first and handed over.
  // Its own API deadline, 1 s, halves the webhook's 2 s: room on either side for a loaded runner.
  h = await createHarness({ target: createApp({ kubeConfig: kubeConfig(), apiTimeoutMs: 1000 }), manifests: MANIFESTS, mockApi: api, seed: 21 });
});
afterEach(() => {
  api.faults.clear();
  api.writes.clear();
});
afterAll(async () => {
  await h.close();
  await api.close();
});

describe('normal behavior', () => {
  it('allows a pod in a namespace with an owner label', async () => {
    const outcome = await h.call(WEBHOOK, review.create(objects.pod({ namespace: 'team-a' })));
    expect(outcome).toBeAllowed();
    expect(outcome).toEchoUid();
  });

  it('denies a pod in a namespace without one', async () => {
    const outcome = await h.call(WEBHOOK, review.create(objects.pod({ namespace: 'scratch' })));
    expect(outcome).toBeDenied({ code: 403, message: 'namespace "scratch" has no owner label: label it with the team that owns it' });
  });

  it('reads the labels as they are now: labelling the namespace through the API lets the pod in', async () => {
    api.namespaces.set({ name: 'late', labels: {} });
    const pod = review.create(objects.pod({ namespace: 'late' }));
    expect(await h.call(WEBHOOK, pod)).toBeDenied({ code: 403 });
    api.namespaces.set({ name: 'late', labels: { owner: 'bob' } });
    expect(await h.call(WEBHOOK, pod)).toBeAllowed();
  });
});

describe('a slow API', () => {
  it('still gets an answer within the webhook timeout: the webhook gives up on the API first', async () => {
    api.faults.inject({ path: '/api/v1/namespaces/*', verb: 'get', latencyMs: NEVER_MS });
    const pod = review.create(objects.pod({ namespace: 'team-a' }));
    const outcome = await h.call(WEBHOOK, pod);
    expect(outcome).toBeDenied({ code: 503, message: 'cannot check namespace "team-a": the API did not answer within 1000ms' });
    await expect(h.webhook(WEBHOOK)).toRespondWithin('timeoutSeconds', { review: pod, samples: 4, concurrency: 2 });
  });

  it('without its own deadline, the webhook times out and kube-apiserver fails the request (failurePolicy Fail)', async () => {
    const patient = await createHarness({
      target: createApp({ kubeConfig: kubeConfig(), apiTimeoutMs: Infinity }),
      manifests: MANIFESTS,
      mockApi: api,
      seed: 21,
    });
    try {
      api.faults.inject({ path: '/api/v1/namespaces/*', verb: 'get', latencyMs: NEVER_MS });
      const outcome = await patient.call(WEBHOOK, review.create(objects.pod({ namespace: 'team-a' })));
      expect(outcome.allowed).toBe(false);
      expect(outcome.error?.message).toMatch(/failed calling webhook "namespace-owner.example.com": .*context deadline exceeded/);
      const result = await patient.admit(review.create(objects.pod({ namespace: 'team-a' })));
      expect(result.allowed).toBe(false);
      expect(result.status?.message).toMatch(/context deadline exceeded/);
    } finally {
      await patient.close();
    }
  });
});

describe('side effects', () => {
  it('records an Event for a denial, attributed to the admission request', async () => {
    const outcome = await h.call(WEBHOOK, review.create(objects.pod({ name: 'web', namespace: 'scratch' })));
    expect(outcome.writes).toEqual([expect.objectContaining({ verb: 'create', path: '/api/v1/namespaces/scratch/events', code: 201, dryRun: false })]);
    expect(outcome).not.toCauseNoWrites();
    const events = api.store.list(api.store.entryFor('v1', 'Event'), 'scratch').items;
    expect(events).toContainEqual(expect.objectContaining({ reason: 'MissingOwner', involvedObject: expect.objectContaining({ kind: 'Pod', name: 'web' }) }));
  });

  it('leaves no writes on a dry run (sideEffects: NoneOnDryRun)', async () => {
    const outcome = await h.call(WEBHOOK, review.create(objects.pod({ namespace: 'scratch' })).dryRun());
    expect(outcome).toBeDenied({ code: 403 });
    expect(outcome).toCauseNoWrites();
    expect(await h.admit(review.create(objects.pod({ namespace: 'scratch' })).dryRun())).toCauseNoWrites();
  });
});
