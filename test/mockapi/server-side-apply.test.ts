// Server-side apply as kube-apiserver serves it: server-side-apply-conflict (test/mockapi/fixtures, recorded on a
// real kube-apiserver v1.36.2) replayed step by step, each answer compared field by field (managedFields included)
// but for uids, timestamps and resourceVersions.
import { startMockApi, type MockApi } from '../../lib/mockapi';
import { comparable, recording } from './watch/watch-client';
import https from 'node:https';

jest.setTimeout(60_000);

let api: MockApi;
beforeEach(async () => {
  api = await startMockApi({ seed: 37, namespaces: [{ name: 'o4-sub' }] });
});
afterEach(() => api.close());

interface Step {
  request: { method: string; path: string; headers: Record<string, string>; body?: unknown };
  response: { code: number; body: Record<string, unknown> & { metadata?: { managedFields?: Record<string, unknown>[] } } };
}

/** A request with its body sent as recorded: YAML text as is, JSON serialised. */
function send(method: string, pathAndQuery: string, contentType: string, body: unknown): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const headers = { Authorization: `Bearer ${api.token}`, Accept: 'application/json', 'Content-Type': contentType };
    const sent = https.request(`${api.url}${pathAndQuery}`, { method, headers, ca: api.ca }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
    });
    sent.on('error', reject);
    sent.end(typeof body === 'string' ? body : JSON.stringify(body));
  });
}

const managed = (body: Step['response']['body']) => body.metadata?.managedFields?.map(({ time: _time, ...rest }) => rest);

describe('server-side-apply-conflict', () => {
  it('owns applied fields per manager: conflicts with kube’s text, force, an Update manager, the fieldManager check and a dry run', async () => {
    const steps = recording('server-side-apply-conflict').steps as unknown as Step[];
    for (const step of steps) {
      const { method, path, headers, body } = step.request;
      const reply = await send(method, path, headers['Content-Type'] ?? 'application/json', body);
      const label = `${method} ${path}`;
      expect({ label, status: reply.status, body: comparable(reply.body) }).toEqual({
        label,
        status: step.response.code,
        body: comparable(step.response.body),
      });
      expect(managed(reply.body)).toEqual(managed(step.response.body));
    }
    // The dry run created nothing.
    expect(api.store.read('v1', 'ConfigMap', 'ssa2', 'o4-sub')).toBeUndefined();
  });

  it('removes a field its manager stops applying, and keeps one another manager still owns', async () => {
    const apply = (manager: string, data: Record<string, string>) =>
      send(
        'PATCH',
        `/api/v1/namespaces/o4-sub/configmaps/cm?fieldManager=${manager}`,
        'application/apply-patch+yaml',
        JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data }),
      );
    await apply('a', { one: '1', two: '2', shared: 's' });
    expect((await apply('b', { shared: 's' })).status).toBe(200);
    const reply = await apply('a', { one: '1' });
    expect(reply.body.data).toEqual({ one: '1', shared: 's' });
    // Entries are ordered by time (then manager) and their times have one-second resolution: whether a's
    // second apply lands in the same second as b's depends on the clock, so compare them by manager.
    const byManager = (entries: ReturnType<typeof managed>) => [...(entries ?? [])].sort((x, y) => String(x.manager).localeCompare(String(y.manager)));
    expect(byManager(managed(reply.body))).toEqual([
      { manager: 'a', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:one': {} } } },
      { manager: 'b', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:shared': {} } } },
    ]);
  });

  it('drops the entry of a manager that stops applying everything it owned', async () => {
    const apply = (manager: string, data?: Record<string, string>, force = false) =>
      send(
        'PATCH',
        `/api/v1/namespaces/o4-sub/configmaps/gone?fieldManager=${manager}${force ? '&force=true' : ''}`,
        'application/apply-patch+yaml',
        JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'gone' }, ...(data && { data }) }),
      );
    await apply('a', { color: 'blue', size: 'L' });
    expect((await apply('b', { color: 'red' }, true)).status).toBe(200);
    const reply = await apply('a');
    expect(reply.body.data).toEqual({ color: 'red' });
    expect(managed(reply.body)).toEqual([
      { manager: 'b', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:color': {} } } },
    ]);
  });

  it('finds no conflict on a list item both managers hold unchanged, only on its members that differ', async () => {
    const deployment = (image: string) => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'o4-sub' },
      spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image }] } } },
    });
    // An Update manager (kubectl's client-side apply) owns the container; the object holds its defaulted members.
    const created = await send(
      'POST',
      '/apis/apps/v1/namespaces/o4-sub/deployments?fieldManager=kubectl-client-side-apply',
      'application/json',
      deployment('nginx'),
    );
    expect(created.status).toBe(201);
    const path = '/apis/apps/v1/namespaces/o4-sub/deployments/web?fieldManager=kubectl';
    expect((await send('PATCH', path, 'application/apply-patch+yaml', JSON.stringify(deployment('nginx')))).status).toBe(200);
    const changed = await send('PATCH', path, 'application/apply-patch+yaml', JSON.stringify(deployment('httpd')));
    expect(changed.body.message).toBe(
      'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1: .spec.template.spec.containers[name="c"].image',
    );
  });

  it('lists several conflicts by manager', async () => {
    const apply = (manager: string, data: Record<string, string>, force = false) =>
      send(
        'PATCH',
        `/api/v1/namespaces/o4-sub/configmaps/many?fieldManager=${manager}${force ? '&force=true' : ''}`,
        'application/apply-patch+yaml',
        JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'many' }, data }),
      );
    await apply('a', { x: '1', y: '1' });
    const reply = await apply('b', { x: '2', y: '2' });
    expect(reply.body.message).toBe('Apply failed with 2 conflicts: conflicts with "a":\n- .data.x\n- .data.y');
  });
});

interface KubectlRecording {
  kubectl: { requests: { method: string; url: string; accept: string; contentType: string | null; status: string }[] };
}

// kubectl apply --server-side: the writes of kubectl-apply-server-side and kubectl-apply-server-side-again
// (test/mockapi/fixtures, kubectl v1.36.4 against a real kube-apiserver v1.36.2). Their discovery and OpenAPI
// requests are the discovery endpoints' to answer; here each recorded write is sent as kubectl sent it.
describe.each([
  ['kubectl-apply-server-side', 'creates the object (201)'],
  ['kubectl-apply-server-side-again', 'applies it again unchanged (200)'],
])('%s', (basename, what) => {
  it(`answers kubectl's apply PATCH as recorded: ${what}`, async () => {
    await api.close();
    api = await startMockApi({ seed: 41, namespaces: [{ name: 'o4-kubectl' }] });
    const manifest = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: kc\n  namespace: o4-kubectl\ndata:\n  a: "1"\n';
    const writes = (recording(basename) as unknown as KubectlRecording).kubectl.requests.filter((r) => r.method !== 'GET');
    expect(writes).toHaveLength(1);
    const [write] = writes as [KubectlRecording['kubectl']['requests'][number]];
    const first = basename.endsWith('-again') ? await send('PATCH', write.url, write.contentType ?? '', manifest) : undefined;
    if (first) expect(first.status).toBe(201);
    const reply = await send(write.method, write.url, write.contentType ?? '', manifest);
    expect(`${reply.status}`).toBe(write.status.split(' ')[0]);
    expect(reply.body.data).toEqual({ a: '1' });
    expect(managed(reply.body)).toEqual([
      { manager: 'kubectl', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:a': {} } } },
    ]);
    // Applied again unchanged, nothing is written: the resourceVersion stays.
    if (first) expect(reply.body.metadata.resourceVersion).toBe(first.body.metadata.resourceVersion);
  });
});
