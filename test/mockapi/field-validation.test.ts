import { ResourceCatalog } from '../../lib/kube/catalog';
import { startMockApi, type MockApi } from '../../lib/mockapi';
import { call, configMap, objectOf } from './client';

/*
 * Server-side field validation and delete preconditions, as kube-apiserver's handlers answer them
 * (k8s.io/apiserver pkg/endpoints/handlers create.go, update.go, patch.go; pkg/registry/rest/delete.go).
 * The create with `fieldValidation=Strict`, the create warned about its unknown field, and the uid
 * precondition are replayed from `error-responses` in encodings.test.ts; these are the cases beside them.
 */

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi({ seed: 8, namespaces: [{ name: 'team-a' }] });
}, 60_000);
afterAll(() => api.close());

const deployment = (name: string, container: Record<string, unknown>) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: 'team-a' },
  spec: {
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image: 'app:1', ...container }] } },
  },
});

/** Go's json.Marshal of a decoded object: map keys sorted at every level. */
const sortedJson = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v,
  );

describe('fieldValidation', () => {
  it('Strict refuses a create with a misspelt nested field, naming its path', async () => {
    const reply = await call(
      api,
      'POST',
      '/apis/apps/v1/namespaces/team-a/deployments?fieldValidation=Strict',
      deployment('web', { imagePullPolcy: 'Always' }),
    );
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({
      reason: 'BadRequest',
      message:
        'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.template.spec.containers[0].imagePullPolcy"',
    });
    expect((await call(api, 'GET', '/apis/apps/v1/namespaces/team-a/deployments/web')).status).toBe(404);
  });

  it('lists every unknown field in one Strict refusal, in the order the body has them', async () => {
    const reply = await call(api, 'POST', '/api/v1/namespaces/team-a/configmaps?fieldValidation=Strict', { ...configMap('two'), zeta: 1, alpha: 2 });
    expect(reply.body).toMatchObject({
      message: 'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "zeta", unknown field "alpha"',
    });
  });

  it('Warn (the default) stores the object without the field and says so in one Warning header per field', async () => {
    const reply = await call(api, 'POST', '/apis/apps/v1/namespaces/team-a/deployments', deployment('warned', { imagePullPolcy: 'Always', portz: [] }));
    expect(reply.status).toBe(201);
    expect(reply.headers.get('warning')).toBe(
      '299 - "unknown field \\"spec.template.spec.containers[0].imagePullPolcy\\"", 299 - "unknown field \\"spec.template.spec.containers[0].portz\\""',
    );
    const stored = objectOf(await call(api, 'GET', '/apis/apps/v1/namespaces/team-a/deployments/warned')) as {
      spec: { template: { spec: { containers: object[] } } };
    };
    expect(stored.spec.template.spec.containers[0]).not.toHaveProperty('imagePullPolcy');
  });

  it('Ignore drops the field with no warning; an update is validated like a create', async () => {
    await call(api, 'POST', '/api/v1/namespaces/team-a/configmaps', configMap('ignored'));
    const current = objectOf(await call(api, 'GET', '/api/v1/namespaces/team-a/configmaps/ignored'));
    const ignored = await call(api, 'PUT', '/api/v1/namespaces/team-a/configmaps/ignored?fieldValidation=Ignore', { ...current, bogus: true });
    expect([ignored.status, ignored.headers.get('warning')]).toEqual([200, null]);
    const strict = await call(api, 'PUT', '/api/v1/namespaces/team-a/configmaps/ignored?fieldValidation=Strict', { ...objectOf(ignored), bogus: true });
    expect(strict.body).toMatchObject({
      code: 400,
      message: 'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "bogus"',
    });
  });

  it.each([
    ['POST', '/api/v1/namespaces/team-a/configmaps?fieldValidation=strict', 'CreateOptions'],
    ['PUT', '/api/v1/namespaces/team-a/configmaps/ignored?fieldValidation=Error', 'UpdateOptions'],
    ['PATCH', '/api/v1/namespaces/team-a/configmaps/ignored?fieldValidation=warn', 'PatchOptions'],
  ])('%s with an unsupported value is refused by the options’ validation (%s)', async (method, path, kind) => {
    const value = new URL(path, 'https://x').searchParams.get('fieldValidation');
    const body = method === 'PATCH' ? { data: { a: 'b' } } : configMap('ignored');
    const reply = await call(api, method, path, body, method === 'PATCH' ? 'application/merge-patch+json' : 'application/json');
    expect(reply.status).toBe(422);
    expect(reply.body).toMatchObject({
      reason: 'Invalid',
      message: `${kind}.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "${value}": supported values: "", "Ignore", "Strict", "Warn"`,
      details: { group: 'meta.k8s.io', kind },
    });
  });

  it('a merge patch refused by Strict shows the object it made (keys sorted, as Go marshals a map)', async () => {
    await call(api, 'POST', '/api/v1/namespaces/team-a/configmaps', configMap('merged'));
    const before = objectOf(await call(api, 'GET', '/api/v1/namespaces/team-a/configmaps/merged'));
    const patch = { data: { a: 'b' }, bogus: { x: 1 } };
    const reply = await call(api, 'PATCH', '/api/v1/namespaces/team-a/configmaps/merged?fieldValidation=Strict', patch, 'application/merge-patch+json');
    const patched = { ...before, data: { ...(before.data as Record<string, string>), a: 'b' }, bogus: { x: 1 } };
    expect(reply.status).toBe(422);
    expect((reply.body as { message: string }).message).toBe(
      ` "" is invalid: patch: Invalid value: ${JSON.stringify(sortedJson(patched))}: strict decoding error: unknown field "bogus"`,
    );
    expect(objectOf(await call(api, 'GET', '/api/v1/namespaces/team-a/configmaps/merged')).data).toEqual({ k: 'v' });
  });

  it('a strategic merge patch refused by Strict shows the patch as fmt prints a map', async () => {
    await call(api, 'POST', '/apis/apps/v1/namespaces/team-a/deployments', deployment('smp', {}));
    const patch = { spec: { template: { spec: { containers: [{ name: 'app', imagePullPolcy: 'Always' }] } } } };
    const reply = await call(
      api,
      'PATCH',
      '/apis/apps/v1/namespaces/team-a/deployments/smp?fieldValidation=Strict',
      patch,
      'application/strategic-merge-patch+json',
    );
    expect(reply.body).toMatchObject({
      code: 422,
      message:
        ' "" is invalid: patch: Invalid value: "map[spec:map[template:map[spec:map[containers:[map[imagePullPolcy:Always name:app]]]]]]": strict decoding error: unknown field "spec.template.spec.containers[0].imagePullPolcy"',
    });
  });

  it('a patch under Warn is applied, with the warning', async () => {
    const reply = await call(
      api,
      'PATCH',
      '/apis/apps/v1/namespaces/team-a/deployments/smp',
      { spec: { replicaz: 3 } },
      'application/strategic-merge-patch+json',
    );
    expect([reply.status, reply.headers.get('warning')]).toEqual([200, '299 - "unknown field \\"spec.replicaz\\""']);
  });
});

describe('delete preconditions', () => {
  it('a resourceVersion that is not the stored one is a Conflict naming the kind, and nothing is deleted', async () => {
    await call(api, 'POST', '/apis/apps/v1/namespaces/team-a/deployments', deployment('kept', {}));
    const stored = objectOf(await call(api, 'GET', '/apis/apps/v1/namespaces/team-a/deployments/kept'));
    const reply = await call(api, 'DELETE', '/apis/apps/v1/namespaces/team-a/deployments/kept', {
      kind: 'DeleteOptions',
      apiVersion: 'v1',
      preconditions: { resourceVersion: '1' },
    });
    expect(reply.status).toBe(409);
    expect(reply.body).toMatchObject({
      reason: 'Conflict',
      message: `Operation cannot be fulfilled on Deployment.apps "kept": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${stored.metadata?.resourceVersion}). The object might have been modified`,
      details: { name: 'kept', group: 'apps', kind: 'Deployment' },
    });
    expect((await call(api, 'GET', '/apis/apps/v1/namespaces/team-a/deployments/kept')).status).toBe(200);
  });

  it('preconditions that hold let the delete through', async () => {
    const stored = objectOf(await call(api, 'GET', '/apis/apps/v1/namespaces/team-a/deployments/kept'));
    const preconditions = { uid: stored.metadata?.uid, resourceVersion: stored.metadata?.resourceVersion };
    const reply = await call(api, 'DELETE', '/apis/apps/v1/namespaces/team-a/deployments/kept', { kind: 'DeleteOptions', apiVersion: 'v1', preconditions });
    expect(reply.status).toBe(200);
    expect((await call(api, 'GET', '/apis/apps/v1/namespaces/team-a/deployments/kept')).status).toBe(404);
  });
});

describe('custom resources: the fields their schema prunes are the unknown ones', () => {
  let widgets: MockApi;
  const WIDGETS = '/apis/example.com/v1/namespaces/team-a/widgets';
  beforeAll(async () => {
    const catalog = new ResourceCatalog();
    const schema = { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } };
    catalog.register({ group: 'example.com', version: 'v1', kind: 'Widget', resource: 'widgets', namespaced: true, schema });
    widgets = await startMockApi({ seed: 9, catalog, namespaces: [{ name: 'team-a' }] });
  }, 60_000);
  afterAll(() => widgets.close());

  const widget = (name: string, spec: Record<string, unknown>) => ({
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: { name, namespace: 'team-a' },
    spec,
  });

  it('Warn lists them sorted, and the stored object lacks them', async () => {
    const reply = await call(widgets, 'POST', WIDGETS, widget('w1', { size: 1, zoom: true, colour: 'red' }));
    expect([reply.status, reply.headers.get('warning')]).toEqual([201, '299 - "unknown field \\"spec.colour\\"", 299 - "unknown field \\"spec.zoom\\""']);
    expect(objectOf(reply).spec).toEqual({ size: 1 });
  });

  it('Strict refuses the write', async () => {
    const reply = await call(widgets, 'POST', `${WIDGETS}?fieldValidation=Strict`, widget('w2', { size: 1, zoom: true }));
    expect(reply.body).toMatchObject({
      code: 400,
      message: 'Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "spec.zoom"',
    });
  });
});
