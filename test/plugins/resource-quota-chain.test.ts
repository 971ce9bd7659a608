// ResourceQuota and LimitRanger in the admission chain (after the validating webhooks, and in both phases),
// replayed from test/fixtures/apiserver-policies/resourcequota-sidecar.json (a real kube-apiserver v1.36.2).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createHarness, objects, review, type Harness } from '../../lib';
import type { AdmissionReview, KubeObject } from '../../lib/kube/admission';
import { behaviourWebhook } from '../webhooks/behaviours';

interface Recording {
  objectsCreated: { method: string; sent: KubeObject }[];
  requests: {
    label: string;
    clientRequest: { path: string; body: KubeObject };
    response: { status: number; body: unknown };
    webhookCalls: { behaviour: string; admissionReviewReceived: AdmissionReview }[];
  }[];
}
const recording = JSON.parse(readFileSync(path.join(__dirname, '../fixtures/apiserver-policies/resourcequota-sidecar.json'), 'utf8')) as Recording;

const harnesses: Harness[] = [];
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((h) => h.close()));
});

describe('ResourceQuota as a real kube-apiserver v1.36.2 runs it (fixtures/apiserver-policies/resourcequota-sidecar.json)', () => {
  // The quota as the recorder left it: its status written by hand (a quota without status enforces nothing).
  const quota = recording.objectsCreated.find((o) => o.method === 'PUT')!.sent;
  const configurations = recording.objectsCreated.map((o) => o.sent).filter((o) => o.kind === 'MutatingWebhookConfiguration');

  it.each(recording.requests.map((request, i) => [request.label, i] as const))('%s', async (_label, i) => {
    const request = recording.requests[i]!;
    const namespace = request.clientRequest.path.split('/')[4]!;
    const { handler, calls } = behaviourWebhook();
    const h = await createHarness({ seed: 6, target: handler, manifests: configurations as never[], namespaces: [{ name: namespace }], objects: [quota] });
    harnesses.push(h);
    const sent = request.clientRequest.body;
    const result = await h.admit(review.create({ ...sent, metadata: { ...sent.metadata, namespace } }, { via: 'api' }));
    expect(calls.map((c) => c.behaviour)).toEqual(request.webhookCalls.map((c) => c.behaviour));
    if (request.response.status === 201) expect(result).toBeAllowed();
    else expect(result.status).toEqual(request.response.body);
  });

  it('an admitted pod raises the quota’s usage, so the next one may exceed it', async () => {
    const h = await createHarness({
      seed: 6,
      namespaces: [{ name: 'shop' }],
      objects: [
        {
          apiVersion: 'v1',
          kind: 'ResourceQuota',
          metadata: { name: 'pods', namespace: 'shop' },
          spec: { hard: { pods: '1' } },
          status: { hard: { pods: '1' }, used: { pods: '0' } },
        },
      ],
    });
    harnesses.push(h);
    expect(await h.admit(review.create(objects.pod({ name: 'one', namespace: 'shop' }, { seed: 6 })))).toBeAllowed();
    const second = await h.admit(review.create(objects.pod({ name: 'two', namespace: 'shop' }, { seed: 6 })));
    expect(second.status).toMatchObject({
      code: 403,
      message: 'pods "two" is forbidden: exceeded quota: pods, requested: pods=1, used: pods=1, limited: pods=1',
    });
  });
});

describe('LimitRanger in the chain', () => {
  // Plain pods: the realistic builders give containers resources of their own.
  const plainPod = (container: Record<string, unknown>): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: 'shop' },
    spec: { containers: [{ name: 'app', image: 'nginx:1.27', ...container }] },
  });
  const limits = {
    apiVersion: 'v1',
    kind: 'LimitRange',
    metadata: { name: 'defaults', namespace: 'shop' },
    spec: { limits: [{ type: 'Container', default: { cpu: '500m' }, defaultRequest: { cpu: '100m' }, min: { cpu: '50m' } }] },
  };

  it('gives containers its defaults before the mutating webhooks see the pod, and says so in an annotation', async () => {
    const { handler, calls } = behaviourWebhook();
    const h = await createHarness({
      seed: 6,
      target: handler,
      namespaces: [{ name: 'shop' }],
      objects: [limits],
      manifests: [
        {
          apiVersion: 'admissionregistration.k8s.io/v1',
          kind: 'MutatingWebhookConfiguration',
          metadata: { name: 'log' },
          webhooks: [
            {
              name: 'log.example.com',
              clientConfig: { url: 'https://log.example.com/b/log-allow' },
              rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
              sideEffects: 'None',
              admissionReviewVersions: ['v1'],
            },
          ],
        },
      ] as never[],
    });
    harnesses.push(h);
    const result = await h.admit(review.create(plainPod({})));
    expect(result).toBeAllowed();
    const seen = calls[0]!.review.request!.object as { metadata: { annotations?: Record<string, string> }; spec: { containers: { resources?: unknown }[] } };
    expect(seen.spec.containers[0]!.resources).toEqual({ limits: { cpu: '500m' }, requests: { cpu: '100m' } });
    expect(seen.metadata.annotations?.['kubernetes.io/limit-ranger']).toBe(
      'LimitRanger plugin set: cpu request for container app; cpu limit for container app',
    );
    expect(String(result.trace)).toContain('LimitRanger (built-in plugin): changed the object');
  });

  it('refuses, after the mutating webhooks, a container below its minimum', async () => {
    const h = await createHarness({ seed: 6, namespaces: [{ name: 'shop' }], objects: [limits] });
    harnesses.push(h);
    const result = await h.admit(review.create(plainPod({ resources: { requests: { cpu: '10m' }, limits: { cpu: '20m' } } })));
    expect(result.status).toMatchObject({
      code: 403,
      reason: 'Forbidden',
      message: 'pods "web" is forbidden: minimum cpu usage per Container is 50m, but request is 10m',
    });
  });
});

describe('plugins in the reinvocation round (k8s.io/apiserver/pkg/admission/reinvocation.go)', () => {
  it('LimitRanger gives a sidecar added in round 0 its defaults in round 1, and that change reinvokes the IfNeeded webhooks', async () => {
    const limits = {
      apiVersion: 'v1',
      kind: 'LimitRange',
      metadata: { name: 'defaults', namespace: 'shop' },
      spec: { limits: [{ type: 'Container', default: { cpu: '500m' }, defaultRequest: { cpu: '100m' } }] },
    };
    const hook = (name: string, reinvocationPolicy: string) => ({
      name,
      clientConfig: { url: `https://${name}/` },
      rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
      sideEffects: 'None',
      admissionReviewVersions: ['v1'],
      reinvocationPolicy,
    });
    const h = await createHarness({
      seed: 6,
      namespaces: [{ name: 'shop' }],
      objects: [limits],
      manifests: [
        {
          apiVersion: 'admissionregistration.k8s.io/v1',
          kind: 'MutatingWebhookConfiguration',
          metadata: { name: 'm' },
          webhooks: [hook('a.example.com', 'IfNeeded'), hook('b.example.com', 'Never')],
        },
      ] as never[],
      stubs: {
        'a.example.com': { respond: { allowed: true } },
        'b.example.com': { respond: { patch: [{ op: 'add', path: '/spec/containers/-', value: { name: 'sidecar', image: 'envoy:1.31' } }] } },
      },
    });
    harnesses.push(h);
    const result = await h.admit(
      review.create({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'web', namespace: 'shop' },
        spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] },
      }),
    );
    expect(result).toBeAllowed();
    const sidecar = (result.object?.spec as { containers: { name: string; resources?: unknown }[] }).containers.find((c) => c.name === 'sidecar');
    expect(sidecar?.resources).toEqual({ limits: { cpu: '500m' }, requests: { cpu: '100m' } });
    expect(h.stub('a.example.com').received).toHaveLength(2);
    expect(String(result.trace)).toMatch(/mutating round 1[\s\S]*LimitRanger \(built-in plugin\): changed the object/);
  });
});
