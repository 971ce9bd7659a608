// The checks of webhook_converter.go no recording shows (staging/src/k8s.io/apiextensions-apiserver/pkg/apiserver/
// conversion/webhook_converter.go, getConvertedObjectsFromResponse and Convert; converter.go ConvertToVersion), each
// with kube's text, and what h.convert does around them.
import { createHarness, HarnessError, sharedAuthority, type Harness, type KubeObject } from '../../lib';
import { conversionBackend, type BackendMode } from './backend';

jest.setTimeout(60_000);

function widgetCrd(caBundle: string, conversion: Record<string, unknown>): Record<string, unknown> {
  const schema = (field: string) => ({
    openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { [field]: { type: 'string' }, size: { type: 'integer' } } } } },
  });
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.stable.example.com' },
    spec: {
      group: 'stable.example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: [
        { name: 'v1', served: true, storage: true, schema: schema('color') },
        { name: 'v2', served: true, storage: false, schema: schema('colour') },
      ],
      conversion:
        conversion.strategy === 'None'
          ? conversion
          : {
              strategy: 'Webhook',
              webhook: {
                conversionReviewVersions: ['v1'],
                clientConfig: { service: { name: 'widgets', namespace: 'ops', path: '/convert' }, caBundle },
                ...conversion,
              },
            },
    },
  };
}

const widget = (name: string, labels?: Record<string, string>): KubeObject => ({
  apiVersion: 'stable.example.com/v1',
  kind: 'Widget',
  metadata: { name, namespace: 'ops', uid: `uid-${name}`, ...(labels ? { labels } : {}) },
  spec: { color: 'red', size: 1 },
});

let mode: BackendMode = { kind: 'ok' };
const backend = conversionBackend(() => mode);
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ manifests: [widgetCrd((await sharedAuthority()).caBundle, {})], target: backend.handler, seed: 7 });
});
afterAll(() => h.close());
beforeEach(() => {
  mode = { kind: 'ok' };
  backend.received.length = 0;
});

/** A backend answering `response` (members over the good answer's), or a whole body. */
const answering = (edit: (good: Record<string, unknown>, uid: string) => unknown, status = 200): BackendMode => ({
  kind: 'custom',
  answer: (review) => {
    const converted = review.request.objects.map((object) => ({ ...object, apiVersion: review.request.desiredAPIVersion }));
    return {
      status,
      body: edit(
        {
          apiVersion: review.apiVersion,
          kind: 'ConversionReview',
          response: { uid: review.request.uid, convertedObjects: converted, result: { status: 'Success' } },
        },
        review.request.uid,
      ),
    };
  },
});
const withResponse = (members: Record<string, unknown>) => answering((good) => ({ ...good, response: { ...(good.response as object), ...members } }));
const failureOf = async (answer: BackendMode): Promise<string | undefined> => {
  mode = answer;
  return (await h.convert(widget('w1'), 'v2')).error?.message;
};

const PREFIX = 'conversion webhook for stable.example.com/v1, Kind=Widget';

it('sends the review to the service path with the name kube-apiserver verifies, and returns the converted object', async () => {
  const result = await h.convert(widget('w1'), 'v2');
  expect(result.ok).toBe(true);
  expect(result.outcomes[0]?.url).toBe('https://widgets.ops.svc:443/convert?timeout=30s');
  expect(result.objects).toEqual([{ ...widget('w1'), apiVersion: 'stable.example.com/v2', spec: { colour: 'red', size: 1 } }]);
});

it.each([
  ['no converted object', withResponse({ convertedObjects: [] }), `${PREFIX} returned 0 objects, expected 1`],
  [
    'two converted objects',
    answering((good) => ({ ...good, response: { ...(good.response as Record<string, unknown>), convertedObjects: [widget('a'), widget('b')] } })),
    `${PREFIX} returned 2 objects, expected 1`,
  ],
  [
    'a wrong apiVersion',
    withResponse({ convertedObjects: [{ ...widget('w1'), apiVersion: 'stable.example.com/v9' }] }),
    `${PREFIX} returned invalid object at index 0: invalid groupVersion (expected stable.example.com/v2, received stable.example.com/v9)`,
  ],
  [
    'another kind',
    withResponse({ convertedObjects: [{ ...widget('w1'), apiVersion: 'stable.example.com/v2', kind: 'Gadget' }] }),
    `${PREFIX} returned invalid object at index 0: invalid kind (expected Widget, received Gadget)`,
  ],
  [
    'another namespace',
    withResponse({ convertedObjects: [{ ...widget('w1'), apiVersion: 'stable.example.com/v2', metadata: { ...widget('w1').metadata, namespace: 'dev' } }] }),
    `${PREFIX} returned invalid object: must have the same namespace: ops != dev`,
  ],
  [
    'no metadata',
    withResponse({ convertedObjects: [{ apiVersion: 'stable.example.com/v2', kind: 'Widget' }] }),
    `${PREFIX} returned invalid object: must have the same name: w1 != `,
  ],
  [
    'a label that is no string',
    withResponse({ convertedObjects: [{ ...widget('w1'), apiVersion: 'stable.example.com/v2', metadata: { ...widget('w1').metadata, labels: { n: 1 } } }] }),
    `${PREFIX} returned invalid metadata: metadata.labels[n] must be a string, but is int64 in converted object`,
  ],
  [
    'an invalid label value',
    withResponse({
      convertedObjects: [{ ...widget('w1'), apiVersion: 'stable.example.com/v2', metadata: { ...widget('w1').metadata, labels: { app: 'no spaces' } } }],
    }),
    expect.stringMatching(
      /^conversion webhook for stable\.example\.com\/v1, Kind=Widget returned invalid metadata: metadata\.labels: Invalid value: "no spaces": /,
    ),
  ],
  [
    'result.status Failure without a message',
    withResponse({ result: { status: 'Failure' } }),
    `${PREFIX} failed: response.result.status was 'Failure', not 'Success'`,
  ],
  ['no result', withResponse({ result: {} }), `${PREFIX} failed: response.result.status was '', not 'Success'`],
  ['no response', answering((good) => ({ ...good, response: undefined })), `${PREFIX} failed: no response provided`],
  [
    'another kind of review',
    answering((good) => ({ ...good, kind: 'AdmissionReview' })),
    `${PREFIX} failed: no kind "AdmissionReview" is registered for version "apiextensions.k8s.io/v1" in scheme "pkg/util/webhook/client.go:71"`,
  ],
  [
    'no kind',
    answering((good) => ({ ...good, kind: undefined })),
    `${PREFIX} failed: expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got apiextensions.k8s.io/v1, Kind=`,
  ],
  [
    'a v1beta1 review to a v1 request',
    answering((good) => ({ ...good, apiVersion: 'apiextensions.k8s.io/v1beta1' })),
    `${PREFIX} failed: converting (v1beta1.ConversionReview) to (v1.ConversionReview): unknown conversion`,
  ],
  [
    'a uid that is no string',
    withResponse({ uid: 5 }),
    `${PREFIX} failed: json: cannot unmarshal number into Go struct field ConversionReview.response.uid of type types.UID`,
  ],
  [
    'a JSON string',
    answering(() => '<html>', 200),
    `${PREFIX} failed: couldn't get version/kind; json parse error: json: cannot unmarshal string into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`,
  ],
  ['a 404', answering(() => ({}), 404), `${PREFIX} failed: the server could not find the requested resource`],
])("fails an answer with %s, with kube-apiserver's text", async (_what, answer, text) => {
  expect(await failureOf(answer)).toEqual(text);
});

it('keeps the original metadata but for labels and annotations, and drops those the answer leaves out', async () => {
  mode = withResponse({
    convertedObjects: [
      {
        ...widget('w1'),
        apiVersion: 'stable.example.com/v2',
        metadata: { name: 'w1', namespace: 'ops', uid: 'uid-w1', generation: 99, annotations: { a: 'b' } },
      },
    ],
  });
  const result = await h.convert(widget('w1', { team: 'x' }), 'v2');
  expect(result.objects[0]?.metadata).toEqual({ name: 'w1', namespace: 'ops', uid: 'uid-w1', annotations: { a: 'b' } });
});

it('sends one review per object and stops at the first failure, as a LIST does', async () => {
  let calls = 0;
  mode = answering((good) => (++calls === 2 ? { ...good, response: { ...(good.response as object), uid: 'wrong' } } : good));
  const result = await h.convert([widget('w1'), widget('w2'), widget('w3')], 'v2');
  expect(backend.received.map((r) => r.review.request.objects.map((o) => (o.metadata as { name: string }).name))).toEqual([['w1'], ['w2']]);
  expect(result.ok).toBe(false);
  expect(result.outcomes).toHaveLength(2);
  expect(result.error?.check).toBe('uid');
  expect(result.error?.status).toEqual({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: expect.stringMatching(
      /^conversion webhook for stable\.example\.com\/v1, Kind=Widget failed: expected response\.uid="[0-9a-f-]{36}", got "wrong"$/,
    ),
    code: 500,
  });
});

it('sends nothing for an object already at the version asked for, nor for an empty one', async () => {
  const v2 = { ...widget('w1'), apiVersion: 'stable.example.com/v2' };
  const empty = { apiVersion: 'stable.example.com/v1', kind: 'Widget' };
  const result = await h.convert([v2, empty], 'stable.example.com/v2');
  expect(backend.received).toHaveLength(0);
  expect(result.objects).toEqual([v2, { apiVersion: 'stable.example.com/v2', kind: 'Widget' }]);
});

it('refuses a version the CRD does not declare, and an object no CRD serves, before sending anything', async () => {
  await expect(h.convert(widget('w1'), 'v3')).rejects.toThrow(HarnessError);
  await expect(h.convert(widget('w1'), 'v3')).rejects.toThrow(
    'h.convert: objects[0]: request to convert CR to an invalid group/version: stable.example.com/v3\n  hint: widgets.stable.example.com declares the versions v1, v2',
  );
  await expect(h.convert([widget('w1'), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } }], 'v2')).rejects.toThrow(
    'h.convert: objects[1]: v1 ConfigMap is no custom resource',
  );
  expect(backend.received).toHaveLength(0);
});

it('a v1beta1 review: no uid or kind check, as kube-apiserver keeps for compatibility', async () => {
  const h1 = await createHarness({
    manifests: [widgetCrd((await sharedAuthority()).caBundle, { conversionReviewVersions: ['v2', 'v1beta1', 'v1'] })],
    target: backend.handler,
    seed: 7,
  });
  try {
    mode = answering((good) => ({ ...good, response: { ...(good.response as object), uid: '' } }));
    const result = await h1.convert(widget('w1'), 'v2');
    expect(backend.received[0]?.review.apiVersion).toBe('apiextensions.k8s.io/v1beta1');
    expect(result.ok).toBe(true);
  } finally {
    await h1.close();
  }
});

it('a webhook accepting no known review version gets no request', async () => {
  const h1 = await createHarness({
    manifests: [widgetCrd((await sharedAuthority()).caBundle, { conversionReviewVersions: ['v2'] })],
    target: backend.handler,
    seed: 7,
  });
  try {
    expect((await h1.convert(widget('w1'), 'v2')).error?.message).toBe('no supported conversion review versions');
    expect(backend.received).toHaveLength(0);
  } finally {
    await h1.close();
  }
});

it('strategy None only rewrites the apiVersion', async () => {
  const h1 = await createHarness({ manifests: [widgetCrd('', { strategy: 'None' })], seed: 7 });
  try {
    expect((await h1.convert(widget('w1'), 'v2')).objects).toEqual([{ ...widget('w1'), apiVersion: 'stable.example.com/v2' }]);
  } finally {
    await h1.close();
  }
});
