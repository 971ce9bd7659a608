// kubernetes-fluent-client (the client Pepr's Watch and Store use) against the mock API of the packed package,
// through the kubeconfig startMockApi writes (KUBECONFIG), over real TLS: server-side Apply, Get, PatchStatus and a
// Watch that sees changes made through the API, through api.store and by delete.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startMockApi } from 'admission-harness';

let api;
let K8s;
let kind;

before(async () => {
  assert.equal(process.version, process.env.CONSUMER_EXPECT_NODE ?? process.version);
  api = await startMockApi({ seed: 11, intercept: false, namespaces: [{ name: 'team' }] });
  // The client reads KUBECONFIG when it first makes a request, as a webhook's process would have it set.
  process.env.KUBECONFIG = api.kubeconfigPath;
  ({ K8s, kind } = await import('kubernetes-fluent-client'));
});
after(() => api?.close());

const deployment = {
  metadata: { name: 'web', namespace: 'team' },
  spec: {
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
  },
};

test('Apply is a server-side apply under its field manager; Get reads one object and lists', async () => {
  const applied = await K8s(kind.ConfigMap).Apply({ metadata: { name: 'settings', namespace: 'team' }, data: { color: 'blue' } });
  assert.deepEqual(
    applied.metadata.managedFields.map((m) => [m.manager, m.operation, m.fieldsV1]),
    [['pepr', 'Apply', { 'f:data': { 'f:color': {} } }]],
  );
  assert.deepEqual((await K8s(kind.ConfigMap).InNamespace('team').Get('settings')).data, { color: 'blue' });
  const listed = await K8s(kind.ConfigMap).InNamespace('team').Get();
  assert.deepEqual(
    listed.items.map((item) => item.metadata.name),
    ['settings'],
  );
});

test('PatchStatus writes the status subresource only', async () => {
  await K8s(kind.Deployment).Apply(deployment);
  const patched = await K8s(kind.Deployment).PatchStatus({ metadata: { name: 'web', namespace: 'team' }, status: { observedGeneration: 1, replicas: 1 } });
  assert.deepEqual(patched.status, { observedGeneration: 1, replicas: 1 });
  assert.equal(api.store.read('apps/v1', 'Deployment', 'web', 'team').status.replicas, 1);
});

test('Watch lists, then sees a create through the API, a change through api.store and a delete', async () => {
  const events = [];
  let resolveAll;
  const fourth = new Promise((resolve) => (resolveAll = resolve));
  const watcher = K8s(kind.ConfigMap)
    .InNamespace('team')
    .Watch((object, phase) => {
      events.push([phase, object.metadata.name, object.data?.color]);
      if (events.length === 4) resolveAll();
    });
  await watcher.start();
  await K8s(kind.ConfigMap).Apply({ metadata: { name: 'watched', namespace: 'team' }, data: { color: 'red' } });
  api.store.put({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'watched', namespace: 'team' }, data: { color: 'green' } });
  await K8s(kind.ConfigMap).Delete({ metadata: { name: 'watched', namespace: 'team' } });
  await fourth;
  watcher.close();
  assert.deepEqual(events, [
    ['ADDED', 'settings', 'blue'],
    ['ADDED', 'watched', 'red'],
    ['MODIFIED', 'watched', 'green'],
    ['DELETED', 'watched', 'green'],
  ]);
});
