import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createHarness, stub, type HarnessOptions } from '../../lib';
import { ResourceCatalog } from '../../lib/kube/catalog';
import { startMockApi, type MockApi } from '../../lib/mockapi';
import { humanDuration } from '../../lib/mockapi/tables/human-duration';
import { validating } from '../dispatch/helpers';
import { freezeDate } from './date-clock';
import { openWatch } from './watch/watch-client';

/*
 * Tables as kube-apiserver v1.36.2 serves them (apiserver pkg/endpoints/handlers/response.go asTable, watch.go):
 * what kubectl get and get -w ask for (kubectl-get-watch, recorded on a real kube-apiserver v1.36.2 in
 * test/mockapi/fixtures), includeObject, Table versions, watches of Tables, custom resources' columns and
 * DefaultTableConvertor.
 */

interface Column {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}
interface Table {
  kind: string;
  apiVersion: string;
  metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  columnDefinitions: Column[] | null;
  rows: { cells: unknown[]; conditions?: unknown[]; object: Record<string, unknown> | null }[] | null;
}

const kubectlGetWatch = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', 'kubectl-get-watch.json'), 'utf8')) as {
  kubectl: { requests: { method: string; url: string; accept: string; status: string }[]; stdoutTail: string[] };
};
const [listRequest, watchRequest] = kubectlGetWatch.kubectl.requests.filter((r) => r.url.includes('/configmaps')) as unknown as [
  { url: string; accept: string },
  { url: string; accept: string },
];
const CREATED = '2026-12-01T18:29:38Z';

let api: MockApi;
let clock: ReturnType<typeof freezeDate>;
beforeAll(async () => {
  api = await startMockApi({ seed: 12, namespaces: [{ name: 'o4-kubectl' }, { name: 'tables' }] });
  clock = freezeDate(CREATED);
});
afterAll(async () => {
  clock.restore();
  await api.close();
});

async function get(target: string, accept: string, from = api): Promise<{ status: number; contentType: string | null; text: string; table: Table }> {
  const response = await fetch(`${from.url}${target}`, { headers: { Authorization: `Bearer ${from.token}`, Accept: accept } });
  const text = await response.text();
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    text,
    get table() {
      return JSON.parse(text) as Table;
    },
  };
}

describe('kubectl-get-watch: the Tables kubectl get -w asks for', () => {
  it("lists an empty namespace as a Table with kube's three columns and no rows, byte for byte", async () => {
    const { status, contentType, text, table } = await get(listRequest.url, listRequest.accept);
    expect([status, contentType]).toEqual([200, 'application/json']);
    expect(table.columnDefinitions?.map((c) => c.name)).toEqual(['NAME', 'DATA', 'AGE'].map((n) => n[0] + n.slice(1).toLowerCase()));
    expect(table.rows).toEqual([]);
    // The recorded answer was 1424 bytes with a newline and resourceVersion 273; the rest is the same.
    expect(Buffer.byteLength(text)).toBe(1424 - 1 - '273'.length + String(table.metadata.resourceVersion).length);
  });

  it('watches as Tables: each event one row, the column definitions on the first event only', async () => {
    const { table: list } = await get(listRequest.url, listRequest.accept);
    const url = watchRequest.url.replace('resourceVersion=273', `resourceVersion=${list.metadata.resourceVersion}`);
    const watch = await openWatch(api, url, 'loopback', { Accept: watchRequest.accept });
    try {
      expect([watch.status, watch.headers['content-type']]).toEqual([200, 'application/json']);
      api.store.put({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'wcm', namespace: 'o4-kubectl' }, data: { a: 'b' } });
      // The row's Age is what the clock reads when the event is written out: the first one arrives before it moves.
      await watch.next(1);
      clock.set(Date.parse(CREATED) + 75_000);
      api.store.put({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'wcm', namespace: 'o4-kubectl' }, data: { a: 'b', c: 'd' } });
      const [added, modified] = (await watch.next(2)) as unknown as [{ type: string; object: Table }, { type: string; object: Table }];
      expect(added.type).toBe('ADDED');
      expect(added.object.columnDefinitions?.map((c) => c.name)).toEqual(['Name', 'Data', 'Age']);
      // kubectl printed `wcm    1      0s` under `NAME   DATA   AGE`.
      expect(kubectlGetWatch.kubectl.stdoutTail).toEqual(['NAME   DATA   AGE', 'wcm    1      0s', '']);
      expect(added.object.rows?.map((row) => row.cells)).toEqual([['wcm', 1, '0s']]);
      expect(added.object.rows?.[0]?.object).toMatchObject({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name: 'wcm' } });
      expect(added.object.metadata.resourceVersion).toBe((added.object.rows?.[0]?.object?.metadata as { resourceVersion: string }).resourceVersion);
      expect(modified.type).toBe('MODIFIED');
      expect(modified.object.columnDefinitions).toBeNull();
      expect(watch.raw()).toContain('"columnDefinitions":null,"rows":[{"cells":["wcm",2,"75s"]');
    } finally {
      watch.abort();
    }
  });
});

describe('watches of Tables', () => {
  it('pass an ERROR event (a Status) through as it is: a watch from a compacted version', async () => {
    api.store.put({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'old', namespace: 'o4-kubectl' }, data: {} });
    api.store.compact();
    const watch = await openWatch(api, '/api/v1/namespaces/o4-kubectl/configmaps?watch=true&resourceVersion=1', 'loopback', { Accept: watchRequest.accept });
    try {
      const [event] = await watch.next(1);
      expect(event).toMatchObject({ type: 'ERROR', object: { kind: 'Status', apiVersion: 'v1', reason: 'Expired', code: 410 } });
    } finally {
      watch.abort();
    }
  });
});

describe('Table options', () => {
  beforeAll(() => {
    api.store.put({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'one', namespace: 'tables', labels: { app: 'x' } }, data: { k: 'v' } });
  });
  const one = '/api/v1/namespaces/tables/configmaps/one';
  const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';

  it('includeObject=Object carries the whole object, None carries null, Metadata (the default) its PartialObjectMetadata', async () => {
    const object = (await get(`${one}?includeObject=Object`, TABLE)).table.rows?.[0]?.object;
    expect(object).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'one', labels: { app: 'x' } }, data: { k: 'v' } });
    expect(Object.keys(object ?? {}).slice(0, 2)).toEqual(['kind', 'apiVersion']);
    expect((await get(`${one}?includeObject=None`, TABLE)).text).toContain('"object":null}]}');
    const metadata = (await get(`${one}?includeObject=Metadata`, TABLE)).table.rows?.[0]?.object;
    expect(metadata).toEqual((await get(one, TABLE)).table.rows?.[0]?.object);
  });

  it("refuses an includeObject it does not know with kube's 400, for a get and before a watch starts", async () => {
    const message = `Unable to convert to Table as requested: includeObject: Invalid value: "All": must be 'Metadata', 'Object', 'None', or empty`;
    for (const target of [`${one}?includeObject=All`, '/api/v1/namespaces/tables/configmaps?watch=true&includeObject=All']) {
      const { status, table } = await get(target, TABLE);
      expect([status, table]).toEqual([400, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'BadRequest', code: 400 }]);
    }
    // A missing object is a 404 first: the options are read once there is an object to convert.
    expect((await get('/api/v1/namespaces/tables/configmaps/none?includeObject=All', TABLE)).status).toBe(404);
  });

  it('answers a meta.k8s.io/v1beta1 Table, whose rows carry v1beta1 PartialObjectMetadata', async () => {
    const { table } = await get(one, 'application/json;as=Table;v=v1beta1;g=meta.k8s.io');
    expect([table.kind, table.apiVersion, table.rows?.[0]?.object?.apiVersion]).toEqual(['Table', 'meta.k8s.io/v1beta1', 'meta.k8s.io/v1beta1']);
  });

  it('writes a Table asked for in YAML as YAML', async () => {
    const { status, contentType, text } = await get(one, 'application/yaml;as=Table;v=v1;g=meta.k8s.io');
    expect([status, contentType]).toEqual([200, 'application/yaml']);
    expect(text).toContain('kind: Table\n');
    expect(text).toContain('- cells:\n  - one\n  - 1\n');
  });

  it("pages a Table's list as the list is paged: continue and remainingItemCount in its metadata", async () => {
    api.store.put({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'two', namespace: 'tables' }, data: {} });
    const { table } = await get('/api/v1/namespaces/tables/configmaps?limit=1', TABLE);
    expect(table.rows?.map((row) => row.cells[0])).toEqual(['one']);
    expect(table.metadata).toEqual({ resourceVersion: expect.any(String), continue: expect.any(String), remainingItemCount: 1 });
  });

  it('lists flow schemas as printFlowSchemaList does: by matching precedence, then name', async () => {
    const schema = (name: string, matchingPrecedence: number) => ({
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
      kind: 'FlowSchema',
      metadata: { name },
      spec: { priorityLevelConfiguration: { name: 'workload-low' }, matchingPrecedence },
    });
    for (const [name, precedence] of [
      ['b-tables', 500],
      ['z-tables', 100],
      ['a-tables', 500],
    ] as const)
      api.store.put(schema(name, precedence));
    const { table } = await get('/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas', TABLE);
    expect(table.rows?.map((row) => row.cells[0]).filter((name) => String(name).endsWith('-tables'))).toEqual(['z-tables', 'a-tables', 'b-tables']);
  });

  it('answers a Table-only Accept with 406 where kube has a printer the mock API lacks, and plain JSON when JSON follows', async () => {
    expect((await get('/apis/storage.k8s.io/v1/volumeattributesclasses', TABLE)).status).toBe(406);
    expect((await get('/apis/storage.k8s.io/v1/volumeattributesclasses', `${TABLE},application/json`)).table.kind).toBe('VolumeAttributesClassList');
    // A printer the mock API has: endpoints.
    expect((await get('/api/v1/namespaces/tables/endpoints', TABLE)).table.columnDefinitions?.map((c) => c.name)).toEqual(['Name', 'Endpoints', 'Age']);
    // Subresources have no Table either.
    api.store.put({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'tables' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    expect((await get('/api/v1/namespaces/tables/pods/p/status', `${TABLE},application/json`)).table.kind).toBe('Pod');
  });
});

describe("a write's answer asked for as a Table", () => {
  const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';
  const send = (method: string, target: string, body?: unknown) =>
    fetch(`${api.url}${target}`, {
      method,
      headers: { Authorization: `Bearer ${api.token}`, Accept: TABLE, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  it('is the Table of the created object; a delete answered with a Status stays a Status', async () => {
    const created = await send('POST', '/api/v1/namespaces/tables/configmaps', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'w1' },
      data: { a: 'b' },
    });
    const table = (await created.json()) as Table;
    expect([created.status, table.kind, table.rows?.map((row) => row.cells)]).toEqual([201, 'Table', [['w1', 1, '0s']]]);
    const deleted = await send('DELETE', '/api/v1/namespaces/tables/configmaps/w1');
    expect([deleted.status, ((await deleted.json()) as { kind: string }).kind]).toEqual([200, 'Status']);
  });

  it("keeps the admission chain's warnings in Warning headers when the answer becomes a Table", async () => {
    const h = await createHarness({
      seed: 27,
      namespaces: [{ name: 'team-a' }],
      mockApi: { admitWrites: true },
      manifests: [
        validating('v', { name: 'warn.example.com', rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }] }),
      ],
      stubs: { 'warn.example.com': stub.allow({ warnings: ['configmaps are deprecated here'] }) },
    } as HarnessOptions);
    try {
      const admitted = h.api as MockApi;
      const created = await fetch(`${admitted.url}/api/v1/namespaces/team-a/configmaps`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${admitted.token}`, Accept: TABLE, 'Content-Type': 'application/json' },
        body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'w' } }),
      });
      expect([created.status, ((await created.json()) as Table).kind, created.headers.get('warning')]).toEqual([
        201,
        'Table',
        '299 - "configmaps are deprecated here"',
      ]);
    } finally {
      await h.close();
    }
  });

  it('checks includeObject only once the write is done, as transformResponseObject does', async () => {
    const created = await send('POST', '/api/v1/namespaces/tables/configmaps?includeObject=All', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'w2' },
    });
    expect(created.status).toBe(400);
    expect(api.store.read('v1', 'ConfigMap', 'w2', 'tables')).toBeDefined();
  });
});

describe('DefaultTableConvertor and custom resources', () => {
  it('serves Name and Created At for a built-in resource without a printer, an empty list with rows null', async () => {
    const { table } = await get('/apis/rbac.authorization.k8s.io/v1/namespaces/tables/roles', 'application/json;as=Table;v=v1;g=meta.k8s.io');
    expect(table.columnDefinitions?.map((c) => [c.name, c.type, c.format])).toEqual([
      ['Name', 'string', 'name'],
      ['Created At', 'date', ''],
    ]);
    expect(table.rows).toBeNull();
    api.store.put({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'reader', namespace: 'tables' }, rules: [] });
    const { table: listed } = await get('/apis/rbac.authorization.k8s.io/v1/namespaces/tables/roles', 'application/json;as=Table;v=v1;g=meta.k8s.io');
    expect(listed.rows?.map((row) => row.cells)).toEqual([['reader', new Date(Date.now()).toISOString().replace(/\.\d{3}Z$/, 'Z')]]);
  });
});

describe('custom resources: the columns of their CRD version', () => {
  const crd = (columns?: unknown[]) => ({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
          ...(columns ? { additionalPrinterColumns: columns } : {}),
        },
      ],
    },
  });
  async function withWidgets(columns: unknown[] | undefined, run: (widgets: MockApi) => Promise<void>): Promise<void> {
    const catalog = new ResourceCatalog();
    catalog.registerCustomResourceDefinition(crd(columns));
    const widgets = await startMockApi({ catalog, seed: 3, namespaces: [{ name: 'w' }] });
    try {
      await run(widgets);
    } finally {
      await widgets.close();
    }
  }
  const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';

  it('evaluates each additionalPrinterColumn: strings printed, typed values kept, dates as ages, what is missing or mistyped null', async () => {
    const columns = [
      { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
      { name: 'Mode', type: 'string', jsonPath: '.spec.mode', description: 'How it runs', priority: 1 },
      { name: 'Ratio', type: 'number', jsonPath: '.spec.ratio' },
      { name: 'Ready', type: 'boolean', jsonPath: '.status.conditions[0].ready' },
      { name: 'Labels', type: 'string', jsonPath: '.metadata.labels' },
      { name: 'Missing', type: 'string', jsonPath: '.spec.nothing' },
      { name: 'Wrong', type: 'integer', jsonPath: '.spec.mode' },
      { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
      { name: 'Null', type: 'string', jsonPath: '.spec.empty' },
      { name: 'Tags', type: 'string', jsonPath: ".spec['tags']" },
    ];
    await withWidgets(columns, async (widgets) => {
      clock.set(CREATED);
      widgets.store.put({
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        metadata: { name: 'a', namespace: 'w', labels: { z: '1', a: '2' } },
        spec: { replicas: 3, mode: 'fast', ratio: 0.5, empty: null, tags: { b: '<x&y>', a: [1, true] } },
        status: { conditions: [{ ready: true }] },
      });
      clock.set(Date.parse(CREATED) + 3 * 3_600_000);
      const { table } = await get('/apis/example.com/v1/namespaces/w/widgets', TABLE, widgets);
      clock.set(CREATED);
      expect(table.columnDefinitions?.map((c) => [c.name, c.type, c.description, c.priority])).toEqual([
        ['Name', 'string', table.columnDefinitions?.[0]?.description, 0],
        ['Replicas', 'integer', 'Custom resource definition column (in JSONPath format): .spec.replicas', 0],
        ['Mode', 'string', 'How it runs', 1],
        ['Ratio', 'number', 'Custom resource definition column (in JSONPath format): .spec.ratio', 0],
        ['Ready', 'boolean', 'Custom resource definition column (in JSONPath format): .status.conditions[0].ready', 0],
        ['Labels', 'string', 'Custom resource definition column (in JSONPath format): .metadata.labels', 0],
        ['Missing', 'string', 'Custom resource definition column (in JSONPath format): .spec.nothing', 0],
        ['Wrong', 'integer', 'Custom resource definition column (in JSONPath format): .spec.mode', 0],
        ['Age', 'date', 'Custom resource definition column (in JSONPath format): .metadata.creationTimestamp', 0],
        ['Null', 'string', 'Custom resource definition column (in JSONPath format): .spec.empty', 0],
        ['Tags', 'string', "Custom resource definition column (in JSONPath format): .spec['tags']", 0],
      ]);
      // A string column prints maps and lists as Go's json.Marshal does (sorted keys, <>& escaped), null as <no value>.
      expect(table.rows?.map((row) => row.cells)).toEqual([
        ['a', 3, 'fast', 0.5, true, '{"a":"2","z":"1"}', null, null, '3h', '<no value>', '{"a":[1,true],"b":"\\u003cx\\u0026y\\u003e"}'],
      ]);
    });
  });

  it('shows Name and Age for a version without columns, and an empty list as rows []', async () => {
    await withWidgets(undefined, async (widgets) => {
      const { table } = await get('/apis/example.com/v1/namespaces/w/widgets', TABLE, widgets);
      expect(table.columnDefinitions?.map((c) => [c.name, c.type])).toEqual([
        ['Name', 'string'],
        ['Age', 'date'],
      ]);
      expect(table.columnDefinitions?.[1]?.description).toBe(
        table.columnDefinitions?.[0] && (await get('/api/v1/namespaces/tables/configmaps/one', TABLE)).table.columnDefinitions?.[2]?.description,
      );
      expect(table.rows).toEqual([]);
    });
  });
});

describe('human durations (apimachinery pkg/util/duration HumanDuration)', () => {
  it.each([
    [-2_000, '<invalid>'],
    [-500, '0s'],
    [0, '0s'],
    [119_999, '119s'],
    [120_000, '2m'],
    [125_000, '2m5s'],
    [600_000, '10m'],
    [3 * 3_600_000 - 1, '179m'],
    [3 * 3_600_000, '3h'],
    [3 * 3_600_000 + 60_000, '3h1m'],
    [8 * 3_600_000, '8h'],
    [47 * 3_600_000, '47h'],
    [48 * 3_600_000, '2d'],
    [49 * 3_600_000, '2d1h'],
    [8 * 86_400_000, '8d'],
    [2 * 365 * 86_400_000, '2y'],
    [2 * 365 * 86_400_000 + 86_400_000, '2y1d'],
    [8 * 365 * 86_400_000, '8y'],
  ])('%d ms → %s', (ms, text) => {
    expect(humanDuration(ms)).toBe(text);
  });
});

it('column-docs.json is what build-column-docs.mjs makes of the installed kubernetes-models', () => {
  const script = path.join(__dirname, '..', '..', 'lib', 'mockapi', 'tables', 'build-column-docs.mjs');
  expect(() => execFileSync(process.execPath, [script, '--check'], { stdio: 'pipe' })).not.toThrow();
});
