import { ResourceCatalog } from '../../lib/kube/catalog';
import { startMockApi, type MockApi } from '../../lib/mockapi';
import { call, configMap, objectOf } from './client';

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi({ seed: 12, namespaces: [{ name: 'team-a' }] });
});
afterAll(() => api.close());

const CM = '/api/v1/namespaces/team-a/configmaps';

// registry/generic/registry/store.go Update: kube's NewConflict with the object-modified reason.
const conflictStatus = (resource: string, name: string, kind: string, group?: string) => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: `Operation cannot be fulfilled on ${resource} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
  reason: 'Conflict',
  details: { name, ...(group ? { group } : {}), kind },
  code: 409,
});

describe('optimistic concurrency', () => {
  let stale: string;
  beforeAll(async () => {
    stale = String(objectOf(await call(api, 'POST', CM, configMap('x'))).metadata?.resourceVersion);
    await call(api, 'PATCH', `${CM}/x`, { data: { k: 'changed' } }, 'application/merge-patch+json');
  });

  it('refuses an update carrying a stale resourceVersion with 409 and kube’s text', async () => {
    const reply = await call(api, 'PUT', `${CM}/x`, configMap('x', 'team-a', { resourceVersion: stale }));
    expect(reply.status).toBe(409);
    expect(reply.body).toEqual(conflictStatus('configmaps', 'x', 'configmaps'));
  });

  it('refuses a merge, strategic or JSON patch that sets a stale resourceVersion', async () => {
    const merge = await call(api, 'PATCH', `${CM}/x`, { metadata: { resourceVersion: stale }, data: { k: 'mine' } }, 'application/merge-patch+json');
    expect(merge.body).toEqual(conflictStatus('configmaps', 'x', 'configmaps'));
    const strategic = await call(api, 'PATCH', `${CM}/x`, { metadata: { resourceVersion: stale } }, 'application/strategic-merge-patch+json');
    expect(strategic.status).toBe(409);
    const json = await call(api, 'PATCH', `${CM}/x`, [{ op: 'replace', path: '/metadata/resourceVersion', value: stale }], 'application/json-patch+json');
    expect(json.status).toBe(409);
    expect(objectOf(await call(api, 'GET', `${CM}/x`)).data).toEqual({ k: 'changed' });
  });

  it('names a grouped resource with its group', async () => {
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd' },
      spec: {
        selector: { matchLabels: { app: 'd' } },
        template: { metadata: { labels: { app: 'd' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
      },
    };
    const created = objectOf(await call(api, 'POST', '/apis/apps/v1/namespaces/team-a/deployments', deployment));
    await call(api, 'PATCH', '/apis/apps/v1/namespaces/team-a/deployments/d', { metadata: { labels: { a: 'b' } } }, 'application/merge-patch+json');
    const reply = await call(api, 'PUT', '/apis/apps/v1/namespaces/team-a/deployments/d', created);
    expect(reply.body).toEqual(conflictStatus('deployments.apps', 'd', 'deployments', 'apps'));
  });

  it('takes an update with the current resourceVersion, or none, and moves the version on', async () => {
    const current = objectOf(await call(api, 'GET', `${CM}/x`));
    const conditional = await call(api, 'PUT', `${CM}/x`, { ...current, data: { k: 'conditional' } });
    expect(conditional.status).toBe(200);
    expect(Number(objectOf(conditional).metadata?.resourceVersion)).toBeGreaterThan(Number(current.metadata?.resourceVersion));
    const unconditional = await call(api, 'PUT', `${CM}/x`, { ...configMap('x'), data: { k: 'unconditional' } });
    expect(objectOf(unconditional).data).toEqual({ k: 'unconditional' });
  });
});

describe('custom resources', () => {
  let widgets: MockApi;
  const WIDGETS = '/apis/example.com/v1/namespaces/team-a/widgets';
  beforeAll(async () => {
    const catalog = new ResourceCatalog();
    const schema = {
      openAPIV3Schema: {
        type: 'object',
        properties: {
          spec: { type: 'object', properties: { size: { type: 'integer' } } },
          status: { type: 'object', properties: { ready: { type: 'boolean' } } },
        },
      },
    };
    catalog.register({
      group: 'example.com',
      version: 'v1',
      kind: 'Widget',
      resource: 'widgets',
      namespaced: true,
      schema: schema.openAPIV3Schema,
      subresources: [{ name: 'status' }],
    });
    widgets = await startMockApi({ seed: 13, catalog, namespaces: [{ name: 'team-a' }] });
  });
  afterAll(() => widgets.close());

  it('refuse an update without a resourceVersion (their strategy allows no unconditional update)', async () => {
    const widget = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { size: 1 }, status: { ready: true } };
    const created = objectOf(await call(widgets, 'POST', WIDGETS, widget));
    expect(created).toMatchObject({ metadata: { generation: 1 }, spec: { size: 1 } });
    expect(created).not.toHaveProperty('status');
    const reply = await call(widgets, 'PUT', `${WIDGETS}/w`, { ...widget, spec: { size: 2 } });
    expect(reply.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Widget.example.com "w" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update',
      reason: 'Invalid',
      details: {
        name: 'w',
        group: 'example.com',
        kind: 'Widget',
        causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: 0x0: must be specified for an update', field: 'metadata.resourceVersion' }],
      },
      code: 422,
    });
    const updated = objectOf(await call(widgets, 'PUT', `${WIDGETS}/w`, { ...created, spec: { size: 2 } }));
    expect(updated.metadata?.generation).toBe(2);
  });
});

describe('a write that changes nothing', () => {
  it('keeps the resourceVersion, so a client holding it is not in conflict', async () => {
    const created = objectOf(await call(api, 'POST', CM, configMap('noop')));
    const again = await call(api, 'PUT', `${CM}/noop`, created);
    expect(again.status).toBe(200);
    expect(objectOf(again).metadata?.resourceVersion).toBe(created.metadata?.resourceVersion);
    expect((await call(api, 'PUT', `${CM}/noop`, { ...created, data: { k: 'changed' } })).status).toBe(200);
  });
});
