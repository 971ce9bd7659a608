import path from 'node:path';
import { createHarness, objects, review, Review, type Harness, type JsonPatchOperation } from 'admission-harness';
import { app } from '../src/app';

const MUTATE = 'pod-defaults.example.com';
const VALIDATE = 'image-policy.example.com';

let h: Harness;

beforeAll(async () => {
  h = await createHarness({ target: app, manifests: [path.join(__dirname, '../deploy/webhooks.yaml')], seed: 7 });
});

afterAll(async () => {
  await h.close();
});

/** A pod that already has everything the mutating webhook would add. */
function defaultedPod() {
  const pod = objects.pod({ images: ['nginx:1.27'], namespace: 'shop' });
  pod.spec!.securityContext = { runAsNonRoot: true };
  pod.spec!.containers[0]!.resources = { limits: { cpu: '1', memory: '512Mi' }, requests: { cpu: '200m', memory: '256Mi' } };
  pod.spec!.containers.push({ name: 'log-shipper', image: 'fluent/fluent-bit:3.1', resources: { limits: { cpu: '100m', memory: '64Mi' } } });
  return pod;
}

/** Applies the `add` operations of a patch (all this webhook sends) to a copy of `doc`. */
function applyAdds<T>(doc: T, patch: JsonPatchOperation[]): T {
  const copy = structuredClone(doc) as Record<string, unknown>;
  for (const { op, path: pointer, value } of patch) {
    if (op !== 'add') throw new Error(`unexpected op ${op}`);
    const keys = pointer.split('/').slice(1);
    const last = keys.pop() as string;
    const parent = keys.reduce<any>((node, key) => node[key], copy);
    if (Array.isArray(parent) && last === '-') parent.push(value);
    else parent[last] = value;
  }
  return copy as T;
}

describe('POST /mutate', () => {
  it('allows a pinned pod and echoes the uid', async () => {
    const outcome = await h.call(MUTATE, review.create(objects.pod({ images: ['nginx:1.27'], namespace: 'shop' })));
    expect(outcome).toBeAllowed();
    expect(outcome).toEchoUid();
  });

  it('sets runAsNonRoot, adds default limits and injects the log-shipper sidecar', async () => {
    const pod = objects.pod({ images: ['nginx:1.27', 'redis:7.4'], namespace: 'shop' });
    const outcome = await h.call(MUTATE, review.create(pod));
    expect(outcome).toBeAllowed();
    expect(outcome.response?.patchType).toBe('JSONPatch');
    expect(outcome.patch).toEqual(
      expect.arrayContaining([
        { op: 'add', path: '/spec/securityContext/runAsNonRoot', value: true },
        { op: 'add', path: '/spec/containers/0/resources/limits', value: { cpu: '500m', memory: '256Mi' } },
        { op: 'add', path: '/spec/containers/0/resources/requests', value: { cpu: '100m', memory: '128Mi' } },
        { op: 'add', path: '/spec/containers/1/resources/limits', value: { cpu: '500m', memory: '256Mi' } },
        { op: 'add', path: '/spec/containers/-', value: expect.objectContaining({ name: 'log-shipper', image: 'fluent/fluent-bit:3.1' }) },
      ]),
    );
  });

  it('leaves the object, as the API continues with it, running as non-root with the sidecar', async () => {
    const outcome = await h.call(MUTATE, review.create(objects.pod({ images: ['nginx:1.27'], namespace: 'shop' })));
    expect(outcome).toHavePatchedTo(
      expect.objectContaining({
        spec: expect.objectContaining({
          securityContext: expect.objectContaining({ runAsNonRoot: true }),
          containers: [expect.objectContaining({ image: 'nginx:1.27' }), expect.objectContaining({ name: 'log-shipper' })],
        }),
      }),
    );
  });

  it('adds the whole resources member when a container has none', async () => {
    const pod = objects.pod({ images: ['nginx:1.27'], namespace: 'shop' });
    delete pod.spec!.containers[0]!.resources;
    delete pod.spec!.securityContext;
    const outcome = await h.call(MUTATE, review.create(pod));
    expect(outcome.patch).toEqual(
      expect.arrayContaining([
        { op: 'add', path: '/spec/securityContext', value: { runAsNonRoot: true } },
        {
          op: 'add',
          path: '/spec/containers/0/resources',
          value: { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '100m', memory: '128Mi' } },
        },
      ]),
    );
  });

  it('sends no patch for a pod that already has the defaults', async () => {
    const outcome = await h.call(MUTATE, review.create(defaultedPod()));
    expect(outcome).toBeAllowed();
    expect(outcome.patch).toBeUndefined();
    expect(outcome.response?.patchType).toBeUndefined();
  });

  it('is idempotent: the patched pod gets no further patch', async () => {
    const pod = objects.pod({ images: ['nginx:1.27', 'redis:7.4'], namespace: 'shop' });
    const first = await h.call(MUTATE, review.create(pod));
    const mutated = applyAdds(pod, first.patch ?? []);
    expect(mutated.spec?.containers.map((c) => c.name)).toContain('log-shipper');
    const second = await h.call(MUTATE, review.create(mutated));
    expect(second).toBeAllowed();
    expect(second.patch).toBeUndefined();
  });

  it('allows requests without a Pod object, without a patch', async () => {
    const noObject = new Review({ ...review.create(objects.pod({ namespace: 'shop' })).attributes, object: null });
    const configMap = review.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'shop' } });
    for (const request of [noObject, configMap]) {
      const outcome = await h.call(MUTATE, request);
      expect(outcome).toBeAllowed();
      expect(outcome.patch).toBeUndefined();
    }
  });

  it('answers v1beta1 reviews in v1beta1', async () => {
    const outcome = await h.call(
      { type: 'mutating', path: '/mutate', admissionReviewVersions: ['v1beta1'] },
      review.create(objects.pod({ images: ['nginx:1.27'], namespace: 'shop' })),
    );
    expect(outcome).toBeAllowed();
    expect(outcome).toEchoUid();
    expect(JSON.parse(outcome.body ?? '{}')).toMatchObject({ apiVersion: 'admission.k8s.io/v1beta1', kind: 'AdmissionReview' });
    expect(outcome.patch).toEqual(expect.arrayContaining([expect.objectContaining({ path: '/spec/containers/-' })]));
  });
});

describe('POST /validate', () => {
  it('denies an image with the :latest tag', async () => {
    const outcome = await h.call(VALIDATE, review.create(objects.pod({ images: ['nginx:latest'], namespace: 'shop' })));
    expect(outcome).toBeDenied({ code: 403, reason: 'Forbidden', message: /:latest tag/ });
    expect(outcome).toEchoUid();
    expect(outcome.denial?.message).toMatch(/^admission webhook "image-policy\.example\.com" denied the request: container "\S+" uses image "nginx:latest"/);
  });

  it('denies an image without a tag, even from a registry with a port', async () => {
    for (const image of ['nginx', 'registry.local:5000/app']) {
      const outcome = await h.call(VALIDATE, review.create(objects.pod({ images: ['redis:7.4', image], namespace: 'shop' })));
      expect(outcome).toBeDenied({ code: 403, message: `uses image "${image}"` });
    }
  });

  it('allows a pinned image but warns about missing limits', async () => {
    const pod = objects.pod({ name: 'web-1', images: ['nginx:1.27'], namespace: 'shop' });
    const outcome = await h.call(VALIDATE, review.create(pod));
    expect(outcome).toBeAllowed();
    expect(outcome).toEchoUid();
    expect(outcome.warnings).toEqual([`container "${pod.spec!.containers[0]!.name}" has no resource limits`]);
  });

  it('allows a registry with a port and a digest', async () => {
    const images = ['registry.local:5000/app:1.2', 'nginx@sha256:0d17b565c37bcbd895e9d92315a05c1c3c9a29f762b011a10c54a66cd53c9b31'];
    const outcome = await h.call(VALIDATE, review.create(objects.pod({ images, namespace: 'shop' })));
    expect(outcome).toBeAllowed();
  });

  it('allows the pod the mutating webhook produced, without warnings', async () => {
    const outcome = await h.call(VALIDATE, review.create(defaultedPod()));
    expect(outcome).toBeAllowed();
    expect(outcome.warnings).toEqual([]);
  });
});

it('answers 404 on any other path', async () => {
  const outcome = await h.call({ type: 'validating', path: '/healthz' }, review.create(objects.pod({ namespace: 'shop' })));
  expect(outcome.httpStatus).toBe(404);
  expect(outcome.error?.message).toContain('failed to call webhook');
});
