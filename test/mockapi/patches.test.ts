import { ResourceCatalog } from '../../lib/kube/catalog';
import { startMockApi, type MockApi } from '../../lib/mockapi';
import type { JsonObject } from '../../lib/kube/json';
import { strategicMerge } from '../../lib/patch';
import { call, configMap, objectOf } from './client';

const POD = { group: '', kind: 'Pod' };

describe('strategicMerge', () => {
  const pod: JsonObject = {
    metadata: { name: 'p', finalizers: ['a'] },
    spec: {
      containers: [
        { name: 'app', image: 'app:1', env: [{ name: 'A', value: '1' }], ports: [{ containerPort: 80 }] },
        { name: 'sidecar', image: 'proxy:1' },
      ],
      volumes: [{ name: 'data', emptyDir: {} }],
      tolerations: [{ key: 'x', operator: 'Exists' }],
    },
  };

  it('merges containers, env, ports and volumes by their merge keys, and replaces lists without one', () => {
    const patch = {
      metadata: { finalizers: ['b'] },
      spec: {
        containers: [{ name: 'app', env: [{ name: 'B', value: '2' }], ports: [{ containerPort: 80, name: 'http' }] }],
        volumes: [{ name: 'cache', emptyDir: {} }],
        tolerations: [{ key: 'y', operator: 'Exists' }],
      },
    };
    expect(strategicMerge(pod, patch, POD)).toEqual({
      metadata: { name: 'p', finalizers: ['a', 'b'] },
      spec: {
        containers: [
          {
            name: 'app',
            image: 'app:1',
            env: [
              { name: 'B', value: '2' },
              { name: 'A', value: '1' },
            ],
            ports: [{ containerPort: 80, name: 'http' }],
          },
          { name: 'sidecar', image: 'proxy:1' },
        ],
        // Items the patch adds go first (strategicpatch's normalizeElementOrder).
        volumes: [
          { name: 'cache', emptyDir: {} },
          { name: 'data', emptyDir: {} },
        ],
        tolerations: [{ key: 'y', operator: 'Exists' }],
      },
    });
  });

  it('reaches the pod template of workloads', () => {
    const deployment = { spec: { template: { spec: { containers: [{ name: 'app', image: 'app:1' }] } } } };
    const patch = { spec: { template: { spec: { containers: [{ name: 'app', image: 'app:2' }] } } } };
    expect(strategicMerge(deployment, patch, { group: 'apps', kind: 'Deployment' })).toEqual(patch);
  });

  it('follows $patch delete and replace, $deleteFromPrimitiveList and $setElementOrder', () => {
    const patch: JsonObject = {
      metadata: { '$deleteFromPrimitiveList/finalizers': ['a'] },
      spec: {
        '$setElementOrder/containers': [{ name: 'sidecar' }, { name: 'app' }],
        containers: [
          { name: 'app', $patch: 'delete' },
          { name: 'debug', image: 'busybox' },
        ],
        volumes: [{ $patch: 'replace' }, { name: 'only', emptyDir: {} }],
      },
    };
    const merged = strategicMerge(pod, patch, POD);
    expect(merged.metadata).toEqual({ name: 'p', finalizers: [] });
    expect(merged.spec).toMatchObject({
      containers: [
        { name: 'sidecar', image: 'proxy:1' },
        { name: 'debug', image: 'busybox' },
      ],
      volumes: [{ name: 'only', emptyDir: {} }],
    });
  });

  it('refuses a list item without its merge key', () => {
    expect(() => strategicMerge(pod, { spec: { containers: [{ image: 'x' }] } }, POD)).toThrow('map: map[image:x] does not contain declared merge key: name');
  });
});

describe('PATCH through the API', () => {
  let api: MockApi;
  const PODS = '/api/v1/namespaces/team-a/pods';
  beforeAll(async () => {
    api = await startMockApi({ seed: 5, namespaces: [{ name: 'team-a' }] });
    api.store.put(configMap('cm'));
    api.store.put({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web', namespace: 'team-a' },
      spec: { containers: [{ name: 'app', image: 'app:1', env: [{ name: 'A', value: '1' }] }] },
    });
  });
  afterAll(() => api.close());

  it('applies a JSON merge patch: objects merge, null deletes', async () => {
    const reply = await call(
      api,
      'PATCH',
      '/api/v1/namespaces/team-a/configmaps/cm',
      { metadata: { labels: { a: 'b' } }, data: { k: null, n: '1' } },
      'application/merge-patch+json',
    );
    expect(reply.status).toBe(200);
    expect(objectOf(reply)).toMatchObject({ metadata: { labels: { a: 'b' } }, data: { n: '1' } });
    expect(objectOf(reply).data).not.toHaveProperty('k');
  });

  it('applies a JSON patch, and answers one that does not apply with 422', async () => {
    const ops = [{ op: 'add', path: '/data/j', value: 'x' }];
    expect(objectOf(await call(api, 'PATCH', '/api/v1/namespaces/team-a/configmaps/cm', ops, 'application/json-patch+json')).data).toMatchObject({ j: 'x' });
    const failing = [{ op: 'test', path: '/data/j', value: 'y' }];
    expect((await call(api, 'PATCH', '/api/v1/namespaces/team-a/configmaps/cm', failing, 'application/json-patch+json')).body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'the server rejected our request due to an error in our request',
      reason: 'Invalid',
      details: {},
      code: 422,
    });
  });

  it('applies a strategic merge patch to a pod by container name', async () => {
    // A pod's spec is immutable but for images (and a few more): the patch changes one container's image by name.
    const patch = { spec: { containers: [{ name: 'app', image: 'app:2' }] } };
    const reply = objectOf(await call(api, 'PATCH', `${PODS}/web`, patch, 'application/strategic-merge-patch+json'));
    expect((reply.spec as { containers: unknown[] }).containers).toEqual([
      {
        name: 'app',
        image: 'app:2',
        env: [{ name: 'A', value: '1' }],
        resources: {},
        terminationMessagePath: '/dev/termination-log',
        terminationMessagePolicy: 'File',
        imagePullPolicy: 'IfNotPresent',
      },
    ]);
  });

  it('refuses a patch that changes an immutable pod field with the pod validation 422', async () => {
    const patch = { spec: { containers: [{ name: 'app', env: [{ name: 'B', value: '2' }] }] } };
    const reply = await call(api, 'PATCH', `${PODS}/web`, patch, 'application/strategic-merge-patch+json');
    expect(reply.status).toBe(422);
    expect(String(objectOf(reply).message)).toMatch(
      /^Pod "web" is invalid: spec: Forbidden: pod updates may not change fields other than `spec.containers\[\*\].image`/,
    );
  });

  it('serves apply patches as server-side apply, creating the object when it does not exist', async () => {
    const yaml = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\ndata:\n  a: "1"\n';
    const path = '/api/v1/namespaces/team-a/configmaps/applied?fieldManager=test';
    expect((await call(api, 'PATCH', path, yaml, 'application/apply-patch+yaml')).status).toBe(201);
    // The same manager no longer applying `a` removes it: it owned it alone.
    const again = await call(api, 'PATCH', path, yaml.replace('a: "1"', 'b: "2"'), 'application/apply-patch+yaml');
    expect(again.status).toBe(200);
    expect(objectOf(again).data).toEqual({ b: '2' });
  });

  it('requires a fieldManager for apply', async () => {
    expect((await call(api, 'PATCH', '/api/v1/namespaces/team-a/configmaps/cm', 'data: {}', 'application/apply-patch+yaml')).body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
      reason: 'Invalid',
      details: {
        group: 'meta.k8s.io',
        kind: 'PatchOptions',
        causes: [{ reason: 'FieldValueRequired', message: 'Required value: is required for apply patch', field: 'fieldManager' }],
      },
      code: 422,
    });
  });

  it("answers an unknown patch type to a built-in resource with go-restful's 415 (as error-responses recorded)", async () => {
    expect((await call(api, 'PATCH', '/api/v1/namespaces/team-a/configmaps/cm', {}, 'application/json')).body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: '415: Unsupported Media Type',
      reason: 'UnsupportedMediaType',
      details: {},
      code: 415,
    });
  });

  it('answers a patch to an object that does not exist with 404', async () => {
    expect((await call(api, 'PATCH', '/api/v1/namespaces/team-a/configmaps/nope', {}, 'application/merge-patch+json')).status).toBe(404);
  });

  it('answers a patch carrying a stale resourceVersion with 409', async () => {
    const reply = await call(api, 'PATCH', '/api/v1/namespaces/team-a/configmaps/cm', { metadata: { resourceVersion: '1' } }, 'application/merge-patch+json');
    expect(objectOf(reply)).toMatchObject({ reason: 'Conflict', code: 409 });
  });
});

describe('custom resources', () => {
  let api: MockApi;
  beforeAll(async () => {
    const catalog = new ResourceCatalog();
    catalog.register({ group: 'example.com', version: 'v1', kind: 'Widget', resource: 'widgets', namespaced: true });
    api = await startMockApi({ seed: 6, catalog, namespaces: [{ name: 'team-a' }] });
    api.store.put({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'team-a' }, spec: { size: 1 } });
  });
  afterAll(() => api.close());

  it('are not strategic-merge patchable, as they have no patch strategies', async () => {
    const reply = await call(api, 'PATCH', '/apis/example.com/v1/namespaces/team-a/widgets/w', { spec: { size: 2 } }, 'application/strategic-merge-patch+json');
    expect(objectOf(reply)).toMatchObject({
      code: 415,
      message:
        'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
    });
  });

  it('keep apiVersion and kind on list items', async () => {
    expect(objectOf(await call(api, 'GET', '/apis/example.com/v1/namespaces/team-a/widgets')).items).toEqual([
      expect.objectContaining({ apiVersion: 'example.com/v1', kind: 'Widget' }),
    ]);
  });
});
