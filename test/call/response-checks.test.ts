import { createHarness, objects, review, type Harness, type InlineWebhook } from '../../lib';
import type { AdmissionReview } from '../../lib/kube/admission';
import { answer, base64Patch, scriptedWebhook, type Answer } from '../webhooks/handlers';

let script: (r: AdmissionReview) => Answer = (r) => answer(r);
const webhook = scriptedWebhook((r) => script(r));
let h: Harness;

beforeAll(async () => {
  h = await createHarness({ target: webhook.handler, seed: 3 });
});
afterAll(() => h.close());

const mutating: InlineWebhook & { name: string } = { type: 'mutating', path: '/mutate', name: 'm.example.com' };
const validating: InlineWebhook & { name: string } = { type: 'validating', path: '/validate', name: 'v.example.com' };
const v1beta1: InlineWebhook = { ...mutating, admissionReviewVersions: ['v1beta1'] };

async function callWith(target: InlineWebhook, reply: (r: AdmissionReview) => Answer) {
  script = reply;
  return h.call(target, review.create(objects.pod()));
}

const reviewOf = (r: AdmissionReview, response: Record<string, unknown>, top: Record<string, unknown> = {}): Answer => ({
  json: { apiVersion: r.apiVersion, kind: 'AdmissionReview', ...top, response: { uid: r.request?.uid, allowed: true, ...response } },
});

// Each row: a broken answer and kube-apiserver's text (k8s.io/apiserver/pkg/admission/plugin/webhook/request/admissionreview.go, k8s.io/client-go/rest/request.go; recorded on a real kube-apiserver v1.36.2).
const cases: [string, InlineWebhook & { name: string }, (r: AdmissionReview) => Answer, string, number][] = [
  [
    'no response member',
    mutating,
    (r) => ({ json: { apiVersion: r.apiVersion, kind: 'AdmissionReview' } }),
    'received invalid webhook response: webhook response was absent',
    503,
  ],
  ['a wrong uid', mutating, (r) => reviewOf(r, { uid: 'nope' }), `received invalid webhook response: expected response.uid="UID", got "nope"`, 503],
  // Go's %q, not JSON: control and non-printable characters are escaped as strconv.Quote does.
  [
    'a uid with control characters',
    mutating,
    (r) => reviewOf(r, { uid: 'a\u0007b\u007fc\u00a0d\u0001é' }),
    `received invalid webhook response: expected response.uid="UID", got "a\\ab\\x7fc\\u00a0d\\x01é"`,
    503,
  ],
  ['no uid', mutating, (r) => reviewOf(r, { uid: undefined }), `received invalid webhook response: expected response.uid="UID", got ""`, 503],
  [
    'no apiVersion or kind',
    mutating,
    (r) => ({ json: { response: { uid: r.request?.uid, allowed: true } } }),
    'received invalid webhook response: expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got /, Kind=',
    503,
  ],
  [
    'no apiVersion',
    mutating,
    (r) => ({ json: { kind: 'AdmissionReview', response: { uid: r.request?.uid, allowed: true } } }),
    'received invalid webhook response: expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got /, Kind=AdmissionReview',
    503,
  ],
  [
    'an unknown apiVersion',
    mutating,
    (r) => reviewOf(r, {}, { apiVersion: 'admission.k8s.io/v2' }),
    'failed to call webhook: no kind "AdmissionReview" is registered for version "admission.k8s.io/v2" in scheme "pkg/util/webhook/client.go:71"',
    503,
  ],
  [
    'a v1beta1 review to a v1 request',
    mutating,
    (r) => reviewOf(r, {}, { apiVersion: 'admission.k8s.io/v1beta1' }),
    'failed to call webhook: converting (v1beta1.AdmissionReview) to (v1.AdmissionReview): unknown conversion',
    503,
  ],
  [
    'an HTML page',
    mutating,
    () => ({ raw: '<html><body>oops</body></html>', headers: { 'Content-Type': 'text/html' } }),
    'failed to call webhook: couldn\'t get version/kind; json parse error: json: cannot unmarshal string into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }',
    503,
  ],
  [
    'a JSON array',
    mutating,
    () => ({ json: [] }),
    'failed to call webhook: couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }',
    503,
  ],
  [
    'truncated JSON',
    mutating,
    () => ({ raw: '{"apiVersion":' }),
    "failed to call webhook: couldn't get version/kind; json parse error: unexpected end of JSON input",
    503,
  ],
  [
    'an empty body',
    mutating,
    () => ({ raw: '', headers: { 'Content-Type': 'application/json' } }),
    'failed to call webhook: 0-length response with status code: 200 and content type: application/json',
    503,
  ],
  [
    'allowed as a string',
    mutating,
    (r) => reviewOf(r, { allowed: 'yes' }),
    'failed to call webhook: json: cannot unmarshal string into Go struct field AdmissionReview.response.allowed of type bool',
    503,
  ],
  [
    'a patch without patchType',
    mutating,
    (r) => reviewOf(r, { patch: base64Patch([]) }),
    'received invalid webhook response: webhook returned response.patch but not response.patchType',
    503,
  ],
  [
    'a patchType without patch',
    mutating,
    (r) => reviewOf(r, { patchType: 'JSONPatch' }),
    'received invalid webhook response: webhook returned response.patchType but not response.patch',
    503,
  ],
  [
    'an empty patchType',
    mutating,
    (r) => reviewOf(r, { patch: base64Patch([]), patchType: '' }),
    'received invalid webhook response: webhook returned invalid response.patchType of ""',
    503,
  ],
  [
    'a validating patch',
    validating,
    (r) => reviewOf(r, { patch: base64Patch([]), patchType: 'JSONPatch' }),
    'received invalid webhook response: validating webhook may not return response.patch',
    503,
  ],
  [
    'a validating patchType',
    validating,
    (r) => reviewOf(r, { patchType: 'JSONPatch' }),
    'received invalid webhook response: validating webhook may not return response.patchType',
    503,
  ],
  [
    'an undecodable patch',
    mutating,
    (r) => reviewOf(r, { patch: Buffer.from('[{').toString('base64'), patchType: 'JSONPatch' }),
    'received undecodable patch in webhook response: unexpected end of JSON input',
    503,
  ],
  [
    'an unsupported patchType',
    mutating,
    (r) => reviewOf(r, { patch: base64Patch([{ op: 'add', path: '/x', value: 1 }]), patchType: 'MergePatch' }),
    'unsupported patch type "MergePatch"',
    400,
  ],
  [
    'HTTP 500 with a text body',
    mutating,
    () => ({ raw: 'boom', status: 500 }),
    'failed to call webhook: an error on the server ("boom") has prevented the request from succeeding',
    500,
  ],
  [
    'HTTP 500 with a JSON body',
    mutating,
    () => ({ json: { error: 'boom' }, status: 500 }),
    'failed to call webhook: an error on the server ("unknown") has prevented the request from succeeding',
    500,
  ],
  ['HTTP 404', mutating, () => ({ raw: 'not found', status: 404 }), 'failed to call webhook: the server could not find the requested resource', 404],
  [
    'HTTP 403 with a Status body',
    mutating,
    () => ({ json: { kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'forbidden at http level', code: 403 }, status: 403 }),
    'failed to call webhook: forbidden at http level',
    403,
  ],
  [
    'HTTP 429',
    mutating,
    () => ({ raw: 'slow down', status: 429 }),
    'failed to call webhook: the server has received too many requests and has asked us to try again later',
    429,
  ],
  ['a closed connection', mutating, () => ({ destroy: true }), 'failed to call webhook: Post "https://localhost/mutate?timeout=10s": EOF', 503],
];

describe('response checks and calling errors, with kube-apiserver texts', () => {
  it.each(cases)('reports %s', async (_label, target, reply, text, code) => {
    const outcome = await callWith(target, reply);
    const uid = outcome.review.request!.uid;
    expect(outcome.allowed).toBe(false);
    expect(outcome.error?.message).toBe(`failed calling webhook "${target.name}": ${text.replace('UID', uid)}`);
    expect(outcome.error?.code).toBe(code);
    expect(outcome.error?.status).toMatchObject({ code: 500, reason: 'InternalError', message: `Internal error occurred: ${outcome.error?.message}` });
    expect(outcome.error?.hint).toEqual(expect.any(String));
  });

  it('accepts an empty patch array and any valid patch', async () => {
    expect(await callWith(mutating, (r) => reviewOf(r, { patch: base64Patch([]), patchType: 'JSONPatch' }))).toBeAllowed();
    const ops = [{ op: 'add', path: '/metadata/labels/a', value: 'b' }];
    const outcome = await callWith(mutating, (r) => reviewOf(r, { patch: base64Patch(ops), patchType: 'JSONPatch' }));
    expect(outcome).toBeAllowed();
    expect(outcome.patch).toEqual(ops);
  });

  it('decodes the reply whatever its Content-Type says', async () => {
    const outcome = await callWith(mutating, (r) => ({
      raw: JSON.stringify((reviewOf(r, {}) as { json: unknown }).json),
      headers: { 'Content-Type': 'text/html' },
    }));
    expect(outcome).toBeAllowed();
  });

  it('decompresses a gzip reply, since it asked for gzip', async () => {
    const { gzipSync } = await import('node:zlib');
    const outcome = await callWith(mutating, (r) => ({
      raw: gzipSync(JSON.stringify((reviewOf(r, {}) as { json: unknown }).json)),
      headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
    }));
    expect(outcome).toBeAllowed();
  });

  describe('v1beta1 leniency (k8s.io/apiserver/pkg/admission/plugin/webhook/request/admissionreview.go)', () => {
    it('skips the uid and apiVersion/kind checks', async () => {
      const outcome = await callWith(v1beta1, (r) => ({ json: { response: { uid: '', allowed: true } } }));
      expect(outcome.review.apiVersion).toBe('admission.k8s.io/v1beta1');
      expect(outcome).toBeAllowed();
      expect(outcome).not.toEchoUid();
    });

    it('treats any non-empty patch as JSONPatch whatever patchType says', async () => {
      const ops = [{ op: 'add', path: '/metadata/labels/a', value: 'b' }];
      const outcome = await callWith(v1beta1, (r) => reviewOf(r, { patch: base64Patch(ops), patchType: 'Foo' }));
      expect(outcome).toBeAllowed();
      expect(outcome.patch).toEqual(ops);
    });
  });

  it('fails without calling when no admissionReviewVersion is known', async () => {
    const before = webhook.received.length;
    const outcome = await h.call({ ...mutating, admissionReviewVersions: ['v2'] }, review.create(objects.pod()));
    expect(webhook.received.length).toBe(before);
    expect(outcome.error?.message).toBe(
      'failed calling webhook "m.example.com": could not create admission objects: webhook does not accept known AdmissionReview versions (v1, v1beta1)',
    );
    expect(outcome.error?.code).toBe(400);
  });

  it('negotiates the first known version in admissionReviewVersions', async () => {
    const first = await callWith({ ...mutating, admissionReviewVersions: ['v2', 'v1beta1', 'v1'] }, (r) => answer(r));
    expect(first.review.apiVersion).toBe('admission.k8s.io/v1beta1');
    const second = await callWith({ ...mutating, admissionReviewVersions: ['v1', 'v1beta1'] }, (r) => answer(r));
    expect(second.review.apiVersion).toBe('admission.k8s.io/v1');
  });
});

describe('denials (k8s.io/apiserver/pkg/admission/plugin/webhook/errors/statuserror.go)', () => {
  const deny = (status: Record<string, unknown> | undefined) => (r: AdmissionReview) => reviewOf(r, { allowed: false, ...(status ? { status } : {}) });

  it.each([
    [{ message: 'no', code: 403 }, 403, 'admission webhook "v.example.com" denied the request: no'],
    [{ reason: 'Forbidden' }, 400, 'admission webhook "v.example.com" denied the request: Forbidden'],
    [undefined, 400, 'admission webhook "v.example.com" denied the request without explanation'],
    [{ code: 200, message: 'x' }, 400, 'admission webhook "v.example.com" denied the request: x'],
    [{ code: 399, message: 'x' }, 400, 'admission webhook "v.example.com" denied the request: x'],
    [{ code: 401, message: 'x' }, 401, 'admission webhook "v.example.com" denied the request: x'],
    [{ code: 500, message: 'x' }, 500, 'admission webhook "v.example.com" denied the request: x'],
  ])('%j becomes a %i with its message', async (status, code, message) => {
    const outcome = await callWith(validating, deny(status));
    expect(outcome).toBeDenied({ code, message });
    expect(outcome.denial?.message).toBe(message);
    expect(outcome.denial?.status).toBe('Failure');
  });

  it('keeps a custom status phase and passes reason and details through', async () => {
    const details = { causes: [{ field: 'spec.containers[0].image', message: 'latest' }] };
    const outcome = await callWith(validating, deny({ status: 'custom', reason: 'Invalid', code: 422, message: 'bad', details }));
    expect(outcome.denial).toMatchObject({ status: 'custom', reason: 'Invalid', code: 422, details });
    expect(outcome).toBeDenied({ reason: 'Invalid', code: 422 });
  });

  it('keeps warnings and audit annotations of a denial', async () => {
    const outcome = await callWith(validating, (r) => reviewOf(r, { allowed: false, warnings: ['w1'], auditAnnotations: { k: 'v' } }));
    expect(outcome.warnings).toEqual(['w1']);
    expect(outcome.auditAnnotations).toEqual({ k: 'v' });
  });

  it('ignores a patch on a denial', async () => {
    const outcome = await callWith(mutating, (r) =>
      reviewOf(r, { allowed: false, patch: base64Patch([{ op: 'add', path: '/x', value: 1 }]), patchType: 'JSONPatch' }),
    );
    expect(outcome).toBeDenied();
    expect(outcome.patch).toBeUndefined();
  });
});
