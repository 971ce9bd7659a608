// @kubernetes/client-node, 1.x and 2.x, against the mock API over real TLS (the loopback server, as another
// process would reach it): an informer that syncs then sees every change, a raw watch with bookmarks,
// KubernetesObjectApi (which finds each resource through discovery) and server-side apply with managers.
import * as k8s1 from '@kubernetes/client-node';
import * as k8s2 from '@kubernetes/client-node-2';
import { startMockApi, type MockApi } from '../../../lib/mockapi';

jest.setTimeout(120_000);

type ClientNode = typeof k8s1;
const CLIENTS: [string, ClientNode][] = [
  ['1.x', k8s1],
  ['2.x', k8s2 as unknown as ClientNode],
];

const deployment = (name: string, replicas: number, image = 'nginx:1.27') => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: 'team' },
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'web', image }] } },
  },
});

/** Every notification an informer gives, as [verb, name, replicas]; `until(n)` waits for the n-th. */
function recorder(informer: k8s1.Informer<k8s1.V1Deployment>) {
  const seen: [string, string, number | undefined][] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const note = (verb: string) => (object: k8s1.V1Deployment) => {
    seen.push([verb, object.metadata?.name ?? '', object.spec?.replicas]);
    for (const waiter of waiters.filter((w) => seen.length >= w.count)) waiter.resolve();
  };
  for (const verb of ['add', 'update', 'delete'] as const) informer.on(verb, note(verb));
  const until = (count: number) => (seen.length >= count ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ count, resolve })));
  return { seen, until };
}

describe.each(CLIENTS)('@kubernetes/client-node %s against the mock API', (_version, k8s) => {
  let api: MockApi;
  let kc: k8s1.KubeConfig;
  beforeEach(async () => {
    api = await startMockApi({ seed: 27, intercept: false, namespaces: [{ name: 'team' }] });
    kc = new k8s.KubeConfig();
    kc.loadFromFile(api.kubeconfigPath);
  });
  afterEach(async () => {
    await api.close();
    expect(api.watches.size).toBe(0);
  });

  it('an informer syncs its list, then sees adds, updates and deletes made through the API, api.store and another client', async () => {
    for (const name of ['a', 'b', 'c']) api.store.put(deployment(name, 1));
    const apps = kc.makeApiClient(k8s.AppsV1Api);
    const informer = k8s.makeInformer(kc, '/apis/apps/v1/namespaces/team/deployments', () => apps.listNamespacedDeployment({ namespace: 'team' }));
    const errors: unknown[] = [];
    informer.on('error', (error) => errors.push(error));
    const { seen, until } = recorder(informer);
    await informer.start();
    await until(3);
    expect(informer.list('team').map((d) => d.metadata?.name)).toEqual(['a', 'b', 'c']);

    const objects = k8s.KubernetesObjectApi.makeApiClient(kc);
    await objects.create(deployment('d', 2)); // through the API, by another client
    await until(4);
    api.store.put(deployment('a', 5)); // through the store, as a test changes the cluster
    await until(5);
    await apps.deleteNamespacedDeployment({ name: 'b', namespace: 'team' }); // through the typed client
    await until(6);
    await apps.patchNamespacedDeploymentScale(
      { name: 'c', namespace: 'team', body: [{ op: 'replace', path: '/spec/replicas', value: 3 }] },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.JsonPatch),
    );
    await until(7);
    expect(seen.slice(3)).toEqual([
      ['add', 'd', 2],
      ['update', 'a', 5],
      ['delete', 'b', 1],
      ['update', 'c', 3],
    ]);
    expect(Object.fromEntries(informer.list('team').map((d) => [d.metadata?.name, d.spec?.replicas]))).toEqual({ a: 5, c: 3, d: 2 });
    expect(errors).toEqual([]);
    await informer.stop();
  });

  it('Watch streams ADDED, MODIFIED and DELETED from the resourceVersion of a list', async () => {
    const core = kc.makeApiClient(k8s.CoreV1Api);
    const list = await core.listNamespacedConfigMap({ namespace: 'team' });
    const events: [string, string | undefined][] = [];
    let resolveDone!: () => void;
    const third = new Promise<void>((resolve) => (resolveDone = resolve));
    const request = await new k8s.Watch(kc).watch(
      '/api/v1/namespaces/team/configmaps',
      { resourceVersion: list.metadata?.resourceVersion, allowWatchBookmarks: true },
      (type: string, object: k8s1.V1ConfigMap) => {
        events.push([type, object.metadata?.name]);
        if (events.length === 3) resolveDone();
      },
      () => undefined,
    );
    await core.createNamespacedConfigMap({ namespace: 'team', body: { metadata: { name: 'w' }, data: { k: '1' } } });
    api.store.put({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'w', namespace: 'team' }, data: { k: '2' } });
    await core.deleteNamespacedConfigMap({ name: 'w', namespace: 'team' });
    await third;
    request.abort();
    expect(events).toEqual([
      ['ADDED', 'w'],
      ['MODIFIED', 'w'],
      ['DELETED', 'w'],
    ]);
  });

  it('KubernetesObjectApi creates, reads, lists, patches, replaces and deletes through discovery', async () => {
    const objects = k8s.KubernetesObjectApi.makeApiClient(kc);
    const created: k8s1.KubernetesObject = await objects.create(deployment('web', 1));
    expect(created.metadata?.uid).toMatch(/^[0-9a-f-]{36}$/);
    const read = await objects.read<k8s1.V1Deployment>({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'team' } });
    expect(read.spec?.template.spec?.containers[0]?.imagePullPolicy).toBe('IfNotPresent');
    const listed = await objects.list('apps/v1', 'Deployment', 'team');
    expect(listed.items.map((item) => item.metadata?.name)).toEqual(['web']);
    const patched = await objects.patch<k8s1.V1Deployment>(
      { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'team', labels: { tier: 'front' } } },
      undefined,
      undefined,
      undefined,
      undefined,
      k8s.PatchStrategy.MergePatch,
    );
    expect(patched.metadata?.labels).toEqual({ tier: 'front' });
    const replaced = await objects.replace<k8s1.V1Deployment>({ ...patched, spec: { ...(patched.spec as k8s1.V1DeploymentSpec), replicas: 4 } });
    expect(replaced.spec?.replicas).toBe(4);
    // A replace from the copy read before the patch: optimistic concurrency answers 409 with kube's text.
    const stale = objects.replace<k8s1.V1Deployment>({ ...read, spec: { ...(read.spec as k8s1.V1DeploymentSpec), replicas: 6 } });
    await expect(stale).rejects.toMatchObject({
      code: 409,
      body: expect.stringContaining(
        'Operation cannot be fulfilled on deployments.apps \\"web\\": the object has been modified; please apply your changes to the latest version and try again',
      ),
    });
    await objects.delete({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'team' } });
    expect((await objects.list('apps/v1', 'Deployment', 'team')).items).toEqual([]);
  });

  it('server-side apply records managers, answers a conflict with 409, takes fields over on force and drops what a manager stops applying', async () => {
    const objects = k8s.KubernetesObjectApi.makeApiClient(kc);
    const apply = (spec: object, manager: string, force = false) =>
      objects.patch<k8s1.V1ConfigMap>(spec as k8s1.V1ConfigMap, undefined, undefined, manager, force, k8s.PatchStrategy.ServerSideApply);
    const cm = (data?: Record<string, string>) => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'settings', namespace: 'team' },
      ...(data && { data }),
    });

    const first = await apply(cm({ color: 'blue', size: 'L' }), 'alpha');
    expect(first.metadata?.managedFields?.map((m) => [m.manager, m.operation])).toEqual([['alpha', 'Apply']]);
    await expect(apply(cm({ color: 'red' }), 'beta')).rejects.toMatchObject({
      code: 409,
      body: expect.stringContaining('Apply failed with 1 conflict: conflict with \\"alpha\\": .data.color'),
    });
    const forced = await apply(cm({ color: 'red' }), 'beta', true);
    expect(forced.data).toEqual({ color: 'red', size: 'L' });
    // alpha stops applying size (and no longer owns color): size goes, beta's color stays, alpha owns nothing.
    const after = await apply(cm(), 'alpha');
    expect(after.data).toEqual({ color: 'red' });
    expect(after.metadata?.managedFields?.map((m) => m.manager)).toEqual(['beta']);
  });
});
