import { CertificateAuthority, createHarness, objects, review, type Harness } from '../../lib';
import type { AdmissionReview } from '../../lib/kube/admission';
import { reviewFromRequest } from '../../lib/review';
import { startRecorder, type Recorder } from '../../lib/record';
import { fixtures, outDir, rawRequest, withoutUid } from './helpers';

/*
 * The harness plays kube-apiserver against a recorder: every review sent is answered allowed and
 * written as a RecordedReview fixture holding the request as received.
 */

let out: ReturnType<typeof outDir>;
let recorder: Recorder;
let h: Harness;
beforeEach(async () => {
  out = outDir();
  recorder = await startRecorder({ out: out.dir, now: () => new Date('2026-05-01T10:00:00.123Z') });
  h = await createHarness({ target: { url: recorder.url, ca: recorder.ca }, manifests: [recorder.configuration], seed: 7 });
});
afterEach(async () => {
  await h.close();
  await recorder.close();
  out.cleanup();
});

describe('startRecorder', () => {
  it('answers every review allowed, uid echoed, no patch, and writes it as a fixture', async () => {
    const sent = review.create(objects.pod({ namespace: 'shop', images: ['nginx:1.27'] }));
    const outcome = await h.call('recorder.admission-harness.io', sent);
    expect(outcome).toBeAllowed();
    expect(outcome).toEchoUid();
    expect(outcome.response).toEqual({ uid: outcome.review.request!.uid, allowed: true });
    expect(outcome.patch).toBeUndefined();

    const written = fixtures(out.dir);
    expect(written.map((f) => f.name)).toEqual(['pods-create-1.yaml']);
    expect(recorder.files).toHaveLength(1);
    const { document } = written[0]!;
    expect(Object.keys(document)).toEqual(['apiVersion', 'kind', 'source', 'request', 'limits']);
    expect(document).toMatchObject({ apiVersion: 'admission-harness/v1alpha1', kind: 'RecordedReview', limits: [] });
    expect(document.source).toEqual({ from: 'record', receivedAt: '2026-05-01T10:00:00.123Z', path: '/?timeout=5s', reviewVersion: 'v1' });
    // The request as kube-apiserver sent it, uid included.
    expect(document.request).toEqual(outcome.review.request);
  });

  it('records what the harness sent for every call, in any version, numbered per resource and operation', async () => {
    const pod = objects.pod({ namespace: 'shop' });
    const reviews = [
      review.create(pod),
      review.update(pod, { ...pod, metadata: { ...pod.metadata, labels: { tier: 'web' } } }),
      review.create(objects.pod({ namespace: 'shop' })),
      review.delete(pod),
    ];
    const outcomes = [];
    for (const r of reviews) outcomes.push(await h.call('recorder.admission-harness.io', r));
    outcomes.push(await h.call('recorder.admission-harness.io', review.create(objects.configMap({ namespace: 'shop' })), { version: 'v1beta1' }));
    for (const outcome of outcomes) expect(outcome).toBeAllowed();

    const written = fixtures(out.dir);
    expect(written.map((f) => f.name)).toEqual([
      'configmaps-create-1.yaml',
      'pods-create-1.yaml',
      'pods-create-2.yaml',
      'pods-delete-1.yaml',
      'pods-update-1.yaml',
    ]);
    const byUid = new Map(written.map((f) => [f.document.request.uid, f.document]));
    for (const outcome of outcomes) {
      const document = byUid.get(outcome.review.request!.uid)!;
      expect(withoutUid(document.request)).toEqual(withoutUid(outcome.review.request));
      expect(document.source.reviewVersion).toBe(outcome.review.apiVersion === 'admission.k8s.io/v1beta1' ? 'v1beta1' : 'v1');
    }
    // A fixture's request reads back as the harness Review it came from.
    const created = byUid.get(outcomes[0]!.review.request!.uid)!;
    expect(reviewFromRequest(created.request, 'fixture').attributes).toEqual(reviews[0]!.attributes);
  });

  it('answers a v1beta1 review in v1beta1', async () => {
    const outcome = await h.call('recorder.admission-harness.io', review.create(objects.pod()), { version: 'v1beta1' });
    expect(outcome).toBeAllowed();
    expect(JSON.parse(outcome.body!)).toEqual({
      apiVersion: 'admission.k8s.io/v1beta1',
      kind: 'AdmissionReview',
      response: { uid: outcome.review.request!.uid, allowed: true },
    });
  });

  it('records the request each webhook of h.admit() received', async () => {
    const result = await h.admit(review.create(objects.pod({ namespace: 'default', images: ['nginx:1.27'] })).dryRun());
    expect(result).toBeAllowed();
    const [call] = result.trace.calls;
    expect(call?.webhook).toBe('recorder.admission-harness.io');
    const written = fixtures(out.dir);
    expect(written).toHaveLength(1);
    expect(written[0]!.document.request).toEqual(call!.outcome!.review.request);
    expect(written[0]!.document.request).toMatchObject({ operation: 'CREATE', dryRun: true });
  });

  it('answers bodies that are not AdmissionReviews 400, other methods 405, and records neither', async () => {
    const request = review.create(objects.pod()).attributes;
    const bodies = [
      'not json',
      '[]',
      JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' }),
      JSON.stringify({ apiVersion: 'v1', kind: 'Pod', request }),
      JSON.stringify({ apiVersion: 'admission.k8s.io/v2', kind: 'AdmissionReview', request: { uid: 'x' } }),
    ];
    for (const body of bodies) {
      const reply = await rawRequest(recorder.url, recorder.ca, { path: '/', body });
      expect(reply.status).toBe(400);
      expect(reply.body.toString()).toMatch(/^admission-harness record: not an AdmissionReview: /);
    }
    expect((await rawRequest(recorder.url, recorder.ca, { method: 'GET', path: '/' })).status).toBe(405);
    const valid: AdmissionReview = {
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      request: {
        uid: 'u-1',
        kind: { group: '', version: 'v1', kind: 'Pod' },
        resource: { group: '', version: 'v1', resource: 'pods' },
        operation: 'CREATE',
        userInfo: {},
        object: null,
        oldObject: null,
        options: null,
      },
    };
    const reply = await rawRequest(recorder.url, recorder.ca, { path: '/x?timeout=3s', body: JSON.stringify(valid) });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/json');
    expect(JSON.parse(reply.body.toString())).toEqual({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: 'u-1', allowed: true } });
    expect(fixtures(out.dir).map((f) => [f.name, f.document.source.path])).toEqual([['pods-create-1.yaml', '/x?timeout=3s']]);
    const summary = await recorder.close();
    expect(summary).toMatchObject({ reason: 'closed', rejected: bodies.length + 1, unrecorded: 0, errors: [] });
  });

  it('keeps fixtures already in the directory and numbers on after them', async () => {
    await h.call('recorder.admission-harness.io', review.create(objects.pod()));
    await recorder.close();
    await h.close();
    recorder = await startRecorder({ out: out.dir });
    h = await createHarness({ target: { url: recorder.url, ca: recorder.ca }, manifests: [recorder.configuration], seed: 8 });
    await h.call('recorder.admission-harness.io', review.create(objects.pod()));
    expect(fixtures(out.dir).map((f) => f.name)).toEqual(['pods-create-1.yaml', 'pods-create-2.yaml']);
  });
});

describe("the recorder's certificate", () => {
  it('verifies against its caBundle, for the hosts asked, with the given certificate otherwise', async () => {
    const pem = Buffer.from(recorder.caBundle, 'base64').toString();
    expect(pem).toBe(recorder.ca);
    expect(recorder.configuration.webhooks?.[0]?.clientConfig).toEqual({ url: `${recorder.url}/`, caBundle: recorder.caBundle });

    const authority = await CertificateAuthority.create();
    const serving = await authority.issueServing({ hosts: ['recorder.example.com'] });
    const given = await startRecorder({ out: out.dir, tls: { ...serving, ca: authority.cert } });
    try {
      expect(given.ca).toBe(authority.cert);
      const other = await createHarness({ target: { url: given.url }, manifests: [given.configuration], seed: 1 });
      try {
        // No `ca` on the target: the configuration's caBundle is what verifies the server, as in kube-apiserver.
        expect(await other.call('recorder.admission-harness.io', review.create(objects.pod()))).toBeAllowed();
      } finally {
        await other.close();
      }
    } finally {
      await given.close();
    }
    await expect(startRecorder({ out: out.dir, tls: serving, hosts: ['x'] })).rejects.toThrow('not both');
  });
});
