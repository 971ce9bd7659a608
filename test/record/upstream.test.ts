import path from 'node:path';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { CertificateAuthority, createHarness, objects, review, type Harness } from '../../lib';
import { HarnessError } from '../../lib/errors';
import { freePort } from '../../lib/net/loopback-server';
import { startRecorder, type Recorder } from '../../lib/record';
import { parseGoDuration, upstreamTimeoutMs } from '../../lib/record/request-timeout';
import { Upstream } from '../../lib/record/upstream';
import { serveInProcess } from '../../lib/target/in-process';
import { serviceDnsNames, type KeyPair } from '../../lib/tls';
import { createApp } from '../../examples/pod-defaults/src/app';
import { fixtures, outDir, rawRequest, trackHandles, withoutUid } from './helpers';

/*
 * Upstream mode: the recorder in front of the repository's example webhook (examples/pod-defaults),
 * served over TLS by a CA of its own. The harness calls the recorder as kube-apiserver would call the
 * webhook's service; the recorder passes each request on and the answer back, and records both.
 */

const manifests = [path.join(__dirname, '../../examples/pod-defaults/deploy/webhooks.yaml')];
const app = createApp();

let upstreamAuthority: CertificateAuthority;
let upstreamServing: KeyPair;
let upstream: { host: string; port: number; close(): Promise<void> };
const seen: { url: string; headers: IncomingHttpHeaders }[] = [];
/** What the upstream does with a request: the example app, unless a test holds requests. */
let behaviour: (req: IncomingMessage, res: ServerResponse) => void = app;
let direct: Harness;

beforeAll(async () => {
  upstreamAuthority = await CertificateAuthority.create();
  upstreamServing = await upstreamAuthority.issueServing();
  upstream = await serveInProcess((req: IncomingMessage, res: ServerResponse) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    behaviour(req, res);
  }, upstreamServing);
  direct = await createHarness({ target: app, manifests, namespaces: [{ name: 'shop' }], seed: 1 });
});
afterAll(async () => {
  await direct.close();
  await upstream.close();
});

let out: ReturnType<typeof outDir>;
let recorder: Recorder;
let h: Harness;
beforeEach(async () => {
  out = outDir();
  seen.length = 0;
  behaviour = app;
  recorder = await startRecorder({
    out: out.dir,
    // The names kube-apiserver verifies for the example's service: the harness calls the recorder in its place.
    hosts: serviceDnsNames('pod-defaults', 'pod-defaults'),
    upstream: { url: `https://127.0.0.1:${upstream.port}`, ca: upstreamAuthority.cert },
  });
  h = await createHarness({ target: { url: recorder.url, ca: recorder.ca }, manifests, namespaces: [{ name: 'shop' }], seed: 1 });
});
afterEach(async () => {
  await h.close();
  await recorder.close();
  out.cleanup();
});

describe('upstream mode', () => {
  it("returns the webhook's patch unchanged and records the request and the response", async () => {
    const sent = review.create(objects.pod({ namespace: 'shop', images: ['nginx:1.27'] }));
    const viaRecorder = await h.call('pod-defaults.example.com', sent);
    const straight = await direct.call('pod-defaults.example.com', sent);
    expect(viaRecorder).toBeAllowed();
    expect(viaRecorder).toEchoUid();
    expect(viaRecorder.httpStatus).toBe(straight.httpStatus);
    expect(viaRecorder.patch).toEqual(straight.patch);
    expect(viaRecorder.patch?.length).toBeGreaterThan(0);
    expect({ ...viaRecorder.response, uid: '' }).toEqual({ ...straight.response, uid: '' });

    // Same path and query, the request's own headers.
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      url: '/mutate?timeout=5s',
      headers: { 'user-agent': 'kube-apiserver-admission', 'content-type': 'application/json', host: `127.0.0.1:${upstream.port}` },
    });

    const [fixture, ...rest] = fixtures(out.dir);
    expect(rest).toEqual([]);
    expect(fixture!.name).toBe('pods-create-1.yaml');
    expect(Object.keys(fixture!.document)).toEqual(['apiVersion', 'kind', 'source', 'request', 'response', 'limits']);
    expect(fixture!.document).toEqual({
      apiVersion: 'admission-harness/v1alpha1',
      kind: 'RecordedReview',
      source: {
        from: 'record',
        receivedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        path: '/mutate?timeout=5s',
        reviewVersion: 'v1',
        upstream: `https://127.0.0.1:${upstream.port}/`,
      },
      request: viaRecorder.review.request,
      response: viaRecorder.response,
      limits: [],
    });
  });

  it("returns the webhook's denial unchanged and records it", async () => {
    const sent = review.create(objects.pod({ namespace: 'shop', images: ['nginx:latest'] }));
    const viaRecorder = await h.call('image-policy.example.com', sent);
    const straight = await direct.call('image-policy.example.com', sent);
    expect(viaRecorder).toBeDenied({ code: 403, message: /latest/ });
    expect(viaRecorder.denial).toEqual(straight.denial);
    expect(viaRecorder.warnings).toEqual(straight.warnings);
    const { document } = fixtures(out.dir)[0]!;
    expect(document.response).toEqual(viaRecorder.response);
    expect(document.response).toMatchObject({ allowed: false, status: { code: 403 } });
    expect(withoutUid(document.request)).toEqual(withoutUid(straight.review.request));
  });

  it('records every webhook call of an admission, each with its answer', async () => {
    const result = await h.admit(review.create(objects.pod({ namespace: 'shop', images: ['nginx:1.27'] })));
    expect(result).toBeAllowed();
    const calls = result.trace.calls;
    expect(calls.map((c) => c.webhook)).toEqual(expect.arrayContaining(['pod-defaults.example.com', 'image-policy.example.com']));
    const written = fixtures(out.dir);
    expect(written).toHaveLength(calls.length);
    const byUid = new Map(written.map((f) => [f.document.request.uid, f.document]));
    for (const call of calls) {
      expect(byUid.get(call.outcome!.review.request!.uid)).toMatchObject({ request: call.outcome!.review.request, response: call.outcome!.response });
    }
  });

  it('passes the answer on byte for byte: status, headers that matter, body, whatever it is', async () => {
    const body = JSON.stringify({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      request: {
        uid: 'fixed-uid',
        kind: { group: '', version: 'v1', kind: 'Pod' },
        resource: { group: '', version: 'v1', resource: 'pods' },
        operation: 'CREATE',
        userInfo: {},
        object: objects.pod({ namespace: 'shop', images: ['nginx:latest'] }),
        oldObject: null,
        options: null,
      },
    });
    const upstreamUrl = `https://127.0.0.1:${upstream.port}`;
    for (const [target, sent] of [
      ['/validate?timeout=10s', body],
      ['/nope', body],
      ['/validate', '{"not json'],
    ] as const) {
      const straight = await rawRequest(upstreamUrl, upstreamAuthority.cert, { path: target, body: sent });
      const proxied = await rawRequest(recorder.url, recorder.ca, { path: target, body: sent });
      expect(seen.at(-1)?.url).toBe(target);
      expect(proxied.status).toBe(straight.status);
      expect(proxied.statusMessage).toBe(straight.statusMessage);
      expect(proxied.body.equals(straight.body)).toBe(true);
      for (const header of ['content-type', 'content-length', 'etag', 'x-powered-by'])
        expect([header, proxied.headers[header]]).toEqual([header, straight.headers[header]]);
    }
    // The two AdmissionReviews are recorded; the 404 holds no response, and says why.
    const written = fixtures(out.dir);
    expect(written.map((f) => [f.document.source.path, f.document.response?.allowed, f.document.limits])).toEqual([
      ['/validate?timeout=10s', false, []],
      ['/nope', undefined, ['the upstream answered HTTP 404: no response recorded']],
    ]);
    expect(await recorder.close()).toMatchObject({ rejected: 1, errors: [] });
  });

  it('answers 502 when the upstream cannot be reached or fails verification, and records the request with why', async () => {
    const port = await freePort();
    const wrongCa = await CertificateAuthority.create();
    for (const [options, why] of [
      [{ url: `https://127.0.0.1:${port}`, ca: upstreamAuthority.cert }, /ECONNREFUSED/],
      [{ url: `https://127.0.0.1:${upstream.port}`, ca: wrongCa.cert }, /certificate/],
    ] as const) {
      const broken = await startRecorder({ out: out.dir, upstream: options, hosts: serviceDnsNames('pod-defaults', 'pod-defaults') });
      const other = await createHarness({ target: { url: broken.url, ca: broken.ca }, manifests, seed: 1 });
      try {
        const outcome = await other.call('image-policy.example.com', review.create(objects.pod({ namespace: 'shop' })));
        expect(outcome.httpStatus).toBe(502);
        expect(outcome.body).toMatch(/^admission-harness record: the upstream webhook https:\/\/127\.0\.0\.1:\d+\/ gave no answer: /);
      } finally {
        await other.close();
      }
      const summary = await broken.close();
      expect(summary.errors.map((e) => e.message)).toEqual([expect.stringMatching(why)]);
      const { document } = fixtures(out.dir).find((f) => summary.files[0]!.endsWith(f.name))!;
      expect(document.response).toBeUndefined();
      expect(document.limits).toEqual([expect.stringMatching(/^the upstream gave no answer \(.*\): the recorder answered 502, no response recorded$/)]);
    }
  });

  it('close() aborts a request the upstream is still working on, and leaves nothing recorded of it', async () => {
    let arrived: () => void = () => undefined;
    const received = new Promise<void>((resolve) => (arrived = resolve));
    behaviour = () => arrived(); // holds the request: never answers
    const pending = h.call('image-policy.example.com', review.create(objects.pod({ namespace: 'shop' })));
    await received;
    const summary = await recorder.close();
    expect(summary).toMatchObject({ reason: 'closed', files: [], unrecorded: 1, errors: [] });
    const outcome = await pending;
    expect(outcome.error?.transport).toBe('closed');
    expect(fixtures(out.dir)).toEqual([]);
  });
});

describe('upstream mode, bounded', () => {
  it('stops after maxReviews, once the last answer came back, and leaves no connection to the upstream open', async () => {
    const bounded = outDir();
    const handles = trackHandles();
    try {
      const one = await startRecorder({
        out: bounded.dir,
        maxReviews: 1,
        hosts: serviceDnsNames('pod-defaults', 'pod-defaults'),
        upstream: { url: `https://127.0.0.1:${upstream.port}`, ca: upstreamAuthority.cert },
      });
      const other = await createHarness({ target: { url: one.url, ca: one.ca }, manifests, namespaces: [{ name: 'shop' }], seed: 1 });
      try {
        expect(await other.call('pod-defaults.example.com', review.create(objects.pod({ namespace: 'shop' })))).toBeAllowed();
        const summary = await one.done;
        expect(summary).toMatchObject({ reason: 'max', errors: [] });
        expect(fixtures(bounded.dir).map((f) => [f.name, f.document.response?.allowed])).toEqual([['pods-create-1.yaml', true]]);
      } finally {
        await other.close();
      }
      // The upstream's side of the recorder's connection is tracked too: it closes once the recorder closed its end.
      expect(await handles.open()).toEqual([]);
    } finally {
      handles.stop();
      bounded.cleanup();
    }
  });
});

describe('the upstream URL', () => {
  it("puts the request's path and query after its own path", () => {
    expect(new Upstream({ url: 'https://hooks.example:8443' }).target('/validate?timeout=10s')).toBe('/validate?timeout=10s');
    expect(new Upstream({ url: 'https://hooks.example:8443/base/' }).target('/validate?timeout=10s')).toBe('/base/validate?timeout=10s');
  });

  it('must be https, without credentials, query or fragment', () => {
    expect(() => new Upstream({ url: 'http://hooks.example' })).toThrow(HarnessError);
    expect(() => new Upstream({ url: 'https://u:p@hooks.example' })).toThrow('may not carry credentials');
    expect(() => new Upstream({ url: 'https://hooks.example/?a=b' })).toThrow('may not carry credentials, a query or a fragment');
    expect(() => new Upstream({ url: 'hooks' })).toThrow('is not a URL');
  });

  it("is waited for as long as kube-apiserver's ?timeout= says, 30 s without one", () => {
    expect(upstreamTimeoutMs('/validate?timeout=10s')).toBe(10_000);
    expect(upstreamTimeoutMs('/validate?timeout=1m30s')).toBe(90_000);
    expect(upstreamTimeoutMs('/validate?timeout=bogus')).toBe(30_000);
    expect(upstreamTimeoutMs('/validate')).toBe(30_000);
    expect([parseGoDuration('1.5s'), parseGoDuration('250ms'), parseGoDuration('1h'), parseGoDuration('-1s'), parseGoDuration('10')]).toEqual([
      1500,
      250,
      3_600_000,
      undefined,
      undefined,
    ]);
  });
});
