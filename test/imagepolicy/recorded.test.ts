// Reproduces every recording of ImagePolicyWebhook made on a real kube-apiserver v1.36.2 (copied into
// ./fixtures): the ImageReviews the backend received, field by field, the API's answers, the cache,
// the retries on a 500, defaultAllow both ways and the audit annotations.
import { review, stub } from '../../lib';
import { FAILED_OPEN_ANNOTATION, manualClock } from '../../lib/imagepolicy';
import type { KubeObject } from '../../lib/kube/admission';
import { freePort } from '../../lib/net/loopback-server';
import { sharedAuthority } from '../../lib/tls';
import { harnessFor, recorded, recordingBackend, type RecordedCase, type Received } from './helpers';

jest.setTimeout(60_000);

const PREFIX = 'imagepolicywebhook.image-policy.k8s.io/';

/** The recorded backend requests against ours: method, URL, the five headers, the body, its compact JSON + newline. */
function expectSameRequests(received: Received[], fixture: RecordedCase): void {
  expect(received.map(({ method, url, headers, body }) => ({ method, url, headers, body }))).toEqual(
    fixture.backendReceived.map(({ method, url, headers, body }) => ({ method, url, headers, body })),
  );
  for (const [i, request] of received.entries()) {
    expect(request.raw).toBe(`${JSON.stringify(request.body)}\n`);
    expect(fixture.backendReceived[i]!.bodyRawIsCompactJSON).toBe(false);
  }
}

/** Posts each recorded pod create, comparing the answer's code and message (or the stored annotations). */
async function replayCreates(h: Awaited<ReturnType<typeof harnessFor>>['h'], fixture: RecordedCase, answers?: (i: number) => void) {
  const results = [];
  for (const [i, step] of fixture.steps.entries()) {
    if (step.request.method !== 'POST') continue;
    answers?.(i);
    const result = await h.admit(review.create(step.request.body as KubeObject));
    if (step.response.code === 201) {
      expect(result.status?.message).toBeUndefined();
      expect(result.object?.metadata?.annotations).toEqual(step.request.body?.metadata?.annotations);
    } else {
      expect(result.status).toMatchObject({ code: step.response.code, message: step.response.body?.message, reason: 'Forbidden' });
    }
    results.push(result);
  }
  return results;
}

function policyAnnotations(annotations: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(annotations).filter(([key]) => key.startsWith(PREFIX)));
}

describe('ImagePolicyWebhook as recorded on kube-apiserver v1.36.2', () => {
  it.each(['allow-and-cache.defaultallow-false', 'da-allow.defaultallow-true'])(
    '%s: containers then initContainers, only *.image-policy.k8s.io/ annotations, the namespace; the cache answers the same spec',
    async (basename) => {
      const fixture = recorded(basename);
      const backend = recordingBackend({ kind: 'allow' });
      const { h } = await harnessFor(fixture, backend.handler);
      try {
        await replayCreates(h, fixture);
        expectSameRequests(backend.received, fixture);
      } finally {
        await h.close();
      }
    },
  );

  it.each(['deny-with-reason.defaultallow-false', 'deny-with-reason.defaultallow-true', 'deny-without-reason.defaultallow-false'])(
    '%s: the denial texts, answered from the deny cache the second time, whatever defaultAllow',
    async (basename) => {
      const fixture = recorded(basename);
      const answer = fixture.backendReceived[0]!.backendAnsweredWith;
      const backend = recordingBackend(answer);
      const { h } = await harnessFor(fixture, backend.handler);
      try {
        const results = await replayCreates(h, fixture);
        expect(results.every((r) => !r.allowed)).toBe(true);
        expectSameRequests(backend.received, fixture);
        const again = await h.imageReview(fixture.steps[0]!.request.body as KubeObject);
        expect(again).toMatchObject({ fromCache: true, backendRequests: 0, allowed: false });
      } finally {
        await h.close();
      }
    },
  );

  it.each(['backend-http-500.defaultallow-false', 'backend-http-500.defaultallow-true'])(
    '%s: five requests, four waits of retryBackoff ×1.5ⁿ (+ up to 20%%), then defaultAllow decides',
    async (basename) => {
      const fixture = recorded(basename);
      const backend = recordingBackend({ kind: 'http500', text: 'backend exploded' });
      const { h, clock } = await harnessFor(fixture, backend.handler);
      try {
        const [result] = await replayCreates(h, fixture);
        expectSameRequests(backend.received, fixture);
        expect(backend.received).toHaveLength(5);
        const bases = [500, 750, 1125, 1687.5];
        expect(clock.sleeps).toHaveLength(4);
        clock.sleeps.forEach((wait, i) => {
          expect(wait).toBeGreaterThanOrEqual(bases[i]!);
          expect(wait).toBeLessThanOrEqual(bases[i]! * 1.2);
        });
        // The recording's own gaps fit the same waits (plus the request's few milliseconds).
        const times = fixture.backendReceived.map((r) => Date.parse(r.receivedAt));
        times.slice(1).forEach((t, i) => {
          expect(t - times[i]!).toBeGreaterThanOrEqual(bases[i]!);
          expect(t - times[i]!).toBeLessThanOrEqual(bases[i]! * 1.2 + 50);
        });
        const recordedAudit = policyAnnotations(fixture.audit?.[0]?.annotations ?? {});
        expect(policyAnnotations(result!.auditAnnotations)).toEqual(recordedAudit);
        if (basename.endsWith('true')) {
          expect(recordedAudit).toEqual({ [FAILED_OPEN_ANNOTATION]: 'true' });
          // The GET after the create: the pod was stored without alpha.image-policy.k8s.io/failed-open.
          const stored = fixture.steps.find((s) => s.request.method === 'GET')!.response.body as KubeObject;
          expect(stored.metadata?.annotations).toBeUndefined();
          expect(result!.object?.metadata?.annotations ?? {}).toEqual({});
        }
      } finally {
        await h.close();
      }
    },
  );

  it.each(['backend-unreachable.defaultallow-false', 'backend-unreachable.defaultallow-true'])(
    '%s: refused connection, no retry, the URL and address of the kubeconfig in the text',
    async (basename) => {
      const fixture = recorded(basename);
      const authority = await sharedAuthority();
      const { h, clock } = await harnessFor(fixture, { url: `https://127.0.0.1:${await freePort()}`, ca: authority.cert });
      try {
        const [result] = await replayCreates(h, fixture);
        expect(clock.sleeps).toEqual([]);
        expect(policyAnnotations(result!.auditAnnotations)).toEqual(policyAnnotations(fixture.audit?.[0]?.annotations ?? {}));
        const outcome = await h.imageReview(fixture.steps[0]!.request.body as KubeObject);
        expect(outcome).toMatchObject({
          backendRequests: 1,
          error: 'Post "https://127.0.0.1:9444/imagepolicy?timeout=30s": dial tcp 127.0.0.1:9444: connect: connection refused',
        });
      } finally {
        await h.close();
      }
    },
  );

  it('deny-with-reason.defaultallow-false: the observer mutating webhook saw both pods the image policy refused (the mutation phase runs first)', async () => {
    const fixture = recorded('deny-with-reason.defaultallow-false');
    const registered = fixture.environment.observerWebhook.registered;
    const backend = recordingBackend(fixture.backendReceived[0]!.backendAnsweredWith);
    const authority = await sharedAuthority();
    const observer = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: { name: 'o4-observer-ip' },
      webhooks: [{ ...registered, clientConfig: { ...registered.clientConfig, caBundle: authority.caBundle } }],
    };
    const { h } = await harnessFor(fixture, backend.handler, manualClock(), {
      manifests: [observer],
      stubs: { [registered.name]: stub.allow() },
      namespaces: [{ name: 'o4-ip2', labels: { 'o4-observe': 'true' } }],
    });
    try {
      await replayCreates(h, fixture);
      const seen = h.stub(registered.name).received.map((r) => [r.request?.operation, r.request?.name, r.request?.namespace]);
      expect(seen).toEqual(fixture.observerWebhookReceived.map((o) => [o.body.request.operation, o.body.request.name, o.body.request.namespace]));
      expect(backend.received).toHaveLength(1);
    } finally {
      await h.close();
    }
  });

  it('audit-annotations.defaultallow-false: status.auditAnnotations become imagepolicywebhook.image-policy.k8s.io/<key>, on a denial too', async () => {
    const fixture = recorded('audit-annotations.defaultallow-false');
    const backend = recordingBackend();
    const { h } = await harnessFor(fixture, backend.handler);
    try {
      const results = await replayCreates(h, fixture, (i) => {
        backend.answer = fixture.backendReceived[i]!.backendAnsweredWith;
      });
      expectSameRequests(backend.received, fixture);
      results.forEach((result, i) => expect(policyAnnotations(result.auditAnnotations)).toEqual(policyAnnotations(fixture.audit![i]!.annotations)));
    } finally {
      await h.close();
    }
  });

  it('ephemeral-containers.defaultallow-false: pods/ephemeralcontainers sends only the ephemeral containers', async () => {
    const fixture = recorded('ephemeral-containers.defaultallow-false');
    const backend = recordingBackend();
    const { h } = await harnessFor(fixture, backend.handler);
    try {
      const [put, patch] = fixture.steps;
      const withDebugger = put!.request.body as KubeObject & { spec: { ephemeralContainers?: unknown[] } };
      const before = { ...withDebugger, spec: { ...withDebugger.spec, ephemeralContainers: undefined } };
      delete before.spec.ephemeralContainers;
      backend.answer = fixture.backendReceived[0]!.backendAnsweredWith;
      const first = await h.admit(review.update(before, withDebugger, { subResource: 'ephemeralcontainers' }));
      expect(first.status?.message).toBeUndefined();

      const stored = put!.response.body as unknown as KubeObject & { spec: object };
      const patched = {
        ...stored,
        spec: {
          ...stored.spec,
          ephemeralContainers: (patch!.request.body as unknown as { spec: { ephemeralContainers: unknown[] } }).spec.ephemeralContainers,
        },
      };
      backend.answer = fixture.backendReceived[1]!.backendAnsweredWith;
      const second = await h.admit(review.update(stored, patched, { subResource: 'ephemeralcontainers' }));
      expect(second.status).toMatchObject({ code: 403, message: patch!.response.body?.message });
      expectSameRequests(backend.received, fixture);
    } finally {
      await h.close();
    }
  });
});
