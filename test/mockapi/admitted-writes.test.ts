// The mock API's writes through the harness's admission chain (`admitWrites`), as kube-apiserver's REST
// handlers admit every write (k8s.io/apiserver/pkg/endpoints/handlers/create.go `createHandler`, patch.go
// `patchResource`): other webhooks, ValidatingAdmissionPolicies and the built-in plugins see a client's write.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHarness, review, stub, type Harness, type HarnessOptions } from '../../lib';
import type { AdmissionReview, KubeObject } from '../../lib/kube/admission';
import { startMockApi } from '../../lib/mockapi';
import { ADMISSION_NESTING_LIMIT } from '../../lib/mockapi/writes/admission';
import { mutating, setLabel, validating } from '../dispatch/helpers';
import { call, configMap, objectOf } from './client';

jest.setTimeout(60_000);

const configMapRules = [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE', 'DELETE'], resources: ['configmaps'] }];
const podRules = [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] }];

const policy = (name: string, expression: string, messageExpression: string): KubeObject => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicy',
  metadata: { name },
  spec: {
    matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['configmaps'] }] },
    validations: [{ expression, messageExpression }],
  },
});
const binding = (name: string, policyName: string): KubeObject => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicyBinding',
  metadata: { name },
  spec: { policyName, validationActions: ['Deny'] },
});

// Who the mock API's kubeconfig token authenticates as (MockApiOptions.user's default).
const webhookUser = {
  username: 'system:serviceaccount:default:webhook',
  groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'],
};

/** A webhook that, while admitting a request, creates a ConfigMap through the mock API with the API's token. */
function writingWebhook(api: () => { url: string; token: string }) {
  return (req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', async () => {
      const sent = JSON.parse(body) as AdmissionReview;
      await fetch(`${api().url}/api/v1/namespaces/default/configmaps`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${api().token}` },
        body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'seen-' }, data: { uid: sent.request?.uid ?? '' } }),
      });
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ apiVersion: sent.apiVersion, kind: 'AdmissionReview', response: { uid: sent.request?.uid, allowed: true } }));
    });
  };
}

describe('the mock API admits its writes through the harness chain (admitWrites)', () => {
  let h: Harness;
  afterEach(() => h.close());

  const harness = async (options: Partial<HarnessOptions>): Promise<Harness> => {
    h = await createHarness({ seed: 27, namespaces: [{ name: 'team-a' }], mockApi: { admitWrites: true }, ...options } as HarnessOptions);
    return h;
  };

  it('is off by default: a write the validating webhook would deny is stored', async () => {
    await harness({
      mockApi: true,
      manifests: [validating('v', { name: 'deny.example.com', rules: configMapRules })],
      stubs: { 'deny.example.com': stub.deny() },
    });
    expect(h.api?.admitsWrites).toBe(false);
    const created = await call(h.api!, 'POST', '/api/v1/namespaces/team-a/configmaps', configMap('plain'));
    expect(created.status).toBe(201);
    expect(objectOf(await call(h.api!, 'GET', '/api/v1/namespaces/team-a/configmaps/plain')).data).toEqual({ k: 'v' });
    expect(h.stub('deny.example.com').received).toHaveLength(0);
  });

  it('answers a client’s write a validating webhook denies with the Status h.admit gives, and stores nothing', async () => {
    await harness({
      manifests: [validating('v', { name: 'deny.example.com', rules: configMapRules })],
      stubs: { 'deny.example.com': stub.deny({ message: 'configmaps are read-only here' }) },
    });
    const denied = await call(h.api!, 'POST', '/api/v1/namespaces/team-a/configmaps', configMap('ro'));
    const admitted = await h.admit(review.create(configMap('ro') as KubeObject));
    expect(admitted.status?.message).toBe('admission webhook "deny.example.com" denied the request: configmaps are read-only here');
    expect(denied.status).toBe(admitted.status?.code);
    expect(denied.body).toEqual(admitted.status);
    expect((await call(h.api!, 'GET', '/api/v1/namespaces/team-a/configmaps/ro')).status).toBe(404);
  });

  it('sends the chain’s warnings to the client in Warning headers', async () => {
    await harness({
      manifests: [validating('v', { name: 'warn.example.com', rules: configMapRules })],
      stubs: { 'warn.example.com': stub.allow({ warnings: ['configmaps are deprecated here'] }) },
    });
    const created = await call(h.api!, 'POST', '/api/v1/namespaces/team-a/configmaps', configMap('w1'));
    expect(created.status).toBe(201);
    expect(created.headers.get('warning')).toBe('299 - "configmaps are deprecated here"');
  });

  it('sends a dry-run patch as an UPDATE with the request’s dryRun and UpdateOptions, storing nothing', async () => {
    await harness({
      objects: [configMap('dry') as KubeObject],
      manifests: [mutating('m', { name: 'label.example.com', rules: configMapRules, sideEffects: 'None' })],
      stubs: { 'label.example.com': stub.patch([{ op: 'add', path: '/metadata/labels', value: { stamped: 'yes' } }]) },
    });
    const path = '/api/v1/namespaces/team-a/configmaps/dry?dryRun=All&fieldManager=tester';
    const answered = await call(h.api!, 'PATCH', path, { data: { k: 'dry' } }, 'application/merge-patch+json');
    expect(answered.status).toBe(200);
    expect(objectOf(answered).metadata?.labels).toEqual({ stamped: 'yes' });
    const sent = h.stub('label.example.com').received[0]?.request;
    expect([sent?.operation, sent?.dryRun, (sent?.object as { data?: unknown }).data]).toEqual(['UPDATE', true, { k: 'dry' }]);
    expect(sent?.options).toEqual({ kind: 'UpdateOptions', apiVersion: 'meta.k8s.io/v1', dryRun: ['All'], fieldManager: 'tester' });
    const stored = objectOf(await call(h.api!, 'GET', '/api/v1/namespaces/team-a/configmaps/dry'));
    expect([stored.data, stored.metadata?.labels]).toEqual([{ k: 'v' }, undefined]);
  });

  it('admits a delete: the denied object stays', async () => {
    await harness({
      objects: [configMap('keep') as KubeObject],
      manifests: [validating('v', { name: 'deny.example.com', rules: [{ ...configMapRules[0]!, operations: ['DELETE'] }] })],
      stubs: { 'deny.example.com': stub.deny({ message: 'keep it' }) },
    });
    const refused = await call(h.api!, 'DELETE', '/api/v1/namespaces/team-a/configmaps/keep');
    expect(refused.status).toBe(400);
    expect((refused.body as { message: string }).message).toBe('admission webhook "deny.example.com" denied the request: keep it');
    const sent = h.stub('deny.example.com').received[0]?.request;
    expect(sent?.operation).toBe('DELETE');
    expect(sent?.oldObject?.metadata?.name).toBe('keep');
    expect(sent?.options).toEqual({ kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1' });
    expect((await call(h.api!, 'GET', '/api/v1/namespaces/team-a/configmaps/keep')).status).toBe(200);
  });

  it('admits a status write as an UPDATE of the status subresource, the whole object with its new status', async () => {
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-1', namespace: 'team-a' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
    await harness({
      objects: [pod as KubeObject],
      manifests: [
        validating('v', { name: 'status.example.com', rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['UPDATE'], resources: ['pods/status'] }] }),
      ],
      stubs: { 'status.example.com': stub.deny({ message: 'status is the kubelet’s' }) },
    });
    const refused = await call(
      h.api!,
      'PATCH',
      '/api/v1/namespaces/team-a/pods/web-1/status',
      { status: { phase: 'Running' } },
      'application/merge-patch+json',
    );
    expect(refused.status).toBe(400);
    expect((refused.body as { message: string }).message).toBe('admission webhook "status.example.com" denied the request: status is the kubelet’s');
    const sent = h.stub('status.example.com').received[0]?.request;
    expect([sent?.operation, sent?.subResource, sent?.name]).toEqual(['UPDATE', 'status', 'web-1']);
    expect((sent?.object as { status?: { phase?: string } }).status?.phase).toBe('Running');
    expect((sent?.oldObject as { status?: { phase?: string } }).status?.phase).not.toBe('Running');
    expect(objectOf(await call(h.api!, 'GET', '/api/v1/namespaces/team-a/pods/web-1')).status).not.toEqual(expect.objectContaining({ phase: 'Running' }));
  });

  it('does not admit the harness’s own seeding', async () => {
    await harness({
      objects: [configMap('seeded') as KubeObject],
      manifests: [validating('v', { name: 'deny.example.com', rules: configMapRules })],
      stubs: { 'deny.example.com': stub.deny() },
    });
    h.api!.store.put(configMap('put') as KubeObject);
    expect((await call(h.api!, 'GET', '/api/v1/namespaces/team-a/configmaps/seeded')).status).toBe(200);
    expect((await call(h.api!, 'GET', '/api/v1/namespaces/team-a/configmaps/put')).status).toBe(200);
    expect(h.stub('deny.example.com').received).toHaveLength(0);
  });

  it('admits the writes of a mock API handed to the harness, until the harness closes', async () => {
    const api = await startMockApi({ admitWrites: true, namespaces: [{ name: 'team-a' }] });
    try {
      h = await createHarness({
        seed: 27,
        mockApi: api,
        manifests: [validating('v', { name: 'deny.example.com', rules: configMapRules })],
        stubs: { 'deny.example.com': stub.deny() },
      });
      expect((await call(api, 'POST', '/api/v1/namespaces/team-a/configmaps', configMap('a'))).status).toBe(400);
      await h.close();
      expect((await call(api, 'POST', '/api/v1/namespaces/team-a/configmaps', configMap('b'))).status).toBe(201);
    } finally {
      await api.close();
    }
  });

  it('refuses a Strict write with an unknown field before any webhook is called, as the handler decodes first', async () => {
    await harness({
      manifests: [validating('v', { name: 'warn.example.com', rules: configMapRules })],
      stubs: { 'warn.example.com': stub.allow() },
    });
    const refused = await call(h.api!, 'POST', '/api/v1/namespaces/team-a/configmaps?fieldValidation=Strict', { ...configMap('s1'), bogus: 1 });
    expect(refused.body).toMatchObject({
      code: 400,
      message: 'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "bogus"',
    });
    expect(h.stub('warn.example.com').received).toHaveLength(0);
  });

  it('sends the unknown-field warnings of a write the chain refuses with its Status', async () => {
    await harness({
      manifests: [validating('v', { name: 'deny.example.com', rules: configMapRules })],
      stubs: { 'deny.example.com': stub.deny() },
    });
    const refused = await call(h.api!, 'POST', '/api/v1/namespaces/team-a/configmaps', { ...configMap('r1'), bogus: 1 });
    expect([refused.status, refused.headers.get('warning')]).toEqual([400, '299 - "unknown field \\"bogus\\""']);
  });

  it('sends the unknown-field warnings of the request before the chain’s, also when a webhook mutated the object', async () => {
    await harness({
      manifests: [mutating('m', { name: 'label.example.com', rules: configMapRules, reinvocationPolicy: 'Never' })],
      stubs: { 'label.example.com': stub.patch([{ op: 'add', path: '/metadata/labels', value: { stamped: 'yes' } }], { warnings: ['labelled'] }) },
    });
    const created = await call(h.api!, 'POST', '/api/v1/namespaces/team-a/configmaps', { ...configMap('u1'), bogus: 1 });
    expect([created.status, created.headers.get('warning')]).toEqual([201, '299 - "unknown field \\"bogus\\"", 299 - "labelled"']);
    expect(objectOf(created).metadata?.labels).toEqual({ stamped: 'yes' });
  });

  it('reads repeated keys before admission: Strict refuses before any webhook, Warn’s warnings come before the chain’s', async () => {
    await harness({
      manifests: [mutating('m', { name: 'label.example.com', rules: configMapRules, reinvocationPolicy: 'Never' })],
      stubs: { 'label.example.com': stub.patch([{ op: 'add', path: '/metadata/labels', value: { stamped: 'yes' } }], { warnings: ['labelled'] }) },
    });
    const repeated = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"d1","namespace":"team-a"},"data":{"k":"v","k":"w"}}';
    const refused = await call(h.api!, 'POST', '/api/v1/namespaces/team-a/configmaps?fieldValidation=Strict', repeated);
    expect((refused.body as { message: string }).message).toBe(
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: duplicate field "data.k"',
    );
    expect(h.stub('label.example.com').received).toHaveLength(0);
    const yamlBody = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: d2\ndata:\n  k: v\n  k: w\n';
    const created = await call(h.api!, 'POST', '/api/v1/namespaces/team-a/configmaps', yamlBody, 'application/yaml');
    expect([created.status, created.headers.get('warning')]).toEqual([201, '299 - "line 7: key \\"k\\" already set in map", 299 - "labelled"']);
    expect(objectOf(created).data).toEqual({ k: 'w' });
  });

  it('stores what a mutating webhook made of a client’s create and of its patch, seen on GET', async () => {
    await harness({
      manifests: [mutating('m', { name: 'label.example.com', rules: configMapRules, reinvocationPolicy: 'Never' })],
      stubs: { 'label.example.com': stub.patch([{ op: 'add', path: '/metadata/labels', value: { stamped: 'yes' } }]) },
    });
    const created = await call(h.api!, 'POST', '/api/v1/namespaces/team-a/configmaps', configMap('m1'));
    expect(created.status).toBe(201);
    expect(objectOf(created).metadata?.labels).toEqual({ stamped: 'yes' });
    const read = await call(h.api!, 'GET', '/api/v1/namespaces/team-a/configmaps/m1');
    expect(objectOf(read).metadata?.labels).toEqual({ stamped: 'yes' });
    h.stub('label.example.com').behavior = stub.patch(setLabel('stamped', 'again'));
    const patched = await call(h.api!, 'PATCH', '/api/v1/namespaces/team-a/configmaps/m1', { data: { k: 'w' } }, 'application/merge-patch+json');
    expect(patched.status).toBe(200);
    const after = objectOf(await call(h.api!, 'GET', '/api/v1/namespaces/team-a/configmaps/m1'));
    expect(after.data).toEqual({ k: 'w' });
    expect(after.metadata?.labels).toEqual({ stamped: 'again' });
  });

  it('denies a client’s write by a ValidatingAdmissionPolicy that reads the user the mock API authenticated', async () => {
    await harness({
      manifests: [
        policy('no-webhook-user', "request.userInfo.username != 'system:serviceaccount:default:webhook'", "'written by ' + request.userInfo.username"),
        binding('no-webhook-user-binding', 'no-webhook-user'),
      ] as never[],
    });
    const denied = await call(h.api!, 'POST', '/api/v1/namespaces/team-a/configmaps', configMap('p1'));
    expect(denied.status).toBe(422);
    expect(denied.body).toEqual((await h.admit(review.create(configMap('p1') as KubeObject).as(webhookUser))).status);
    expect((denied.body as { message: string }).message).toBe(
      "configmaps \"p1\" is forbidden: ValidatingAdmissionPolicy 'no-webhook-user' with binding 'no-webhook-user-binding' denied request: written by system:serviceaccount:default:webhook",
    );
  });

  it('runs the built-in plugins: NamespaceLifecycle refuses a write into a terminating namespace', async () => {
    const terminating = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'leaving' }, status: { phase: 'Terminating' } };
    await harness({ objects: [terminating as KubeObject] });
    const refused = await call(h.api!, 'POST', '/api/v1/namespaces/leaving/configmaps', configMap('late', 'leaving'));
    expect(refused.status).toBe(403);
    expect((refused.body as { message: string }).message).toBe(
      'configmaps "late" is forbidden: unable to create new content in namespace leaving because it is being terminated',
    );
  });

  it('admits the webhook’s own write made while the webhook is admitted', async () => {
    await harness({
      manifests: [
        mutating('m', { name: 'writer.example.com', rules: podRules }),
        policy('no-seen', "!has(object.metadata.generateName) || object.metadata.generateName != 'seen-'", "'no records'"),
        binding('no-seen-binding', 'no-seen'),
      ] as never[],
      target: writingWebhook(() => h.api!),
    });
    const outcome = await h.admit(
      review.create({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'web-1', namespace: 'default' },
        spec: { containers: [{ name: 'c', image: 'nginx' }] },
      }),
    );
    expect(outcome.allowed).toBe(true);
    expect(outcome.writes).toHaveLength(1);
    expect(outcome.writes?.[0]?.code).toBe(422);
    // The name is the one the registry generated from `seen-` before validation.
    expect((outcome.writes?.[0]?.response as { message: string }).message).toMatch(
      /^configmaps "seen-[a-z0-9]{5}" is forbidden: ValidatingAdmissionPolicy 'no-seen' with binding 'no-seen-binding' denied request: no records$/,
    );
    expect(outcome.writes?.[0]?.admission.map((a) => `${a.operation} ${a.resource} ${a.namespace}/${a.name}`)).toEqual(['CREATE pods default/web-1']);
  });

  it(`stops a webhook that writes what it admits after ${ADMISSION_NESTING_LIMIT} nested admissions`, async () => {
    await harness({ manifests: [mutating('m', { name: 'writer.example.com', rules: configMapRules })], target: writingWebhook(() => h.api!) });
    const created = await call(h.api!, 'POST', '/api/v1/namespaces/default/configmaps', configMap('first', 'default'));
    expect(created.status).toBe(201);
    const stopped = h.api!.writes.records.filter((write) => write.code === 500);
    expect(stopped).toHaveLength(1);
    expect((stopped[0]?.response as { message: string }).message).toBe(
      `Internal error occurred: admission of CREATE configmaps default/(no name) is nested ${ADMISSION_NESTING_LIMIT} deep: a webhook that writes the object it is admitting is admitted again without end (kube-apiserver would wait for the webhook's timeoutSeconds)`,
    );
    const stored = (objectOf(await call(h.api!, 'GET', '/api/v1/namespaces/default/configmaps')) as { items: KubeObject[] }).items;
    expect(stored.map((object) => object.metadata?.generateName ?? object.metadata?.name).sort()).toEqual([
      'first',
      ...Array(ADMISSION_NESTING_LIMIT).fill('seen-'),
    ]);
  });
});
