// The mock API's deletecollection and its server-side apply that creates, through the harness's admission
// chain (`admitWrites`), over real TLS, as kube-apiserver admits them: a deletecollection is one DELETE per
// item with an empty name (k8s.io/apiserver/pkg/endpoints/handlers/delete.go `DeleteCollection`), an apply of
// an object that does not exist a CREATE with CreateOptions (patch.go `patchResource`). Requests are compared
// with the captures configmaps-deletecollection, configmaps-apply-create, deployments-apply-create and
// configmaps-patch-apply, recorded on a real kube-apiserver v1.36.2.
import * as k8s from '@kubernetes/client-node';
import { createHarness, stub, type Harness, type HarnessOptions } from '../../lib';
import type { AdmissionRequest, KubeObject } from '../../lib/kube/admission';
import { startMockApi, type MockApi } from '../../lib/mockapi';
import { mutating, validating } from '../dispatch/helpers';
import { actionRequests, capture, manifestOf } from '../review/captures';
import { objectOf, tlsCall } from './client';

jest.setTimeout(120_000);

const everything = [{ apiGroups: ['*'], apiVersions: ['*'], operations: ['*'], resources: ['*/*'], scope: '*' as const }];

const configMap = (name: string, labels: Record<string, string>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'cap', labels },
  data: { k: 'v' },
});

const shape = (r: AdmissionRequest | undefined) => ({
  kind: r?.kind,
  resource: r?.resource,
  subResource: r?.subResource,
  requestKind: r?.requestKind,
  requestResource: r?.requestResource,
  name: r?.name,
  namespace: r?.namespace,
  operation: r?.operation,
  dryRun: r?.dryRun,
  options: r?.options,
});

const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;
/** `value` with its timestamps (managedFields' times) as placeholders: they differ from run to run on kube too. */
const timeless = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value), (_key, member: unknown) => (typeof member === 'string' && TIME.test(member) ? '<time>' : member));

const denial = (webhook: string, message: string) => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: `admission webhook "${webhook}" denied the request: ${message}`,
  code: 400,
});

describe('the mock API admits deletecollection and an apply that creates (admitWrites)', () => {
  let api: MockApi;
  let h: Harness;
  afterEach(async () => {
    await h.close();
    await api.close();
  });

  const cluster = async (objects: KubeObject[], manifests: Record<string, unknown>[], stubs: HarnessOptions['stubs']) => {
    api = await startMockApi({ seed: 27, intercept: false, admitWrites: true, namespaces: [{ name: 'cap' }] });
    for (const object of objects) api.store.put(object);
    // The recording ran with --disable-admission-plugins=ServiceAccount.
    h = await createHarness({ seed: 27, mockApi: api, manifests, plugins: { disable: ['ServiceAccount'] }, ...(stubs ? { stubs } : {}) });
  };
  const names = async (): Promise<string[]> =>
    ((objectOf(await tlsCall(api, 'GET', '/api/v1/namespaces/cap/configmaps')) as { items: KubeObject[] }).items ?? []).map((o) => o.metadata?.name ?? '');
  const selected = [configMap('dc1', { app: 'demo', dc: 'yes' }), configMap('dc2', { app: 'demo', dc: 'yes' }), configMap('other', { app: 'demo' })];

  it('configmaps-deletecollection: one DELETE per selected item, with an empty name and the item as oldObject', async () => {
    await cluster(selected, [mutating('m', { name: 'observe.example.com', rules: everything })], { 'observe.example.com': stub.allow() });
    const listed = objectOf(await tlsCall(api, 'GET', '/api/v1/namespaces/cap/configmaps?labelSelector=dc%3Dyes'));
    const answered = await tlsCall(api, 'DELETE', '/api/v1/namespaces/cap/configmaps?labelSelector=dc%3Dyes');
    // The list as the store listed it before deleting (store.go DeleteCollection answers listObj).
    expect([answered.status, answered.body]).toEqual([200, listed]);
    const recorded = actionRequests('configmaps-deletecollection.json');
    const sent = h.stub('observe.example.com').received.map((review) => review.request);
    expect(sent.map(shape)).toEqual(recorded.map(shape));
    expect(sent.map((r) => [r?.name, r?.object, r?.oldObject?.kind, r?.oldObject?.metadata?.name])).toEqual([
      [undefined, null, 'ConfigMap', 'dc1'],
      [undefined, null, 'ConfigMap', 'dc2'],
    ]);
    expect(await names()).toEqual(['other']);
  });

  it('stops at the first item refused: those before it are deleted, the client gets the refusal (client-node)', async () => {
    const refusing = { name: 'deny.example.com', rules: everything, matchConditions: [{ name: 'dc2', expression: "oldObject.metadata.name == 'dc2'" }] };
    await cluster(selected, [validating('v', refusing)], { 'deny.example.com': stub.deny({ message: 'dc2 stays' }) });
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(api.kubeconfigPath);
    const refused = await kc
      .makeApiClient(k8s.CoreV1Api)
      .deleteCollectionNamespacedConfigMap({ namespace: 'cap', labelSelector: 'dc=yes' })
      .then(
        () => undefined,
        (error: { code: number; body: string }) => error,
      );
    expect(refused?.code).toBe(400);
    expect(JSON.parse(refused?.body ?? '{}')).toEqual(denial('deny.example.com', 'dc2 stays'));
    expect(await names()).toEqual(['dc2', 'other']);
  });

  it('admits a dry-run deletecollection as dry runs, deleting nothing', async () => {
    await cluster(selected, [mutating('m', { name: 'observe.example.com', rules: everything, sideEffects: 'None' })], { 'observe.example.com': stub.allow() });
    const answered = await tlsCall(api, 'DELETE', '/api/v1/namespaces/cap/configmaps?labelSelector=dc%3Dyes&dryRun=All');
    expect(answered.status).toBe(200);
    const sent = h.stub('observe.example.com').received.map((review) => review.request);
    expect(sent.map((r) => [r?.dryRun, r?.options])).toEqual([
      [true, { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', dryRun: ['All'] }],
      [true, { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', dryRun: ['All'] }],
    ]);
    expect(await names()).toEqual(['dc1', 'dc2', 'other']);
  });

  it.each(['deployments-deletecollection', 'secrets-deletecollection', 'services-deletecollection'])(
    '%s: the recorded items, one DELETE each with an empty name',
    async (file) => {
      const recorded = actionRequests(`${file}.json`);
      const seeded = recorded.map((r) => {
        const { uid: _uid, resourceVersion: _rv, creationTimestamp: _created, managedFields: _fields, ...metadata } = r.oldObject?.metadata ?? {};
        return { ...(r.oldObject as KubeObject), metadata };
      });
      await cluster(seeded, [mutating('m', { name: 'observe.example.com', rules: everything })], { 'observe.example.com': stub.allow() });
      const [, where] = /'https:\/\/[^/]+(\/[^']+)'/.exec(capture(`${file}.json`).client) ?? [];
      const answered = await tlsCall(api, 'DELETE', where ?? '');
      expect(answered.status).toBe(200);
      const sent = h.stub('observe.example.com').received.map((review) => review.request);
      expect(sent.map(shape)).toEqual(recorded.map(shape));
      expect(sent.map((r) => r?.oldObject?.metadata?.name)).toEqual(recorded.map((r) => r.oldObject?.metadata?.name));
    },
  );

  it('namespaces-deletecollection: refused 405 before any admission', async () => {
    await cluster([], [mutating('m', { name: 'observe.example.com', rules: everything })], { 'observe.example.com': stub.allow() });
    const refused = await tlsCall(api, 'DELETE', '/api/v1/namespaces?labelSelector=dc%3Dyes');
    expect([refused.status, refused.body]).toEqual([
      405,
      JSON.parse((capture('namespaces-deletecollection.json') as unknown as { clientResult: { stdout: string } }).clientResult.stdout),
    ]);
    expect(h.stub('observe.example.com').received).toHaveLength(0);
  });

  it.each([
    'configmaps-apply-create',
    'deployments-apply-create',
    'secrets-apply-create',
    'services-apply-create',
    'pods-apply-create',
    'namespaces-apply-create',
  ])('%s: an apply of an object that does not exist is a CREATE with CreateOptions and the applied object', async (file) => {
    await cluster([], [mutating('m', { name: 'observe.example.com', rules: everything })], { 'observe.example.com': stub.allow() });
    const [recorded] = actionRequests(`${file}.json`);
    const group = recorded?.resource.group ? `/apis/${recorded.resource.group}` : '/api';
    const where = recorded?.namespace && recorded.resource.resource !== 'namespaces' ? `/namespaces/${recorded.namespace}` : '';
    const path = `${group}/${recorded?.resource.version}${where}/${recorded?.resource.resource}/${recorded?.name}`;
    const applied = await tlsCall(
      api,
      'PATCH',
      `${path}?fieldManager=capture&fieldValidation=Strict`,
      manifestOf(`${file}.json`),
      'application/apply-patch+yaml',
    );
    expect(applied.status).toBe(201);
    const sent = h.stub('observe.example.com').received[0]?.request;
    expect(shape(sent)).toEqual(shape(recorded));
    expect(timeless(sent?.object)).toEqual(timeless(recorded?.object));
    expect(sent?.oldObject).toBeNull();
    expect(capture(`${file}.json`).client).toContain('--server-side --field-manager=capture');
  });

  it('configmaps-patch-apply: an apply of an existing object stays an UPDATE with UpdateOptions (patchToUpdateOptions)', async () => {
    const [recorded] = actionRequests('configmaps-patch-apply.json');
    const existing = { ...(recorded?.oldObject as KubeObject) };
    const { uid: _uid, resourceVersion: _rv, creationTimestamp: _created, managedFields: _fields, ...metadata } = existing.metadata ?? {};
    await cluster([{ ...existing, metadata }], [mutating('m', { name: 'observe.example.com', rules: everything })], { 'observe.example.com': stub.allow() });
    const path = '/api/v1/namespaces/cap/configmaps/x1?fieldManager=capture&fieldValidation=Strict';
    const applied = await tlsCall(api, 'PATCH', path, manifestOf('configmaps-patch-apply.json'), 'application/apply-patch+yaml');
    expect(applied.status).toBe(200);
    const sent = h.stub('observe.example.com').received[0]?.request;
    expect(shape(sent)).toEqual(shape(recorded));
    expect([sent?.object?.metadata?.labels, sent?.oldObject?.metadata?.labels]).toEqual([
      recorded?.object?.metadata?.labels,
      recorded?.oldObject?.metadata?.labels,
    ]);
  });

  it('answers an apply that creates a validating webhook denies with its Status, and creates nothing', async () => {
    await cluster([], [validating('v', { name: 'deny.example.com', rules: everything })], { 'deny.example.com': stub.deny({ message: 'no new configmaps' }) });
    const path = '/api/v1/namespaces/cap/configmaps/x2';
    const refused = await tlsCall(api, 'PATCH', `${path}?fieldManager=capture`, manifestOf('configmaps-apply-create.json'), 'application/apply-patch+yaml');
    expect([refused.status, refused.body]).toEqual([400, denial('deny.example.com', 'no new configmaps')]);
    expect((await tlsCall(api, 'GET', path)).status).toBe(404);
  });

  it('creates what a mutating webhook made of an applied object', async () => {
    await cluster([], [mutating('m', { name: 'label.example.com', rules: everything })], {
      'label.example.com': stub.patch([{ op: 'add', path: '/metadata/labels/stamped', value: 'yes' }]),
    });
    const path = '/api/v1/namespaces/cap/configmaps/x2';
    const applied = await tlsCall(api, 'PATCH', `${path}?fieldManager=capture`, manifestOf('configmaps-apply-create.json'), 'application/apply-patch+yaml');
    expect(applied.status).toBe(201);
    expect(objectOf(await tlsCall(api, 'GET', path)).metadata?.labels).toEqual({ app: 'demo', stamped: 'yes' });
  });
});
