// The mock API's subresource writes through the harness's admission chain (`admitWrites`), over real TLS, as
// kube-apiserver admits them: a pod's binding and eviction as a CREATE of the Binding / policy/v1 Eviction
// (k8s.io/apiserver/pkg/endpoints/handlers/create.go `createHandler`), a workload's scale as an UPDATE of an
// autoscaling/v1 Scale with the current Scale as oldObject (update.go `UpdateResource`, patch.go
// `patchResource`). Requests are compared with the captures pods-eviction, pods-binding, bindings-create-legacy,
// deployments-scale-update and deployments-scale-patch-subresource, recorded on a real kube-apiserver v1.36.2.
import * as k8s from '@kubernetes/client-node';
import { createHarness, stub, type Harness, type HarnessOptions } from '../../lib';
import type { AdmissionRequest, KubeObject } from '../../lib/kube/admission';
import { startMockApi, type MockApi } from '../../lib/mockapi';
import { mutating, validating } from '../dispatch/helpers';
import { actionRequest, manifestOf, withoutManagedFields } from '../review/captures';
import { objectOf, tlsCall } from './client';

jest.setTimeout(120_000);

// The recording's webhooks matched everything (README of the captures).
const everything = [{ apiGroups: ['*'], apiVersions: ['*'], operations: ['*'], resources: ['*/*'], scope: '*' as const }];

const pod = (name: string, extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'cap' },
  spec: { containers: [{ name: 'c', image: 'nginx:1.27' }], ...extra },
});

const deployment = (replicas: number): KubeObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'cap' },
  spec: {
    replicas,
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } },
  },
});

/** What a request says about itself, uid and user aside (the recording's user is its admin). */
const shape = (r: AdmissionRequest | undefined) => ({
  kind: r?.kind,
  resource: r?.resource,
  subResource: r?.subResource,
  requestKind: r?.requestKind,
  requestResource: r?.requestResource,
  requestSubResource: r?.requestSubResource,
  name: r?.name,
  namespace: r?.namespace,
  operation: r?.operation,
  dryRun: r?.dryRun,
  options: r?.options,
});

/** A webhook refusal as the client receives it (webhook/errors ToStatusErr: code 400 for a denial without one). */
const denial = (webhook: string, message: string) => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: `admission webhook "${webhook}" denied the request: ${message}`,
  code: 400,
});

describe('the mock API admits subresource writes through the harness chain (admitWrites)', () => {
  let api: MockApi;
  let h: Harness;
  afterEach(async () => {
    await h.close();
    await api.close();
  });

  const cluster = async (objects: KubeObject[], manifests: Record<string, unknown>[], stubs: HarnessOptions['stubs']) => {
    api = await startMockApi({ seed: 27, intercept: false, admitWrites: true, namespaces: [{ name: 'cap' }] });
    for (const object of objects) api.store.put(object);
    h = await createHarness({ seed: 27, mockApi: api, manifests, ...(stubs ? { stubs } : {}) });
  };
  const kubeconfig = () => {
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(api.kubeconfigPath);
    return kc;
  };

  it('pods-eviction: an eviction is a CREATE of the policy/v1 Eviction on pods/eviction; admitted, the pod goes', async () => {
    await cluster([pod('evictme')], [mutating('m', { name: 'observe.example.com', rules: everything })], { 'observe.example.com': stub.allow() });
    const evicted = await tlsCall(api, 'POST', '/api/v1/namespaces/cap/pods/evictme/eviction', manifestOf('pods-eviction.json'));
    expect([evicted.status, evicted.body]).toEqual([201, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 }]);
    const recorded = actionRequest('pods-eviction.json');
    const sent = h.stub('observe.example.com').received[0]?.request;
    expect(shape(sent)).toEqual(shape(recorded));
    expect(withoutManagedFields(sent?.object ?? null)).toEqual(withoutManagedFields(recorded.object));
    expect(sent?.oldObject).toBeNull();
    expect((await tlsCall(api, 'GET', '/api/v1/namespaces/cap/pods/evictme')).status).toBe(404);
  });

  it('answers an eviction a validating webhook denies with the webhook’s Status, and the pod stays (client-node)', async () => {
    await cluster([pod('keep')], [validating('v', { name: 'deny.example.com', rules: everything })], {
      'deny.example.com': stub.deny({ message: 'no evictions today' }),
    });
    const core = kubeconfig().makeApiClient(k8s.CoreV1Api);
    const refused = await core.createNamespacedPodEviction({ name: 'keep', namespace: 'cap', body: { metadata: { name: 'keep', namespace: 'cap' } } }).then(
      () => undefined,
      (error: { code: number; body: string }) => error,
    );
    expect(refused?.code).toBe(400);
    expect(JSON.parse(refused?.body ?? '{}')).toEqual(denial('deny.example.com', 'no evictions today'));
    expect((await tlsCall(api, 'GET', '/api/v1/namespaces/cap/pods/keep')).status).toBe(200);
  });

  it('acts on the mutated Eviction: a webhook renaming it makes EvictionREST refuse the name, and the pod stays', async () => {
    await cluster([pod('evictme')], [mutating('m', { name: 'rename.example.com', rules: everything })], {
      'rename.example.com': stub.patch([{ op: 'replace', path: '/metadata/name', value: 'someone-else' }]),
    });
    const refused = await tlsCall(api, 'POST', '/api/v1/namespaces/cap/pods/evictme/eviction', manifestOf('pods-eviction.json'));
    expect(refused.status).toBe(400);
    expect((refused.body as { message: string }).message).toBe('name in URL does not match name in Eviction object');
    expect((await tlsCall(api, 'GET', '/api/v1/namespaces/cap/pods/evictme')).status).toBe(200);
  });

  it('honours a dry run a mutating webhook puts in the Eviction’s deleteOptions (eviction.go propagateDryRun): the pod stays', async () => {
    await cluster([pod('evictme')], [mutating('m', { name: 'dry.example.com', rules: everything })], {
      'dry.example.com': stub.patch([{ op: 'add', path: '/deleteOptions/dryRun', value: ['All'] }]),
    });
    const evicted = await tlsCall(api, 'POST', '/api/v1/namespaces/cap/pods/evictme/eviction', manifestOf('pods-eviction.json'));
    expect(evicted.status).toBe(201);
    expect((await tlsCall(api, 'GET', '/api/v1/namespaces/cap/pods/evictme')).status).toBe(200);
  });

  it('pods-binding: a binding is a CREATE of the v1 Binding on pods/binding; a mutated target is where the pod goes', async () => {
    await cluster([pod('unbound')], [mutating('m', { name: 'observe.example.com', rules: everything })], { 'observe.example.com': stub.allow() });
    const bound = await tlsCall(api, 'POST', '/api/v1/namespaces/cap/pods/unbound/binding', manifestOf('pods-binding.json'));
    expect(bound.status).toBe(201);
    const recorded = actionRequest('pods-binding.json');
    const sent = h.stub('observe.example.com').received[0]?.request;
    expect(shape(sent)).toEqual(shape(recorded));
    expect(withoutManagedFields(sent?.object ?? null)).toEqual(withoutManagedFields(recorded.object));
    expect((objectOf(await tlsCall(api, 'GET', '/api/v1/namespaces/cap/pods/unbound')).spec as { nodeName?: string }).nodeName).toBe('capnode');

    api.store.put(pod('second'));
    h.stub('observe.example.com').behavior = stub.patch([{ op: 'replace', path: '/target/name', value: 'node-b' }]);
    const binding = { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'second' }, target: { apiVersion: 'v1', kind: 'Node', name: 'capnode' } };
    expect((await tlsCall(api, 'POST', '/api/v1/namespaces/cap/pods/second/binding', binding)).status).toBe(201);
    expect((objectOf(await tlsCall(api, 'GET', '/api/v1/namespaces/cap/pods/second')).spec as { nodeName?: string }).nodeName).toBe('node-b');
  });

  it('bindings-create-legacy: a POST to namespaces/<ns>/bindings is a CREATE of the Binding on bindings, and binds the pod', async () => {
    await cluster([pod('unbound2')], [mutating('m', { name: 'observe.example.com', rules: everything })], { 'observe.example.com': stub.allow() });
    const bound = await tlsCall(api, 'POST', '/api/v1/namespaces/cap/bindings', manifestOf('bindings-create-legacy.json'));
    expect([bound.status, bound.body]).toEqual([201, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 }]);
    const recorded = actionRequest('bindings-create-legacy.json');
    const sent = h.stub('observe.example.com').received[0]?.request;
    expect(shape(sent)).toEqual(shape(recorded));
    expect(withoutManagedFields(sent?.object ?? null)).toEqual(withoutManagedFields(recorded.object));
    expect((objectOf(await tlsCall(api, 'GET', '/api/v1/namespaces/cap/pods/unbound2')).spec as { nodeName?: string }).nodeName).toBe('capnode');
  });

  it('answers a binding a validating webhook denies with the webhook’s Status, and the pod stays unbound', async () => {
    await cluster([pod('unbound')], [validating('v', { name: 'deny.example.com', rules: everything })], {
      'deny.example.com': stub.deny({ message: 'the scheduler is paused' }),
    });
    const refused = await tlsCall(api, 'POST', '/api/v1/namespaces/cap/pods/unbound/binding', manifestOf('pods-binding.json'));
    expect([refused.status, refused.body]).toEqual([400, denial('deny.example.com', 'the scheduler is paused')]);
    expect((objectOf(await tlsCall(api, 'GET', '/api/v1/namespaces/cap/pods/unbound')).spec as { nodeName?: string }).nodeName).toBeUndefined();
  });

  it('deployments-scale-update: a PUT of a Scale is an UPDATE of autoscaling/v1 Scale, oldObject the current Scale (client-node)', async () => {
    await cluster([deployment(3)], [mutating('m', { name: 'observe.example.com', rules: everything })], { 'observe.example.com': stub.allow() });
    const apps = kubeconfig().makeApiClient(k8s.AppsV1Api);
    const scaled = await apps.replaceNamespacedDeploymentScale({
      name: 'web',
      namespace: 'cap',
      body: manifestOf('deployments-scale-update.json') as k8s.V1Scale,
    });
    expect(scaled.spec?.replicas).toBe(5);
    const recorded = actionRequest('deployments-scale-update.json');
    const sent = h.stub('observe.example.com').received[0]?.request;
    // kubectl's client sent no fieldManager there; client-node sends none either.
    expect(shape(sent)).toEqual(shape(recorded));
    expect(withoutManagedFields(sent?.object ?? null)).toEqual(withoutManagedFields(recorded.object));
    const old = sent?.oldObject as { kind?: string; spec?: unknown; metadata?: { name?: string } };
    expect([old.kind, old.metadata?.name, old.spec]).toEqual(['Scale', 'web', { replicas: 3 }]);
    expect((objectOf(await tlsCall(api, 'GET', '/apis/apps/v1/namespaces/cap/deployments/web')).spec as { replicas?: number }).replicas).toBe(5);
  });

  it('deployments-scale-patch-subresource: a patch of the scale is an UPDATE of the patched Scale with UpdateOptions', async () => {
    await cluster([deployment(5)], [mutating('m', { name: 'observe.example.com', rules: everything })], { 'observe.example.com': stub.allow() });
    const patched = await tlsCall(
      api,
      'PATCH',
      '/apis/apps/v1/namespaces/cap/deployments/web/scale?fieldManager=kubectl-patch',
      { spec: { replicas: 2 } },
      'application/merge-patch+json',
    );
    expect(patched.status).toBe(200);
    const recorded = actionRequest('deployments-scale-patch-subresource.json');
    const sent = h.stub('observe.example.com').received[0]?.request;
    expect(shape(sent)).toEqual(shape(recorded));
    const [object, old] = [sent?.object, sent?.oldObject] as { kind: string; spec: unknown; metadata: { uid?: string } }[];
    expect([object?.kind, object?.spec, old?.kind, old?.spec]).toEqual(['Scale', { replicas: 2 }, 'Scale', { replicas: 5 }]);
    // The patch applies to the current Scale, which carries the deployment's identity.
    expect(object?.metadata.uid).toBe(old?.metadata.uid);
  });

  it('moves the mutated Scale’s replicas onto the deployment, as scaleUpdatedObjectInfo does', async () => {
    await cluster([deployment(3)], [mutating('m', { name: 'cap.example.com', rules: everything })], {
      'cap.example.com': stub.patch([{ op: 'replace', path: '/spec/replicas', value: 4 }]),
    });
    const scaled = await tlsCall(api, 'PUT', '/apis/apps/v1/namespaces/cap/deployments/web/scale', manifestOf('deployments-scale-update.json'));
    expect([scaled.status, (objectOf(scaled).spec as { replicas?: number }).replicas]).toEqual([200, 4]);
    expect((objectOf(await tlsCall(api, 'GET', '/apis/apps/v1/namespaces/cap/deployments/web')).spec as { replicas?: number }).replicas).toBe(4);
  });

  it('answers a scale a validating webhook denies with the webhook’s Status, and the replicas stay', async () => {
    await cluster([deployment(3)], [validating('v', { name: 'deny.example.com', rules: everything })], {
      'deny.example.com': stub.deny({ message: 'replicas are frozen' }),
    });
    const refused = await tlsCall(
      api,
      'PATCH',
      '/apis/apps/v1/namespaces/cap/deployments/web/scale',
      { spec: { replicas: 9 } },
      'application/merge-patch+json',
    );
    expect([refused.status, refused.body]).toEqual([400, denial('deny.example.com', 'replicas are frozen')]);
    expect((objectOf(await tlsCall(api, 'GET', '/apis/apps/v1/namespaces/cap/deployments/web')).spec as { replicas?: number }).replicas).toBe(3);
  });
});
