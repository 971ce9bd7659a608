import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { startMockApi, type MockApi } from '../../lib/mockapi';
import { ResourceCatalog } from '../../lib/kube/catalog';

/*
 * Discovery, /version, health and OpenAPI v3 replayed from fixtures recorded on a real kube-apiserver v1.36.2
 * (test/mockapi/fixtures/apiserver-api). The mock API's catalog serves the same groups and resources as that
 * cluster, so bodies are compared whole; what may differ is said per file below.
 */

interface Step {
  request: { method: string; path: string; headers: Record<string, string> };
  response: { code: number; headers: Record<string, string>; body?: unknown; bodyRaw?: string };
}
const fixture = (name: string): { steps: Step[] } & Record<string, unknown> =>
  JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', 'apiserver-api', `${name}.json`), 'utf8')) as { steps: Step[] };

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi({ seed: 27 });
}, 60_000);
afterAll(() => api.close());

async function send(step: Step, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${api.url}${step.request.path}`, {
    method: step.request.method,
    headers: { Authorization: `Bearer ${api.token}`, ...step.request.headers, ...headers },
  });
}

/** Status, the headers that carry meaning (not date, audit-id, APF uids, connection framing) and the body, byte for byte where recorded raw. */
async function expectReplayed(step: Step, response: Response, adjust: (body: unknown) => unknown = (b) => b): Promise<void> {
  const recorded = step.response;
  expect(response.status).toBe(recorded.code);
  for (const name of ['content-type', 'cache-control', 'etag', 'vary', 'x-content-type-options']) {
    expect([name, response.headers.get(name)]).toEqual([name, recorded.headers[name] ?? null]);
  }
  const text = await response.text();
  if (recorded.bodyRaw !== undefined && recorded.body === undefined) expect(text).toBe(recorded.bodyRaw);
  else if (recorded.bodyRaw !== undefined) expect(text).toBe(recorded.bodyRaw);
  else expect(adjust(JSON.parse(text))).toEqual(recorded.body);
}

describe('legacy discovery', () => {
  it('discovery-core: /api and /api/v1, every core resource with its verbs, names and storage hash', async () => {
    const [apiStep, v1Step] = fixture('discovery-core').steps as [Step, Step];
    // serverAddressByClientCIDRs names the address the client reached: the recorded cluster's, here the mock's.
    await expectReplayed(apiStep, await send(apiStep), (body) => ({
      ...(body as object),
      serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '127.0.0.1:16443' }],
    }));
    expect(
      ((await (await send(apiStep)).json()) as { serverAddressByClientCIDRs: { serverAddress: string }[] }).serverAddressByClientCIDRs[0]?.serverAddress,
    ).toBe(new URL(api.url).host);
    await expectReplayed(v1Step, await send(v1Step));
  });

  it('discovery-apis: /apis lists every group in the aggregator order, preferred version first', async () => {
    const [step] = fixture('discovery-apis').steps as [Step];
    await expectReplayed(step, await send(step));
  });

  it('discovery-apps-v1: /apis/apps/v1 with subresources and their foreign kinds', async () => {
    const [step] = fixture('discovery-apps-v1').steps as [Step];
    await expectReplayed(step, await send(step));
  });

  it('serves /apis/<group> as an APIGroup and answers an unknown group with the mux 404 page', async () => {
    const group = await (await fetch(`${api.url}/apis/autoscaling`, { headers: { Authorization: `Bearer ${api.token}` } })).json();
    expect(group).toEqual({
      kind: 'APIGroup',
      apiVersion: 'v1',
      name: 'autoscaling',
      versions: [
        { groupVersion: 'autoscaling/v2', version: 'v2' },
        { groupVersion: 'autoscaling/v1', version: 'v1' },
      ],
      preferredVersion: { groupVersion: 'autoscaling/v2', version: 'v2' },
    });
    const missing = await fetch(`${api.url}/apis/nosuch.example.com/v1`, { headers: { Authorization: `Bearer ${api.token}` } });
    expect([missing.status, await missing.text()]).toEqual([404, '404 page not found\n']);
    // A group-version has only the legacy document: kubectl's Accept (aggregated first, JSON last) gets it,
    // an Accept that wants only the aggregated form gets discovery's 406.
    const accept = (value: string) => fetch(`${api.url}/apis/apps/v1`, { headers: { Authorization: `Bearer ${api.token}`, Accept: value } });
    const kubectlAccept =
      'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';
    expect((await accept(kubectlAccept)).status).toBe(200);
    const refused = await accept('application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
    expect([refused.status, await refused.text()]).toEqual([406, fixture('discovery-aggregated-v2beta1').steps[0]?.response.bodyRaw]);
  });
});

describe('aggregated discovery', () => {
  it('discovery-aggregated: /apis and /api as APIGroupDiscoveryList v2, with the ETag kube computes', async () => {
    for (const step of fixture('discovery-aggregated').steps) await expectReplayed(step, await send(step));
  });

  it('discovery-aggregated-etag: If-None-Match with the ETag answers 304 and no body', async () => {
    for (const step of fixture('discovery-aggregated-etag').steps) await expectReplayed(step, await send(step));
  });

  it('discovery-aggregated-v2beta1: a v2beta1-only Accept is refused with 406, v2 is served', async () => {
    for (const step of fixture('discovery-aggregated-v2beta1').steps) await expectReplayed(step, await send(step));
  });

  it('lists a CRD group after the built-in groups, with its names, subresources and a new ETag', async () => {
    const catalog = new ResourceCatalog();
    catalog.registerCustomResourceDefinition({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget', shortNames: ['wd'], categories: ['all'] },
        versions: [
          { name: 'v1beta1', served: true, storage: false },
          {
            name: 'v1',
            served: true,
            storage: true,
            subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } },
            schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { replicas: { type: 'integer' } } } } } },
          },
        ],
      },
    });
    const crdApi = await startMockApi({ catalog, seed: 1 });
    try {
      const get = (p: string, accept = 'application/json') =>
        fetch(`${crdApi.url}${p}`, { headers: { Authorization: `Bearer ${crdApi.token}`, Accept: accept } });
      const groups = (await (await get('/apis')).json()) as { groups: { name: string; preferredVersion: { version: string } }[] };
      expect(groups.groups.at(-1)).toEqual({
        name: 'example.com',
        versions: [
          { groupVersion: 'example.com/v1', version: 'v1' },
          { groupVersion: 'example.com/v1beta1', version: 'v1beta1' },
        ],
        preferredVersion: { groupVersion: 'example.com/v1', version: 'v1' },
      });
      expect(await (await get('/apis/example.com/v1')).json()).toEqual({
        kind: 'APIResourceList',
        apiVersion: 'v1',
        groupVersion: 'example.com/v1',
        resources: [
          // storageVersionHash: sha256("example.com/v1/Widget")[:8], the CRD's storage version.
          {
            name: 'widgets',
            singularName: 'widget',
            namespaced: true,
            kind: 'Widget',
            verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
            shortNames: ['wd'],
            categories: ['all'],
            storageVersionHash: createHash('sha256').update('example.com/v1/Widget').digest().subarray(0, 8).toString('base64'),
          },
          { name: 'widgets/status', singularName: '', namespaced: true, kind: 'Widget', verbs: ['get', 'patch', 'update'] },
          { name: 'widgets/scale', singularName: '', namespaced: true, group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'] },
        ],
      });
      const aggregated = await get('/apis', 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
      const body = (await aggregated.json()) as { items: { metadata: { name: string }; versions: { version: string; resources: unknown[] }[] }[] };
      const widgets = body.items.at(-1);
      expect(widgets?.metadata.name).toBe('example.com');
      expect(widgets?.versions.map((v) => v.version)).toEqual(['v1', 'v1beta1']);
      expect(widgets?.versions[0]?.resources[0]).toEqual({
        resource: 'widgets',
        responseKind: { group: 'example.com', version: 'v1', kind: 'Widget' },
        scope: 'Namespaced',
        singularResource: 'widget',
        verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
        shortNames: ['wd'],
        categories: ['all'],
        subresources: [
          { subresource: 'status', responseKind: { group: 'example.com', version: 'v1', kind: 'Widget' }, verbs: ['get', 'patch', 'update'] },
          { subresource: 'scale', responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: ['get', 'patch', 'update'] },
        ],
      });
      const builtinEtag = fixture('discovery-aggregated').steps[0]?.response.headers.etag;
      expect(aggregated.headers.get('etag')).not.toBe(builtinEtag);
      const index = (await (await get('/openapi/v3')).json()) as { paths: Record<string, { serverRelativeURL: string }> };
      expect(Object.keys(index.paths)).toEqual(expect.arrayContaining(['apis/example.com', 'apis/example.com/v1', 'apis/example.com/v1beta1']));
      const document = (await (await get(index.paths['apis/example.com/v1']?.serverRelativeURL ?? '')).json()) as {
        components: { schemas: Record<string, { properties: Record<string, unknown> }> };
      };
      expect(document.components.schemas['com.example.v1.Widget']).toMatchObject({
        properties: { spec: { type: 'object', properties: { replicas: { type: 'integer' } } }, apiVersion: { type: 'string' } },
        'x-kubernetes-group-version-kind': [{ group: 'example.com', version: 'v1', kind: 'Widget' }],
      });
    } finally {
      await crdApi.close();
    }
  }, 60_000);
});

describe('version and health', () => {
  it('version: /version byte for byte', async () => {
    const [step] = fixture('version').steps as [Step];
    await expectReplayed(step, await send(step));
  });

  it('health: /healthz /readyz /livez, ?verbose, a named check, an unknown check, a bad token', async () => {
    const steps = fixture('health').steps;
    for (const step of steps.slice(0, -1)) await expectReplayed(step, await send(step));
    const badToken = steps.at(-1) as Step;
    await expectReplayed(badToken, await send(badToken, { Authorization: 'Bearer not-the-token' }));
  });
});

describe('OpenAPI v3', () => {
  it('openapi-v3-root: the index names the same documents, each URL with a hash', async () => {
    const [step] = fixture('openapi-v3-root').steps as [Step];
    const response = await send(step);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(step.response.headers['content-type']);
    // The hashes are of the documents served: the mock's documents are not the cluster's, so only their form is compared.
    const recorded = (step.response.body as { paths: Record<string, { serverRelativeURL: string }> }).paths;
    const served = ((await response.json()) as { paths: Record<string, { serverRelativeURL: string }> }).paths;
    expect(Object.keys(served)).toEqual(Object.keys(recorded));
    for (const [name, { serverRelativeURL }] of Object.entries(served)) {
      expect(serverRelativeURL).toMatch(new RegExp(`^/openapi/v3/${name.replace(/[.]/g, '\\.')}\\?hash=[0-9A-F]{128}$`));
    }
  });

  it('serves each group-version document with its kinds schemas and the PATCH parameters kubectl looks for', async () => {
    const get = async (p: string): Promise<Response> => fetch(`${api.url}${p}`, { headers: { Authorization: `Bearer ${api.token}` } });
    const index = (await (await get('/openapi/v3')).json()) as { paths: Record<string, { serverRelativeURL: string }> };
    const response = await get(index.paths['apis/apps/v1']?.serverRelativeURL ?? '');
    expect(response.status).toBe(200);
    const hash = /hash=([0-9A-F]+)/.exec(index.paths['apis/apps/v1']?.serverRelativeURL ?? '')?.[1];
    const text = await response.text();
    expect(createHash('sha512').update(text).digest('hex').toUpperCase()).toBe(hash);
    const document = JSON.parse(text) as {
      openapi: string;
      paths: Record<string, Record<string, { parameters?: { name: string; in: string }[]; 'x-kubernetes-group-version-kind'?: unknown }>>;
      components: { schemas: Record<string, { properties?: Record<string, unknown>; 'x-kubernetes-group-version-kind'?: unknown }> };
    };
    expect(document.openapi).toBe('3.0.0');
    const deployment = document.components.schemas['io.k8s.api.apps.v1.Deployment'];
    expect(deployment?.['x-kubernetes-group-version-kind']).toEqual([{ group: 'apps', version: 'v1', kind: 'Deployment' }]);
    expect(document.components.schemas['io.k8s.api.apps.v1.DeploymentSpec']?.properties?.replicas).toEqual({ type: 'integer', format: 'int32' });
    // kubectl's QueryParamVerifierV3: the kind's PATCH operation must list fieldValidation as a query parameter.
    const patch = document.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}']?.patch;
    expect(patch?.['x-kubernetes-group-version-kind']).toEqual({ group: 'apps', version: 'v1', kind: 'Deployment' });
    expect(patch?.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'fieldValidation', in: 'query' })]));
    const scale = document.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale']?.patch;
    expect(scale?.['x-kubernetes-group-version-kind']).toEqual({ group: 'autoscaling', version: 'v1', kind: 'Scale' });
    const core = JSON.parse(await (await get(index.paths['api/v1']?.serverRelativeURL ?? '')).text()) as typeof document;
    expect(Object.keys(core.paths)).toEqual(
      expect.arrayContaining(['/api/v1/namespaces/{namespace}/configmaps/{name}', '/api/v1/configmaps', '/api/v1/namespaces/{name}']),
    );
    expect((await get('/openapi/v3/apis/nosuch.example.com/v1')).status).toBe(404);
  });
});

describe('clients that resolve resources through discovery', () => {
  it('@kubernetes/client-node KubernetesObjectApi creates and reads by kind, finding the resource in /apis/apps/v1', async () => {
    const config = new k8s.KubeConfig();
    config.loadFromFile(api.kubeconfigPath);
    const client = k8s.KubernetesObjectApi.makeApiClient(config);
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } },
      },
    };
    await client.create(deployment);
    await expect(client.read({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default' } })).resolves.toMatchObject({
      metadata: { name: 'web' },
    });
  });
});
