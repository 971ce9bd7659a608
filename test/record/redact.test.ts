import { createHarness, objects, review, users, type Harness } from '../../lib';
import { HarnessError } from '../../lib/errors';
import type { KubeObject } from '../../lib/kube/admission';
import { startRecorder, type Recorder, type RecorderOptions } from '../../lib/record';
import { redact, redactionRules } from '../../lib/record/redact';
import { fixtures, outDir } from './helpers';

/* Redaction by default: what a fixture must not carry out of a cluster. */

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

function secret(data: Record<string, string>): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'db', namespace: 'shop', annotations: { [LAST_APPLIED]: JSON.stringify({ data }), team: 'payments' } },
    type: 'Opaque',
    data,
  };
}

let out: ReturnType<typeof outDir>;
let recorder: Recorder | undefined;
let h: Harness | undefined;
async function start(options: Omit<RecorderOptions, 'out'> = {}): Promise<Harness> {
  recorder = await startRecorder({ out: out.dir, ...options });
  h = await createHarness({ target: { url: recorder.url, ca: recorder.ca }, manifests: [recorder.configuration], seed: 11 });
  return h;
}
beforeEach(() => {
  out = outDir();
});
afterEach(async () => {
  await h?.close();
  await recorder?.close();
  out.cleanup();
});

describe('redaction (on by default)', () => {
  it("replaces a Secret's values, keeps its keys, removes its last-applied annotation, and says so in limits", async () => {
    const harness = await start();
    const before = secret({ password: Buffer.from('hunter2').toString('base64'), username: Buffer.from('app').toString('base64') });
    const after = secret({ password: Buffer.from('hunter3').toString('base64'), username: Buffer.from('app').toString('base64') });
    const outcome = await harness.call('recorder.admission-harness.io', review.update(before, after));
    expect(outcome).toBeAllowed();

    const [fixture] = fixtures(out.dir);
    expect(fixture!.name).toBe('secrets-update-1.yaml');
    const { request, limits } = fixture!.document;
    for (const object of [request.object, request.oldObject]) {
      expect(object?.data).toEqual({ password: 'REDACTED', username: 'REDACTED' });
      expect(object?.metadata?.annotations).toEqual({ team: 'payments' });
    }
    expect(limits).toEqual([
      'redacted: Secret values replaced by "REDACTED", keys kept: /request/object/data/password, /request/object/data/username, /request/oldObject/data/password, /request/oldObject/data/username',
      `redacted: the Secret's ${LAST_APPLIED} annotation (it holds the values) removed: /request/object/metadata/annotations/kubectl.kubernetes.io~1last-applied-configuration, /request/oldObject/metadata/annotations/kubectl.kubernetes.io~1last-applied-configuration`,
    ]);
    const text = JSON.stringify(fixture!.document);
    for (const value of ['hunter2', 'hunter3', before.data && (before.data as Record<string, string>).password]) expect(text).not.toContain(value);
    // The rest of the request is as sent.
    const sent = outcome.review.request!;
    expect(request.name).toBe(sent.name);
    expect(request.object?.metadata?.managedFields).toEqual(sent.object?.metadata?.managedFields);
  });

  it('replaces the values of credential-like userInfo.extra keys and keeps the others', async () => {
    const harness = await start();
    const user = users.serviceAccount('shop', 'deployer', { pod: { name: 'runner' } });
    await harness.call('recorder.admission-harness.io', review.create(objects.configMap({ namespace: 'shop' })).as(user));
    const { request, limits } = fixtures(out.dir)[0]!.document;
    expect(request.userInfo.extra?.['authentication.kubernetes.io/credential-id']).toEqual(['REDACTED']);
    expect(request.userInfo.extra?.['authentication.kubernetes.io/pod-name']).toEqual(['runner']);
    expect(request.userInfo.username).toBe('system:serviceaccount:shop:deployer');
    expect(limits).toEqual([
      'redacted: credential values of userInfo.extra replaced by "REDACTED": /request/userInfo/extra/authentication.kubernetes.io~1credential-id',
    ]);
  });

  it('leaves requests without secrets as they were sent, limits empty', async () => {
    const harness = await start();
    const outcome = await harness.call('recorder.admission-harness.io', review.create(objects.configMap({ namespace: 'shop' })));
    expect(fixtures(out.dir)[0]!.document).toMatchObject({ request: outcome.review.request, limits: [] });
  });

  it('redacts more members given as JSON pointers into the fixture, whatever `redact` says', async () => {
    const harness = await start({ redact: false, redactPaths: ['/request/object/data/token', '/request/userInfo/username', '/request/object/missing/x'] });
    const object = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'shop' }, data: { token: 'abc', plain: 'p' } };
    await harness.call('recorder.admission-harness.io', review.create(object));
    const { request, limits } = fixtures(out.dir)[0]!.document;
    expect(request.object?.data).toEqual({ token: 'REDACTED', plain: 'p' });
    expect(request.userInfo.username).toBe('REDACTED');
    // A path the request lacks redacts nothing and is not listed.
    expect(limits).toEqual(['redacted as asked (redactPaths), replaced by "REDACTED": /request/object/data/token, /request/userInfo/username']);
  });

  it('with redact: false, records a Secret as sent', async () => {
    const harness = await start({ redact: false });
    const outcome = await harness.call('recorder.admission-harness.io', review.create(secret({ password: 'aHVudGVyMg==' })));
    expect(fixtures(out.dir)[0]!.document).toMatchObject({ request: outcome.review.request, limits: [] });
  });

  it('refuses paths that point outside the request and response, or at what names the fixture', () => {
    expect(() => redactionRules(true, ['object/data'])).toThrow(HarnessError);
    expect(() => redactionRules(true, ['/object/data'])).toThrow("does not point inside the fixture's request or response");
    expect(() => redactionRules(true, ['/request'])).toThrow('does not point inside');
    expect(() => redactionRules(true, ['/request/resource/resource'])).toThrow('names the request and its fixture file');
    expect(redactionRules(true, ['/response/status/message', '/request/object/a~1b~0c']).paths).toEqual([
      ['response', 'status', 'message'],
      ['request', 'object', 'a/b~c'],
    ]);
  });
});

describe("a Secret's values in an upstream's patch", () => {
  const request = review.create(secret({ password: 'aHVudGVyMg==' })).attributes;
  const asRequest = () => ({
    uid: 'u',
    kind: request.kind,
    resource: request.resource,
    operation: request.operation,
    userInfo: {},
    object: structuredClone(request.object),
    oldObject: null,
    options: null,
  });
  const encode = (ops: unknown) => Buffer.from(JSON.stringify(ops)).toString('base64');

  it('are replaced, and the patch re-encoded', () => {
    const patch = [
      { op: 'add', path: '/data/extra', value: 'c2VjcmV0' },
      { op: 'replace', path: '/data', value: { a: 'eA==' } },
      { op: 'add', path: `/metadata/annotations/${LAST_APPLIED.replace('/', '~1')}`, value: '{"data":{"a":"eA=="}}' },
      { op: 'add', path: '/metadata/labels', value: { kept: 'yes' } },
    ];
    const document = { request: asRequest(), response: { uid: 'u', allowed: true, patchType: 'JSONPatch', patch: encode(patch) } };
    const limits = redact(document, redactionRules(true));
    expect(JSON.parse(Buffer.from(document.response.patch, 'base64').toString())).toEqual([
      { op: 'add', path: '/data/extra', value: 'REDACTED' },
      { op: 'replace', path: '/data', value: { a: 'REDACTED' } },
      { op: 'add', path: `/metadata/annotations/${LAST_APPLIED.replace('/', '~1')}`, value: 'REDACTED' },
      { op: 'add', path: '/metadata/labels', value: { kept: 'yes' } },
    ]);
    expect(limits.at(-1)).toBe(
      `redacted: the Secret values and ${LAST_APPLIED} annotations the response's patch writes replaced by "REDACTED", and the patch re-encoded: /response/patch`,
    );
  });

  it('leave a patch that writes none of them byte for byte', () => {
    const patch = Buffer.from('[ {"op":"add","path":"/metadata/labels","value":{"a":"b"}} ]').toString('base64');
    const document = { request: asRequest(), response: { uid: 'u', allowed: true, patchType: 'JSONPatch', patch } };
    redact(document, redactionRules(true));
    expect(document.response.patch).toBe(patch);
  });
});
