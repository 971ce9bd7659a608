import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import { ResourceCatalog } from '../../lib/kube/catalog';
import { startMockApi, type MockApi } from '../../lib/mockapi';
import { freezeDate } from './date-clock';
import { openWatch } from './watch/watch-client';

/*
 * Metadata-only answers as kube-apiserver v1.36.2 makes them (apiserver pkg/endpoints/handlers/response.go,
 * asPartialObjectMetadata and asPartialObjectMetadataList; negotiation in handlers/rest.go,
 * AllowsMediaTypeTransform), asked for over the loopback server with the Accept headers client-go's metadata
 * client sends (k8s.io/client-go/metadata/metadata.go): protobuf first, which the mock API passes over for JSON.
 * The object's shape is checked against error-responses (recorded on a real kube-apiserver v1.36.2, in
 * test/mockapi/fixtures/apiserver-api), whose Table row carries the same PartialObjectMetadata.
 */

const METADATA_GET =
  'application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json';
const METADATA_LIST =
  'application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';
// client-go's metadata Watch asks for PartialObjectMetadata, not the list.
const METADATA_WATCH = METADATA_GET;
const ONLY = (kind: string, version = 'v1'): string => `application/json;as=${kind};g=meta.k8s.io;v=${version}`;

interface Meta {
  name?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  creationTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  managedFields?: unknown[];
}
interface Partial {
  kind: string;
  apiVersion: string;
  metadata: Meta;
}
interface PartialList {
  kind: string;
  apiVersion: string;
  metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  items: Partial[] | null;
}
interface Answer {
  status: number;
  contentType: string | undefined;
  text: string;
}

const WIDGETS = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
  },
};

let api: MockApi;
beforeAll(async () => {
  const catalog = new ResourceCatalog();
  catalog.registerCustomResourceDefinition(WIDGETS);
  api = await startMockApi({ catalog, seed: 31, intercept: false, namespaces: [{ name: 'meta' }, { name: 'o4-err2' }, { name: 'empty' }] });
}, 60_000);
afterAll(() => api.close());

/** One request over real TLS to the loopback server, trusting only the API's CA. */
function send(method: string, target: string, accept: string, body?: unknown, contentType = 'application/json'): Promise<Answer> {
  const sent = body === undefined ? undefined : JSON.stringify(body);
  const headers = { Authorization: `Bearer ${api.token}`, Accept: accept, ...(sent === undefined ? {} : { 'Content-Type': contentType }) };
  return new Promise((resolve, reject) => {
    const request = https.request(`${api.url}${target}`, { method, ca: api.ca, headers }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, contentType: response.headers['content-type'], text }));
    });
    request.on('error', reject);
    request.end(sent);
  });
}
const get = (target: string, accept: string): Promise<Answer> => send('GET', target, accept);
const parsed = <T>(answer: Answer): T => JSON.parse(answer.text) as T;

const configMap = (name: string, namespace = 'meta', labels: Record<string, string> = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace, labels },
  data: { k: name },
});
async function create(target: string, object: unknown): Promise<{ metadata: Meta }> {
  const answer = await send('POST', target, 'application/json', object);
  expect(answer.status).toBe(201);
  return parsed(answer);
}

describe('error-responses: the PartialObjectMetadata of a recorded object', () => {
  it("is the recorded Table row's object, byte for byte: the whole ObjectMeta, managedFields kept", async () => {
    const fixture = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', 'apiserver-api', 'error-responses.json'), 'utf8')) as {
      steps: { request: { path: string; headers: Record<string, string> }; response: { body?: { rows?: { object: Partial }[] } } }[];
    };
    const table = fixture.steps.find((step) => step.request.headers.Accept === 'application/json;as=Table;v=v1;g=meta.k8s.io');
    const recorded = table?.response.body?.rows?.[0]?.object as Partial;
    const clock = freezeDate(recorded.metadata.creationTimestamp as string);
    try {
      // Created as the recorder created it: a client that sent no User-Agent (field manager `unknown`).
      const mine = (
        await create('/api/v1/namespaces/o4-err2/configmaps?fieldManager=unknown', {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'p4', namespace: 'o4-err2' },
          data: { n: 'p4' },
        })
      ).metadata;
      const answer = await get('/api/v1/namespaces/o4-err2/configmaps/p4', METADATA_GET);
      const expected = JSON.stringify(recorded)
        .replace(`"uid":"${recorded.metadata.uid}"`, `"uid":"${mine.uid}"`)
        .replace(`"resourceVersion":"${recorded.metadata.resourceVersion}"`, `"resourceVersion":"${mine.resourceVersion}"`);
      expect([answer.status, answer.contentType, answer.text]).toEqual([200, 'application/json', expected]);
    } finally {
      clock.restore();
    }
  });
});

describe("client-go's metadata client: get, list and watch", () => {
  beforeAll(async () => {
    for (const name of ['a', 'b', 'c']) await create('/api/v1/namespaces/meta/configmaps', configMap(name, 'meta', { app: name }));
  });

  it('gets an object as its PartialObjectMetadata: kind, apiVersion and the metadata the object is served with', async () => {
    const plain = parsed<{ metadata: Meta }>(await get('/api/v1/namespaces/meta/configmaps/a', 'application/json'));
    const answer = await get('/api/v1/namespaces/meta/configmaps/a', METADATA_GET);
    expect([answer.status, answer.contentType]).toEqual([200, 'application/json']);
    expect(answer.text).toBe(JSON.stringify({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: plain.metadata }));
  });

  it('lists as a PartialObjectMetadataList whose items each say their kind and apiVersion, with the list metadata', async () => {
    const plain = parsed<{ metadata: { resourceVersion: string }; items: { metadata: Meta }[] }>(
      await get('/api/v1/namespaces/meta/configmaps', 'application/json'),
    );
    const answer = await get('/api/v1/namespaces/meta/configmaps', METADATA_LIST);
    expect([answer.status, answer.contentType]).toEqual([200, 'application/json']);
    expect(parsed<PartialList>(answer)).toEqual({
      kind: 'PartialObjectMetadataList',
      apiVersion: 'meta.k8s.io/v1',
      metadata: { resourceVersion: plain.metadata.resourceVersion },
      items: plain.items.map(({ metadata }) => ({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata })),
    });
    expect(answer.text.startsWith('{"kind":"PartialObjectMetadataList","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":')).toBe(true);
  });

  it('pages as the list pages: continue and remainingItemCount, then the last page without them', async () => {
    const first = parsed<PartialList>(await get('/api/v1/namespaces/meta/configmaps?limit=2', METADATA_LIST));
    expect(first.metadata).toEqual({ resourceVersion: expect.any(String), continue: expect.any(String), remainingItemCount: 1 });
    expect(first.items?.map((item) => item.metadata.name)).toEqual(['a', 'b']);
    const rest = parsed<PartialList>(await get(`/api/v1/namespaces/meta/configmaps?limit=2&continue=${first.metadata.continue}`, METADATA_LIST));
    expect([rest.metadata, rest.items?.map((item) => item.metadata.name)]).toEqual([{ resourceVersion: first.metadata.resourceVersion }, ['c']]);
  });

  it("lists nothing as items null: the typed list's nil slice", async () => {
    const answer = await get('/api/v1/namespaces/empty/configmaps', METADATA_LIST);
    expect(answer.text).toMatch(
      /^\{"kind":"PartialObjectMetadataList","apiVersion":"meta\.k8s\.io\/v1","metadata":\{"resourceVersion":"\d+"\},"items":null\}$/,
    );
  });

  it('watches with every event carrying a PartialObjectMetadata, the initial-events bookmark included', async () => {
    const query = 'watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&labelSelector=app%3Da';
    const watch = await openWatch(api, `/api/v1/namespaces/meta/configmaps?${query}`, 'loopback', { Accept: METADATA_WATCH });
    try {
      expect([watch.status, watch.headers['content-type']]).toEqual([200, 'application/json']);
      const [added, bookmark] = await watch.next(2);
      const current = parsed<{ metadata: Meta }>(await get('/api/v1/namespaces/meta/configmaps/a', 'application/json'));
      expect(added).toEqual({ type: 'ADDED', object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: current.metadata } });
      expect(bookmark).toEqual({
        type: 'BOOKMARK',
        object: {
          kind: 'PartialObjectMetadata',
          apiVersion: 'meta.k8s.io/v1',
          metadata: { resourceVersion: expect.any(String), annotations: { 'k8s.io/initial-events-end': 'true' } },
        },
      });
      const patched = await send(
        'PATCH',
        '/api/v1/namespaces/meta/configmaps/a',
        'application/json',
        { data: { k: 'changed' } },
        'application/merge-patch+json',
      );
      expect(patched.status).toBe(200);
      const [, , modified] = await watch.next(3);
      expect(modified).toEqual({
        type: 'MODIFIED',
        object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: parsed<{ metadata: Meta }>(patched).metadata },
      });
    } finally {
      watch.abort();
    }
  });

  it('watches asked for as a PartialObjectMetadataList with the objects as they are: the embedded encoder writes what it cannot convert', async () => {
    const watch = await openWatch(api, '/api/v1/namespaces/meta/configmaps?watch=1&labelSelector=app%3Db', 'loopback', {
      Accept: ONLY('PartialObjectMetadataList'),
    });
    try {
      const [added] = await watch.next(1);
      expect([watch.status, added?.type, added?.object.kind, added?.object.apiVersion, (added?.object as { data?: unknown }).data]).toEqual([
        200,
        'ADDED',
        'ConfigMap',
        'v1',
        { k: 'b' },
      ]);
    } finally {
      watch.abort();
    }
  });

  it("answers a write with the written object's PartialObjectMetadata, as the metadata client's Patch asks", async () => {
    const answer = await send(
      'PATCH',
      '/api/v1/namespaces/meta/configmaps/c',
      METADATA_GET,
      { metadata: { labels: { patched: 'yes' } } },
      'application/merge-patch+json',
    );
    const object = parsed<Partial>(answer);
    expect([answer.status, object.kind, object.apiVersion, object.metadata.labels]).toEqual([
      200,
      'PartialObjectMetadata',
      'meta.k8s.io/v1',
      { app: 'c', patched: 'yes' },
    ]);
    expect(Object.keys(object)).toEqual(['kind', 'apiVersion', 'metadata']);
  });
});

describe('the kind that does not fit the answer: 406', () => {
  const refusal = (message: string) => ({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'NotAcceptable', code: 406 });

  it("a PartialObjectMetadataList of one object: kube's text, naming the internal type, as raw JSON when no plain range follows", async () => {
    const answer = await get('/api/v1/namespaces/meta/configmaps/a', ONLY('PartialObjectMetadataList'));
    expect([answer.status, answer.contentType]).toEqual([406, 'application/json']);
    // responsewriters.WriteRawJSON: indented by two spaces, no newline.
    expect(answer.text).toBe(
      '{\n  "kind": "Status",\n  "apiVersion": "v1",\n  "metadata": {},\n  "status": "Failure",\n' +
        '  "message": "you requested PartialObjectMetadataList, but the requested object is not a list (*core.ConfigMap)",\n' +
        '  "reason": "NotAcceptable",\n  "code": 406\n}',
    );
  });

  it('a PartialObjectMetadata of a list; with a plain JSON range after it, the Status is written in it', async () => {
    const answer = await get('/apis/apps/v1/namespaces/meta/deployments', `${ONLY('PartialObjectMetadata')},application/json`);
    expect([answer.status, answer.text]).toEqual([
      406,
      JSON.stringify(refusal('you requested PartialObjectMetadata, but the requested object is a list (*apps.DeploymentList)')),
    ]);
  });

  it.each([
    ['/api/v1/namespaces/meta/pods', '*core.PodList'],
    ['/apis/events.k8s.io/v1/namespaces/meta/events', '*core.EventList'],
    ['/apis/rbac.authorization.k8s.io/v1/namespaces/meta/roles', '*rbac.RoleList'],
    ['/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', '*admissionregistration.ValidatingWebhookConfigurationList'],
  ])('names the internal list type of %s: %s', async (target, type) => {
    const answer = await get(target, ONLY('PartialObjectMetadata'));
    expect([answer.status, JSON.parse(answer.text).message]).toEqual([
      406,
      `you requested PartialObjectMetadata, but the requested object is a list (${type})`,
    ]);
  });

  it('an object that is not there is a 404 first, written as raw JSON to a conversion-only Accept', async () => {
    const answer = await get('/api/v1/namespaces/meta/configmaps/none', ONLY('PartialObjectMetadataList'));
    expect([answer.status, JSON.parse(answer.text).reason, answer.text.startsWith('{\n  "kind": "Status",\n')]).toEqual([404, 'NotFound', true]);
  });
});

describe('custom resources, meta.k8s.io/v1beta1 and YAML', () => {
  beforeAll(async () => {
    await create('/apis/example.com/v1/namespaces/meta/widgets', {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: {
        name: 'w1',
        labels: { tier: 'x', app: 'w' },
        annotations: { note: 'n' },
        finalizers: ['example.com/keep'],
        ownerReferences: [{ uid: 'u-1', name: 'owner', kind: 'ConfigMap', apiVersion: 'v1', controller: true }],
      },
      spec: { size: 3 },
    });
  });

  it("serves a custom resource's metadata in ObjectMeta's field order, and its list, and refuses the wrong kind naming the unstructured type", async () => {
    const answer = await get('/apis/example.com/v1/namespaces/meta/widgets/w1', METADATA_GET);
    const object = parsed<Partial>(answer);
    expect([object.kind, object.apiVersion]).toEqual(['PartialObjectMetadata', 'meta.k8s.io/v1']);
    expect(Object.keys(object.metadata)).toEqual([
      'name',
      'namespace',
      'uid',
      'resourceVersion',
      'generation',
      'creationTimestamp',
      'labels',
      'annotations',
      'ownerReferences',
      'finalizers',
      'managedFields',
    ]);
    // Labels as a Go map is written: sorted.
    expect(answer.text).toContain(
      '"labels":{"app":"w","tier":"x"},"annotations":{"note":"n"},"ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":"owner","uid":"u-1","controller":true}]',
    );
    const list = parsed<PartialList>(await get('/apis/example.com/v1/namespaces/meta/widgets', METADATA_LIST));
    // An unstructured list's `continue: ""` is not carried over into the typed list.
    expect([list.kind, list.metadata, list.items]).toEqual(['PartialObjectMetadataList', { resourceVersion: expect.any(String) }, [object]]);
    const refused = [
      await get('/apis/example.com/v1/namespaces/meta/widgets/w1', ONLY('PartialObjectMetadataList')),
      await get('/apis/example.com/v1/namespaces/meta/widgets', ONLY('PartialObjectMetadata')),
    ];
    expect(refused.map((answer) => [answer.status, JSON.parse(answer.text).message])).toEqual([
      [406, 'you requested PartialObjectMetadataList, but the requested object is not a list (*unstructured.Unstructured)'],
      [406, 'you requested PartialObjectMetadata, but the requested object is a list (*unstructured.UnstructuredList)'],
    ]);
  });

  it('answers at meta.k8s.io/v1beta1: the object, the list and its items', async () => {
    const object = parsed<Partial>(await get('/api/v1/namespaces/meta/configmaps/a', ONLY('PartialObjectMetadata', 'v1beta1')));
    const list = parsed<PartialList>(await get('/apis/example.com/v1/namespaces/meta/widgets', ONLY('PartialObjectMetadataList', 'v1beta1')));
    expect([object.apiVersion, list.apiVersion, list.items?.map((item) => [item.kind, item.apiVersion])]).toEqual([
      'meta.k8s.io/v1beta1',
      'meta.k8s.io/v1beta1',
      [['PartialObjectMetadata', 'meta.k8s.io/v1beta1']],
    ]);
  });

  it('writes a PartialObjectMetadata asked for in YAML as YAML', async () => {
    const answer = await get('/api/v1/namespaces/meta/configmaps/b', 'application/yaml;as=PartialObjectMetadata;g=meta.k8s.io;v=v1');
    expect([answer.status, answer.contentType]).toEqual([200, 'application/yaml']);
    expect(answer.text).toMatch(/^apiVersion: meta\.k8s\.io\/v1\nkind: PartialObjectMetadata\nmetadata:\n {2}creationTimestamp: /);
    expect(answer.text).not.toMatch(/^data:/m);
  });

  it("serves a subresource's metadata too: a Deployment's scale", async () => {
    await create('/apis/apps/v1/namespaces/meta/deployments', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd' },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'd' } },
        template: { metadata: { labels: { app: 'd' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
      },
    });
    const scale = parsed<{ metadata: Meta }>(await get('/apis/apps/v1/namespaces/meta/deployments/d/scale', 'application/json'));
    const answer = await get('/apis/apps/v1/namespaces/meta/deployments/d/scale', METADATA_GET);
    expect(parsed<Partial>(answer)).toEqual({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: scale.metadata });
    expect(JSON.parse((await get('/apis/apps/v1/namespaces/meta/deployments/d/scale', ONLY('PartialObjectMetadataList'))).text).message).toBe(
      'you requested PartialObjectMetadataList, but the requested object is not a list (*autoscaling.Scale)',
    );
  });
});
