// pods/binding and pods/eviction through the mock API (kubernetes pkg/registry/core/pod/storage BindingREST
// and EvictionREST): a Success Status with the create handler's 201, kube's conflict and budget texts.
import { startMockApi, type MockApi } from '../../lib/mockapi';
import { call, objectOf } from './client';

jest.setTimeout(60_000);

let api: MockApi;
beforeEach(async () => {
  api = await startMockApi({ seed: 43, namespaces: [{ name: 'team-a' }] });
  api.store.put({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'team-a', labels: { app: 'web' } },
    spec: { containers: [{ name: 'c', image: 'busybox' }] },
  });
});
afterEach(() => api.close());

const POD = '/api/v1/namespaces/team-a/pods/p';
const SUCCESS = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 };

describe('pods/binding', () => {
  it('assigns the node once, then refuses with the binding conflict', async () => {
    const binding = { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p' }, target: { apiVersion: 'v1', kind: 'Node', name: 'node-1' } };
    const bound = await call(api, 'POST', `${POD}/binding`, binding);
    expect({ status: bound.status, body: bound.body }).toEqual({ status: 201, body: SUCCESS });
    expect((objectOf(await call(api, 'GET', POD)).spec as { nodeName?: string }).nodeName).toBe('node-1');
    const again = await call(api, 'POST', `${POD}/binding`, { ...binding, target: { name: 'node-2' } });
    expect(again.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Operation cannot be fulfilled on pods/binding "p": pod p is already assigned to node "node-1"',
      reason: 'Conflict',
      details: { name: 'p', kind: 'pods/binding' },
      code: 409,
    });
  });

  it('is served only for POST', async () => {
    expect((await call(api, 'GET', `${POD}/binding`)).status).toBe(405);
  });
});

describe('pods/eviction', () => {
  const eviction = { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'p', namespace: 'team-a' } };

  it('deletes the pod when no budget stands in the way', async () => {
    const reply = await call(api, 'POST', `${POD}/eviction`, eviction);
    expect({ status: reply.status, body: reply.body }).toEqual({ status: 201, body: SUCCESS });
    expect((await call(api, 'GET', POD)).status).toBe(404);
  });

  it('refuses with 429 while a budget that selects the pod allows no disruption', async () => {
    api.store.put({
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'web', namespace: 'team-a' },
      spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } },
      status: { disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1 },
    });
    const reply = await call(api, 'POST', `${POD}/eviction`, eviction);
    expect(reply.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: "Cannot evict pod as it would violate the pod's disruption budget.",
      reason: 'TooManyRequests',
      details: { causes: [{ reason: 'DisruptionBudget', message: 'The disruption budget web needs 1 healthy pods and has 1 currently' }] },
      code: 429,
    });
    expect((await call(api, 'GET', POD)).status).toBe(200);
  });

  it('refuses an Eviction naming another pod', async () => {
    const reply = await call(api, 'POST', `${POD}/eviction`, { ...eviction, metadata: { name: 'q' } });
    expect(reply.status).toBe(400);
  });
});
