// A real client's informer against the mock API: @kubernetes/client-node 1.x's makeInformer lists, watches from
// the list's resourceVersion, and sees every change, whether made through the API, the store or another client.
import * as k8s from '@kubernetes/client-node';
import { startMockApi, type MockApi } from '../../../lib/mockapi';
import { request, type Transport } from './watch-client';

jest.setTimeout(60_000);

type Seen = [string, string, string | undefined];

/** Resolves with what the informer saw once `count` notifications arrived. */
function recorder(informer: k8s.Informer<k8s.V1ConfigMap>) {
  const seen: Seen[] = [];
  const waiters: { count: number; resolve: (seen: Seen[]) => void }[] = [];
  const note = (verb: string) => (object: k8s.V1ConfigMap) => {
    seen.push([verb, object.metadata?.name ?? '', object.data?.k]);
    for (const waiter of [...waiters]) if (seen.length >= waiter.count) waiter.resolve(seen.slice());
  };
  informer.on('add', note('add'));
  informer.on('update', note('update'));
  informer.on('delete', note('delete'));
  return {
    seen,
    until: (count: number) => (seen.length >= count ? Promise.resolve(seen.slice()) : new Promise<Seen[]>((resolve) => waiters.push({ count, resolve }))),
  };
}

describe.each<Transport>(['msw', 'loopback'])('client-node makeInformer over %s', (transport) => {
  let api: MockApi;
  beforeEach(async () => {
    api = await startMockApi({ seed: 30, intercept: transport === 'msw', namespaces: [{ name: 'team' }] });
  });
  afterEach(async () => {
    await api.close();
    expect(api.watches.size).toBe(0);
  });

  it('syncs, then sees ADDED/MODIFIED/DELETED made through the API, the store and another client', async () => {
    api.store.put({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'before', namespace: 'team' }, data: { k: '0' } });
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(api.kubeconfigPath);
    const core = kc.makeApiClient(k8s.CoreV1Api);
    const informer = k8s.makeInformer(kc, '/api/v1/namespaces/team/configmaps', () => core.listNamespacedConfigMap({ namespace: 'team' }));
    const errors: unknown[] = [];
    informer.on('error', (error) => errors.push(error));
    const { until } = recorder(informer);
    await informer.start();
    expect(await until(1)).toEqual([['add', 'before', '0']]);

    // Through the API, as the webhook's own client would write.
    await request(api, 'POST', '/api/v1/namespaces/team/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { k: '1' } });
    await until(2);
    // Through the store, as a test seeds or changes the cluster.
    api.store.put({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'team' }, data: { k: '2' } });
    await until(3);
    // Through another client.
    await core.deleteNamespacedConfigMap({ name: 'before', namespace: 'team' });
    const seen = await until(4);
    expect(seen).toEqual([
      ['add', 'before', '0'],
      ['add', 'a', '1'],
      ['update', 'a', '2'],
      ['delete', 'before', '0'],
    ]);
    expect(informer.list('team').map((c) => [c.metadata?.name, c.data?.k])).toEqual([['a', '2']]);
    expect(errors).toEqual([]);
    await informer.stop();
  });

  it('relists after a 410: a compacted history sends the informer back to a fresh list', async () => {
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(api.kubeconfigPath);
    const core = kc.makeApiClient(k8s.CoreV1Api);
    let lists = 0;
    const informer = k8s.makeInformer(kc, '/api/v1/namespaces/team/configmaps', () => {
      lists++;
      return core.listNamespacedConfigMap({ namespace: 'team' });
    });
    const { until } = recorder(informer);
    await informer.start();
    api.store.put({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'team' }, data: { k: '1' } });
    await until(1);
    // The watch ends (as at its timeout); the informer re-watches from the version it last saw, now compacted.
    api.store.put({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'other', namespace: 'default' } });
    api.store.compact();
    api.watches.closeAll();
    api.store.put({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'y', namespace: 'team' }, data: { k: '1' } });
    const seen = await until(2);
    expect(seen).toEqual([
      ['add', 'x', '1'],
      ['add', 'y', '1'],
    ]);
    expect(lists).toBeGreaterThanOrEqual(2);
    await informer.stop();
  });
});
