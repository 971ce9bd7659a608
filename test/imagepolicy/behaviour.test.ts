// ImagePolicyWebhook beyond the recordings, each behaviour from plugin/pkg/admission/imagepolicy
// (admission.go, config.go) and k8s.io/apiserver pkg/util/webhook: TTLs, updates, what the plugin
// ignores, which failures are retried, the chain's order.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHarness, objects, review, type Harness } from '../../lib';
import { manualClock, type ImagePolicyOptions, type ManualClock } from '../../lib/imagepolicy';
import type { KubeObject } from '../../lib/kube/admission';
import { CertificateAuthority, sharedAuthority } from '../../lib/tls';
import { listenTls } from '../../lib/net/loopback-server';
import '../../matchers/jest';
import { recordingBackend, type BackendAnswer } from './helpers';

jest.setTimeout(60_000);

async function kubeconfig(): Promise<object> {
  const { caBundle } = await sharedAuthority();
  return {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'backend', cluster: { server: 'https://images.example.com:8443/review', 'certificate-authority-data': caBundle } }],
    users: [{ name: 'apiserver', user: {} }],
    contexts: [{ name: 'default', context: { cluster: 'backend', user: 'apiserver' } }],
    'current-context': 'default',
  };
}

function admissionConfig(imagePolicy: Record<string, unknown>): object {
  return {
    apiVersion: 'apiserver.config.k8s.io/v1',
    kind: 'AdmissionConfiguration',
    plugins: [{ name: 'ImagePolicyWebhook', configuration: { imagePolicy: { kubeConfigFile: '/unused/kubeconfig', ...imagePolicy } } }],
  };
}

async function harness(
  target: ImagePolicyOptions['target'],
  imagePolicy: Record<string, unknown> = {},
  extra: Partial<Parameters<typeof createHarness>[0]> = {},
): Promise<{ h: Harness; clock: ManualClock }> {
  const clock = manualClock();
  const h = await createHarness({
    seed: 7,
    namespaces: [{ name: 'shop' }],
    ...extra,
    imagePolicy: {
      admissionConfig: admissionConfig({ allowTTL: 50, denyTTL: 10, retryBackoff: 500, ...imagePolicy }),
      kubeconfig: await kubeconfig(),
      target,
      clock,
    },
  });
  return { h, clock };
}

const pod = (image = 'nginx:1.27', extra: Record<string, unknown> = {}): KubeObject =>
  objects.pod({ name: 'web', namespace: 'shop', spec: { containers: [{ name: 'c', image }] }, ...extra }, { seed: 1 });

describe('the cache', () => {
  it('keeps an allow for allowTTL and a deny for denyTTL, by the clock the test moves', async () => {
    const backend = recordingBackend({ kind: 'allow' });
    const { h, clock } = await harness(backend.handler);
    try {
      expect(await h.imageReview(pod())).toMatchObject({
        allowed: true,
        fromCache: false,
        backendRequests: 1,
        url: 'https://images.example.com:8443/review?timeout=30s',
      });
      clock.advance(50_000);
      expect(await h.imageReview(pod())).toMatchObject({ fromCache: true, backendRequests: 0 });
      clock.advance(1);
      expect(await h.imageReview(pod())).toMatchObject({ fromCache: false, backendRequests: 1 });
      backend.answer = { kind: 'deny', reason: 'no' };
      expect(await h.imageReview(pod('nginx:bad'))).toMatchObject({ allowed: false, fromCache: false });
      clock.advance(10_001);
      expect(await h.imageReview(pod('nginx:bad'))).toMatchObject({ allowed: false, fromCache: false });
      expect(backend.received).toHaveLength(4);
    } finally {
      await h.close();
    }
  });

  it('an UPDATE changing only labels is answered from the cache; a new image or image-policy annotation asks again, with every container', async () => {
    const backend = recordingBackend({ kind: 'allow' });
    const { h } = await harness(backend.handler);
    try {
      const before = objects.pod(
        {
          name: 'web',
          namespace: 'shop',
          spec: {
            containers: [
              { name: 'a', image: 'a:1' },
              { name: 'b', image: 'b:1' },
            ],
          },
        },
        { seed: 1, stored: true },
      );
      await h.imageReview(review.create(before));
      const relabelled = { ...before, metadata: { ...before.metadata, labels: { tier: 'web' } } };
      expect(await h.imageReview(review.update(before, relabelled))).toMatchObject({ fromCache: true, backendRequests: 0 });
      const spec = before.spec as { containers: { name: string; image: string }[] };
      const newImage = { ...before, spec: { ...spec, containers: [spec.containers[0], { ...spec.containers[1], image: 'b:2' }] } };
      expect(await h.imageReview(review.update(before, newImage))).toMatchObject({
        fromCache: false,
        review: { spec: { containers: [{ image: 'a:1' }, { image: 'b:2' }], namespace: 'shop' } },
      });
      const annotated = { ...before, metadata: { ...before.metadata, annotations: { 'team.image-policy.k8s.io/why': 'hotfix' } } };
      expect(await h.imageReview(review.update(before, annotated))).toMatchObject({
        fromCache: false,
        review: { spec: { annotations: { 'team.image-policy.k8s.io/why': 'hotfix' } } },
      });
      expect(backend.received).toHaveLength(3);
    } finally {
      await h.close();
    }
  });
});

describe('what the plugin leaves alone', () => {
  it('DELETE, pods/status and other resources are not reviewed', async () => {
    const backend = recordingBackend({ kind: 'deny' });
    const { h } = await harness(backend.handler);
    try {
      const stored = objects.pod({ name: 'web', namespace: 'shop' }, { seed: 1, stored: true });
      expect(await h.imageReview(review.delete(stored))).toMatchObject({
        reviewed: false,
        allowed: true,
        ignored: 'the plugin handles CREATE and UPDATE, not DELETE',
      });
      expect(await h.imageReview(review.update(stored, stored, { subResource: 'status' }))).toMatchObject({
        reviewed: false,
        ignored: 'the plugin ignores pods/status',
      });
      expect(await h.imageReview(review.create(objects.deployment({ namespace: 'shop' }, { seed: 1 })))).toMatchObject({
        reviewed: false,
        ignored: 'the plugin reviews pods only',
      });
      expect(backend.received).toHaveLength(0);
    } finally {
      await h.close();
    }
  });
});

function answering(status: number, headers: Record<string, string> = {}, body = 'busy'): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(status, { 'Content-Type': 'text/plain', ...headers }).end(body));
  };
}

describe('which failures are retried (DefaultShouldRetry)', () => {
  it.each([
    [500, {}, 5, 'an error on the server ("busy") has prevented the request from succeeding'],
    [502, {}, 5, 'an error on the server ("busy") has prevented the request from succeeding'],
    [504, {}, 5, 'the server was unable to return a response in the time allotted, but may still be processing the request'],
    [429, {}, 5, 'the server has received too many requests and has asked us to try again later'],
    [503, {}, 1, 'the server is currently unable to handle the request'],
    [404, {}, 1, 'the server could not find the requested resource'],
  ] as const)('HTTP %i (headers %j): %i requests', async (status, headers, requests, text) => {
    const { h, clock } = await harness(answering(status, headers));
    try {
      const outcome = await h.imageReview(pod());
      expect(outcome).toMatchObject({ backendRequests: requests, allowed: false, error: text, httpStatus: status });
      expect(outcome.status?.message).toBe(`pods "web" is forbidden: ${text}`);
      expect(clock.sleeps).toHaveLength(requests - 1);
    } finally {
      await h.close();
    }
  });

  it('a 503 with Retry-After is retried by client-go itself, then by the backoff', async () => {
    const { h, clock } = await harness(answering(503, { 'Retry-After': '1' }));
    try {
      const outcome = await h.imageReview(pod());
      // Each Do() makes 11 requests (10 Retry-After retries, 1 s each), and the backoff repeats it 5 times.
      expect(outcome.backendRequests).toBe(55);
      expect(clock.sleeps.filter((ms) => ms === 1000)).toHaveLength(50);
    } finally {
      await h.close();
    }
  });

  it('retryBackoff -1 retries without waiting', async () => {
    const { h, clock } = await harness(answering(500), { retryBackoff: -1 });
    try {
      expect(await h.imageReview(pod())).toMatchObject({ backendRequests: 5, backoffMs: [0, 0, 0, 0] });
      expect(clock.sleeps).toEqual([0, 0, 0, 0]);
    } finally {
      await h.close();
    }
  });
});

describe('the answer', () => {
  it.each([
    [answering(200, { 'Content-Type': 'application/json' }, ''), '0-length response with status code: 200 and content type: application/json'],
    [
      answering(200, { 'Content-Type': 'application/json' }, '{"status": {"allowed": "yes"}}'),
      'json: cannot unmarshal string into Go struct field ImageReview.status.allowed of type bool',
    ],
    [
      answering(200, { 'Content-Type': 'application/json' }, '{"apiVersion":"imagepolicy.k8s.io/v1","kind":"ImageReview","status":{"allowed":true}}'),
      'no kind "ImageReview" is registered for version "imagepolicy.k8s.io/v1" in scheme "pkg/api/legacyscheme/scheme.go:30"',
    ],
  ])('a reply that does not decode is a failure, subject to defaultAllow (%#)', async (handler, text) => {
    const { h } = await harness(handler);
    try {
      expect(await h.imageReview(pod())).toMatchObject({
        allowed: false,
        error: text,
        backendRequests: 1,
        status: { code: 403, message: `pods "web" is forbidden: ${text}` },
      });
    } finally {
      await h.close();
    }
  });

  it('an answer without status denies without a reason', async () => {
    const { h } = await harness(answering(200, { 'Content-Type': 'application/json' }, '{"apiVersion":"imagepolicy.k8s.io/v1alpha1","kind":"ImageReview"}'));
    try {
      expect(await h.imageReview(pod())).toMatchObject({
        allowed: false,
        status: { message: 'pods "web" is forbidden: one or more images rejected by webhook backend' },
      });
    } finally {
      await h.close();
    }
  });
});

describe('TLS', () => {
  it("a backend whose certificate does not chain to the kubeconfig's CA is a failure, not retried, with Go's text", async () => {
    const stranger = await CertificateAuthority.create();
    const server = await listenTls(recordingBackend().handler, await stranger.issueServing({ hosts: ['images.example.com'] }));
    const { h, clock } = await harness({ url: `https://127.0.0.1:${server.port}`, ca: (await sharedAuthority()).cert });
    try {
      expect(await h.imageReview(pod())).toMatchObject({
        allowed: false,
        backendRequests: 1,
        error: 'Post "https://images.example.com:8443/review?timeout=30s": tls: failed to verify certificate: x509: certificate signed by unknown authority',
      });
      expect(clock.sleeps).toEqual([]);
    } finally {
      await h.close();
      await server.close();
    }
  });
});

describe('its place in the chain (validation phase, after ServiceAccount, before PodSecurity)', () => {
  it('a pod PodSecurity would refuse meets the image policy first; one naming a missing ServiceAccount never reaches the backend', async () => {
    const backend = recordingBackend({ kind: 'deny', reason: 'unsigned' } as BackendAnswer);
    const { h } = await harness(backend.handler, {}, { namespaces: [{ name: 'shop', labels: { 'pod-security.kubernetes.io/enforce': 'restricted' } }] });
    try {
      const result = await h.admit(review.create(pod()));
      expect(result.status?.message).toBe('pods "web" is forbidden: image policy webhook backend denied one or more images: unsigned');
      expect(result.trace.steps.at(-1)).toMatchObject({ phase: 'validating', webhook: 'ImagePolicyWebhook', plugin: true });
      const missing = await h.admit(
        review.create(pod('nginx:1.27', { spec: { serviceAccountName: 'ghost', containers: [{ name: 'c', image: 'nginx:1.27' }] } })),
      );
      expect(missing.status?.message).toMatch(/serviceaccount "ghost" not found/);
      expect(backend.received).toHaveLength(1);
      backend.answer = { kind: 'allow' };
      const allowed = await h.admit(review.create(pod('nginx:1.28')));
      expect(allowed.status?.message).toMatch(/violates PodSecurity "restricted:latest"/);
      expect(backend.received).toHaveLength(2);
    } finally {
      await h.close();
    }
  });

  it('h.imageReview without the option says how to turn it on', async () => {
    const h = await createHarness({ seed: 1 });
    try {
      await expect(h.imageReview(pod())).rejects.toThrow(/needs the ImagePolicyWebhook plugin configured[\s\S]*imagePolicy: \{ admissionConfig/);
    } finally {
      await h.close();
    }
  });
});

describe('toBeImageAllowed / toBeImageDenied', () => {
  it('read the outcome of h.imageReview, defaultAllow not counting as an allow', async () => {
    const backend = recordingBackend({ kind: 'deny', reason: 'unsigned' });
    const { h } = await harness(backend.handler);
    const failOpen = await harness(answering(500), { defaultAllow: true });
    try {
      const denied = await h.imageReview(pod('nginx:unsigned'));
      expect(denied).toBeImageDenied();
      expect(denied).toBeImageDenied('pods "web" is forbidden: image policy webhook backend denied one or more images: unsigned');
      expect(denied).not.toBeImageDenied(/other/);
      expect(denied).not.toBeImageAllowed();
      expect(() => expect(denied).toBeImageAllowed()).toThrow(
        /images: nginx:unsigned\n {2}1 request\(s\) to https:\/\/images.example.com:8443\/review\?timeout=30s\n {2}refusal: pods "web" is forbidden/,
      );
      const openOutcome = await failOpen.h.imageReview(pod());
      expect(openOutcome).toMatchObject({
        allowed: true,
        failedOpen: true,
        auditAnnotations: { 'imagepolicywebhook.image-policy.k8s.io/failed-open': 'true' },
      });
      expect(openOutcome).not.toBeImageAllowed();
      expect(openOutcome).not.toBeImageDenied();
      expect(() => expect({ allowed: true }).toBeImageAllowed()).toThrow('toBeImageAllowed expects the outcome of h.imageReview(pod | review)');
    } finally {
      await h.close();
      await failOpen.h.close();
    }
  });
});
