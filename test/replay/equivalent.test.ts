// A recorded call whose kind/resource (what the webhook matched) differ from its requestKind/requestResource
// (what the client asked for) is replayed as kube-apiserver sent it: kind/resource as recorded, requestKind/
// requestResource as recorded, the object at the matched version (k8s.io/apiserver/pkg/admission/plugin/webhook/
// generic/webhook.go ShouldCallHook, generic/conversion.go ConvertToGVK, request/admissionreview.go
// CreateAdmissionObjects). The captures widgets-create-v2 (test/fixtures/apiserver-captures) and
// create-v2.no-watch-cache (test/conversion/fixtures) were recorded on a real kube-apiserver v1.36.2.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHarness, sharedAuthority, stub, type Harness } from '../../lib';
import type { AuditSource } from '../../lib/audit';
import type { AdmissionRequest, AdmissionReview, KubeObject } from '../../lib/kube/admission';
import { loadFixtures, replayFixture } from '../../lib/replay';
import { reviewFromRequest } from '../../lib/review/from-request';
import { type BackendMode, conversionBackend } from '../conversion/backend';
import { fixture as conversionFixture } from '../conversion/mock-api-cluster';
import { capture, widgetsCrd } from '../review/captures';
import { auditSource, tempDir, writeFile } from './helpers';

jest.setTimeout(120_000);

const temp = tempDir('equivalent');
afterAll(() => temp.remove());

/** What a target received, by path: the body byte for byte. */
interface Received {
  path: string;
  raw: string;
}

/** A target that keeps each body it gets and allows every request. */
function allowAndKeep(received: Received[]): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      received.push({ path: req.url ?? '', raw });
      const review = JSON.parse(raw) as AdmissionReview;
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid: review.request?.uid, allowed: true } }));
    });
  };
}

/** One RecordedReview document for `request`, answered `allowed: true`, for `webhook` when given. */
function recordedReview(request: AdmissionRequest, options: { webhook?: string; source?: AuditSource | Record<string, unknown> } = {}) {
  return {
    apiVersion: 'admission-harness/v1alpha1',
    kind: 'RecordedReview',
    source: options.source ?? auditSource(1),
    ...(options.webhook ? { webhook: options.webhook } : {}),
    request,
    response: { uid: request.uid, allowed: true },
    limits: [],
  };
}

const replayOne = async (h: Harness, name: string, document: unknown) => replayFixture(h, loadFixtures([writeFile(temp.dir, name, [document])])[0]!);

describe('a built-in recorded through an equivalent version: an HPA created at autoscaling/v2, matched at v1', () => {
  // Registered for autoscaling/v1 only; matchPolicy defaults to Equivalent, so kube-apiserver sends it an
  // autoscaling/v2 request converted to v1 (kind v1, requestKind v2).
  const configuration = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: 'hpa-policy' },
    webhooks: [
      {
        name: 'hpa-policy.example.com',
        clientConfig: { service: { namespace: 'hpa', name: 'hpa-policy', path: '/validate' } },
        rules: [{ apiGroups: ['autoscaling'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['horizontalpodautoscalers'] }],
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
      },
    ],
  };
  const received: Received[] = [];
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ target: allowAndKeep(received), manifests: [configuration], seed: 31 });
  });
  afterAll(() => h.close());

  const hpa = {
    apiVersion: 'autoscaling/v1',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'web', namespace: 'shop' },
    spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 3, targetCPUUtilizationPercentage: 80 },
  };
  const request = {
    uid: 'hpa-1',
    kind: { group: 'autoscaling', version: 'v1', kind: 'HorizontalPodAutoscaler' },
    resource: { group: 'autoscaling', version: 'v1', resource: 'horizontalpodautoscalers' },
    requestKind: { group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler' },
    requestResource: { group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers' },
    name: 'web',
    namespace: 'shop',
    operation: 'CREATE',
    userInfo: { username: 'admin' },
    object: hpa,
    oldObject: null,
    dryRun: false,
    options: null,
  } as unknown as AdmissionRequest;

  it('sends a request recorded through matchPolicy Equivalent in the version the webhook matched', async () => {
    const result = await replayOne(h, 'hpa.yaml', recordedReview(request));
    expect(result.verdict).toBe('passed');
    const sent = (JSON.parse(received.at(-1)!.raw) as AdmissionReview).request!;
    expect({ ...sent, uid: 'hpa-1' }).toEqual(request);
    expect([sent.kind, sent.resource, sent.requestKind, sent.requestResource]).toEqual([
      request.kind,
      request.resource,
      request.requestKind,
      request.requestResource,
    ]);
  });

  // A recording that holds the object at the client's version (autoscaling/v2) while the webhook matched v1: kube
  // converts its fields (k8s.io/kubernetes pkg/apis/autoscaling/v1/conversion.go: a CPU Utilization metric becomes
  // targetCPUUtilizationPercentage; v1 has no spec.metrics), and so does replay.
  it('sends an object recorded at autoscaling/v2 to a webhook matched at v1 with its fields converted to v1', async () => {
    const v2 = {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web', namespace: 'shop' },
      spec: {
        scaleTargetRef: { kind: 'Deployment', name: 'web' },
        minReplicas: 1,
        maxReplicas: 3,
        metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }],
      },
    };
    const result = await replayOne(h, 'hpa-v2.yaml', recordedReview({ ...request, uid: 'hpa-2', object: v2 } as unknown as AdmissionRequest));
    expect(result.verdict).toBe('passed');
    const sent = (JSON.parse(received.at(-1)!.raw) as AdmissionReview).request!;
    expect(sent.object).toEqual({
      kind: 'HorizontalPodAutoscaler',
      apiVersion: 'autoscaling/v1',
      metadata: { name: 'web', namespace: 'shop' },
      spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 3, targetCPUUtilizationPercentage: 80 },
      status: { currentReplicas: 0, desiredReplicas: 0 },
    });
    expect([sent.kind, sent.requestKind]).toEqual([request.kind, request.requestKind]);
  });

  it('refuses at load a recorded kind that is not a {group, version, kind} beside a requestKind', () => {
    const broken = recordedReview({ ...request, kind: { group: 'autoscaling', version: 'v1' } } as unknown as AdmissionRequest);
    const file = writeFile(temp.dir, 'hpa-broken.yaml', [broken]);
    expect(() => loadFixtures([file])).toThrow(`${file}:11: request.kind: Required value: {group, version, kind}`);
  });
});

describe('a custom resource with two versions (conversion None): widgets-create-v2', () => {
  // The capture's webhooks: crd-equivalent matches widgets v1 only (Equivalent), mutate matches everything.
  const configurations = [
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: { name: 'capture-a-mutating' },
      webhooks: [
        {
          name: 'mutate.capture.local',
          clientConfig: { url: 'https://127.0.0.1:9444/mutate' },
          rules: [{ apiGroups: ['*'], apiVersions: ['*'], operations: ['*'], resources: ['*/*'], scope: '*' }],
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
        },
      ],
    },
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'capture-e-crd' },
      webhooks: [
        {
          name: 'crd-equivalent.capture.local',
          clientConfig: { url: 'https://127.0.0.1:9444/crd-equivalent' },
          rules: [{ apiGroups: ['capture.example.com'], apiVersions: ['v1'], operations: ['*'], resources: ['widgets', 'widgets/status', 'widgets/scale'] }],
          matchPolicy: 'Equivalent',
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
        },
      ],
    },
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: { name: 'widget-labels' },
      webhooks: [
        {
          name: 'label.widgets.example.com',
          clientConfig: { url: 'https://127.0.0.1:9444/label' },
          rules: [{ apiGroups: ['capture.example.com'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['widgets'] }],
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
        },
      ],
    },
  ];
  const LABELS = 'label.widgets.example.com';
  // Each call as received: its body's bytes too.
  const calls = capture('widgets-create-v2.json').calls as unknown as { webhook: string; bodyRaw: string }[];
  const call = (webhook: string) => calls.find((c) => c.webhook === webhook)!;
  const received: Received[] = [];
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({
      target: allowAndKeep(received),
      manifests: [widgetsCrd(), ...configurations],
      stubs: { [LABELS]: stub.patch([{ op: 'add', path: '/metadata/labels', value: { team: 'shop' } }]) },
      seed: 32,
    });
  });
  afterAll(() => h.close());

  /** The body the webhook got on replay, against the recorded one with the replay's uid (Go's encoder ends it with a newline). */
  async function replayed(webhook: string, reference: string): Promise<{ sent: string; recorded: string }> {
    const recorded = call(webhook);
    const request = (JSON.parse(recorded.bodyRaw) as AdmissionReview).request!;
    const result = await replayOne(h, `${webhook}.yaml`, recordedReview(request, { webhook: reference }));
    expect(result.verdict).toBe('passed');
    const uid = result.webhooks[0]!.outcome.review.request!.uid;
    return { sent: received.at(-1)!.raw, recorded: recorded.bodyRaw.replace(request.uid, uid).replace(/\n$/, '') };
  }

  it('sends crd-equivalent the capture byte for byte: kind and resource v1, requestKind and requestResource v2, the object at v1', async () => {
    const { sent, recorded } = await replayed('crd-equivalent.capture.local', 'capture-e-crd/crd-equivalent.capture.local');
    expect(sent).toBe(recorded);
    expect((JSON.parse(sent) as AdmissionReview).request!.object!.apiVersion).toBe('capture.example.com/v1');
  });

  it('leaves a review whose kind is its requestKind byte for byte as it was: the */* webhook sees v2 everywhere', async () => {
    const { sent, recorded } = await replayed('mutate.capture.local', 'capture-a-mutating/mutate.capture.local');
    expect(sent).toBe(recorded);
  });

  it('converts an object recorded at the client version to the matched one, which for conversion None changes only its apiVersion', async () => {
    const request = (JSON.parse(call('crd-equivalent.capture.local').bodyRaw) as AdmissionReview).request!;
    const atV2 = { ...request.object, apiVersion: 'capture.example.com/v2' } as KubeObject;
    await replayOne(h, 'widget-v2-object.yaml', recordedReview({ ...request, object: atV2 }, { webhook: 'crd-equivalent.capture.local' }));
    const sent = (JSON.parse(received.at(-1)!.raw) as AdmissionReview).request!;
    expect([received.at(-1)!.path.split('?')[0], sent.kind.version, sent.requestKind?.version]).toEqual(['/crd-equivalent', 'v1', 'v2']);
    expect(sent.object).toEqual(request.object);
  });

  it('runs the follow-up checks of a patch made at the matched version: valid at the request version, and reinvoked at the matched one', async () => {
    const request = (JSON.parse(call('crd-equivalent.capture.local').bodyRaw) as AdmissionReview).request!;
    const result = await replayOne(h, 'widget-labels.yaml', { ...recordedReview(request, { webhook: LABELS }), response: undefined });
    const [replay] = result.webhooks;
    expect([result.verdict, replay?.outcome.patched?.ok, replay?.followUps]).toEqual([
      'new',
      true,
      [
        { id: 'object-valid', pass: true },
        { id: 'idempotent-reinvocation', pass: true },
      ],
    ]);
    const [first, again] = h.stub(LABELS).received.map((review) => review.request!);
    expect([first?.kind.version, first?.requestKind?.version, again?.kind.version, again?.object?.apiVersion]).toEqual([
      'v1',
      'v2',
      'v1',
      'capture.example.com/v1',
    ]);
    expect(again?.object?.metadata?.labels).toEqual({ team: 'shop' });
  });
});

describe('a custom resource its CRD converts through a webhook: create-v2.no-watch-cache', () => {
  const OBSERVER = 'o4-observer-conv.observer.oracle4.example.com';
  const recording = conversionFixture('create-v2.no-watch-cache') as ReturnType<typeof conversionFixture> & {
    environment: { observerWebhook: { registered: Record<string, unknown> } };
    observerWebhookReceived: { body: AdmissionReview }[];
  };
  const observed = recording.observerWebhookReceived[0]!.body.request!;
  let mode: BackendMode = { kind: 'ok' };
  let backend: ReturnType<typeof conversionBackend>;
  let h: Harness;
  beforeAll(async () => {
    const crd = structuredClone(recording.environment.crd) as { spec: { conversion: { webhook: { clientConfig: { caBundle: string } } } } };
    crd.spec.conversion.webhook.clientConfig.caBundle = (await sharedAuthority()).caBundle;
    const { caBundle: _elided, ...clientConfig } = recording.environment.observerWebhook.registered.clientConfig as Record<string, unknown>;
    const configuration = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: { name: 'o4-observer' },
      webhooks: [{ ...recording.environment.observerWebhook.registered, clientConfig }],
    };
    backend = conversionBackend(() => mode);
    h = await createHarness({
      manifests: [crd as unknown as Record<string, unknown>, configuration],
      target: backend.handler,
      stubs: { [OBSERVER]: stub.allow() },
      seed: 33,
      namespaces: [{ name: 'o4-conv3', labels: { 'o4-observe': 'true' } }],
    });
  });
  afterAll(() => h.close());
  beforeEach(() => {
    mode = { kind: 'ok' };
    backend.received.length = 0;
  });

  const lastSent = () => h.stub(OBSERVER).received.at(-1)!.request!;

  it('sends the observer what it was sent, its object already at v1 sent as it is, without a ConversionReview', async () => {
    const result = await replayOne(h, 'observer.yaml', recordedReview(observed, { webhook: OBSERVER }));
    expect(result.verdict).toBe('passed');
    expect({ ...lastSent(), uid: observed.uid }).toEqual(observed);
    expect(backend.received).toHaveLength(0);
  });

  it('converts an object recorded at the client version through the conversion webhook, one ConversionReview', async () => {
    const client = recording.steps[0]!.request.body as KubeObject;
    const result = await replayOne(h, 'observer-v2.yaml', recordedReview({ ...observed, object: client }, { webhook: OBSERVER }));
    expect(result.verdict).toBe('passed');
    const sent = lastSent();
    expect([sent.kind.version, sent.requestKind?.version, sent.object?.apiVersion, sent.object?.spec]).toEqual([
      'v1',
      'v2',
      'stable.example.com/v1',
      { color: 'red', size: 1 },
    ]);
    expect(backend.received.map((r) => r.review.request.desiredAPIVersion)).toEqual(['stable.example.com/v1']);
  });

  // Not recorded: the dispatchers return ConvertToGVK's error as apierrors.NewInternalError, whatever the
  // failurePolicy (the observer's is Ignore), and never call the webhook.
  it('fails the replay with the 500 kube-apiserver answers when that conversion fails, the webhook not called', async () => {
    mode = { kind: 'failure', message: 'colour cannot be converted' };
    const calls = h.stub(OBSERVER).received.length;
    const client = recording.steps[0]!.request.body as KubeObject;
    const result = await replayOne(h, 'observer-fails.yaml', recordedReview({ ...observed, object: client }, { webhook: OBSERVER }));
    expect([result.verdict, result.webhooks[0]?.callError]).toEqual([
      'failed',
      'Internal error occurred: conversion webhook for stable.example.com/v2, Kind=Widget failed: colour cannot be converted',
    ]);
    expect(result.webhooks[0]?.outcome.rejection?.code).toBe(500);
    expect(h.stub(OBSERVER).received).toHaveLength(calls);
  });

  // h.call's `matched`, the public form of what replay does above.
  const clientReview = () => {
    const { kind: _kind, resource: _resource, ...asked } = observed;
    return reviewFromRequest({ ...asked, kind: observed.requestKind, resource: observed.requestResource, object: recording.steps[0]!.request.body }, 'test');
  };
  const matched = { kind: observed.kind, resource: observed.resource };

  it('h.call with `matched` sends the object converted to the matched version, kind and requestKind as kube sends them', async () => {
    const warn = jest.spyOn(process, 'emitWarning');
    const outcome = await h.call(OBSERVER, clientReview(), { matched });
    const warnings = warn.mock.calls.map((args) => String(args[0]));
    warn.mockRestore();
    expect(warnings).toEqual([]);
    expect(outcome).toBeAllowed();
    const sent = lastSent();
    expect([sent.kind.version, sent.requestKind?.version, sent.object?.apiVersion]).toEqual(['v1', 'v2', 'stable.example.com/v1']);
  });

  // generic/webhook.go via the mutating dispatcher: a patch made at the matched version goes back to the
  // request's through the conversion webhook before the API judges it.
  it('h.call with `matched` converts the patched object back to the request version through the conversion webhook', async () => {
    const observer = h.stub(OBSERVER);
    const behavior = observer.behavior;
    observer.behavior = stub.patch([{ op: 'add', path: '/metadata/labels', value: { patched: 'yes' } }]);
    try {
      const outcome = await h.call(OBSERVER, clientReview(), { matched });
      expect(backend.received.map((r) => r.review.request.desiredAPIVersion)).toEqual(['stable.example.com/v1', 'stable.example.com/v2']);
      expect(backend.received[1]!.review.request.objects[0]).toMatchObject({ apiVersion: 'stable.example.com/v1', metadata: { labels: { patched: 'yes' } } });
      expect(outcome.patched).toMatchObject({ ok: true });
      expect(outcome.patched && 'invalid' in outcome.patched ? outcome.patched.invalid : undefined).toBeUndefined();
    } finally {
      observer.behavior = behavior;
    }
  });

  it('h.call with `matched` whose conversion fails: a rejection, which the matchers report as a refused request, not a denial', async () => {
    mode = { kind: 'failure', message: 'colour cannot be converted' };
    const outcome = await h.call(OBSERVER, clientReview(), { matched });
    const refused =
      'kube-apiserver refused the request before calling the webhook: Internal error occurred: conversion webhook for stable.example.com/v2, Kind=Widget failed: colour cannot be converted';
    expect(outcome.rejection?.code).toBe(500);
    expect(() => expect(outcome).toBeAllowed()).toThrow(refused);
    expect(() => expect(outcome).toBeDenied()).toThrow(`the call failed instead of returning a denial:\n  ${refused}`);
  });

  it('h.call refuses a `matched` that is not a kind and a resource with a usage error', async () => {
    const bad = { kind: { group: 'stable.example.com', version: 'v1' }, resource: matched.resource } as unknown as typeof matched;
    await expect(h.call(OBSERVER, clientReview(), { matched: bad })).rejects.toThrow(
      'h.call\'s matched.kind must be a {group, version, kind} of strings, got {"group":"stable.example.com","version":"v1"}',
    );
  });
});
