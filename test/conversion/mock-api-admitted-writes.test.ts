// Writes at a version a CRD's webhook converts, through the mock API with `admitWrites`: the recordings'
// observer webhook (rules for widgets v1 only, matchPolicy Equivalent) is sent a v2 write converted to v1
// through the conversion webhook, one ConversionReview per object, as kube-apiserver's dispatchers convert it
// (k8s.io/apiserver/pkg/admission/plugin/webhook/generic/conversion.go ConvertToGVK). Compared with
// create-v2.no-watch-cache and fail-change-labels.no-watch-cache (./fixtures, recorded on a real kube-apiserver
// v1.36.2): its observerWebhookReceived and the review the recording sent for admission.
import { createHarness, sharedAuthority, stub, type Harness, type KubeObject } from '../../lib';
import type { AdmissionRequest } from '../../lib/kube/admission';
import type { MockApi } from '../../lib/mockapi';
import { call } from '../mockapi/client';
import { withoutManagedFields } from '../review/captures';
import { type BackendMode, conversionBackend } from './backend';
import { comparable, fixture, forAdmission, recordedReviews, type ReceivedReview, type Step } from './mock-api-cluster';

jest.setTimeout(120_000);

const OBSERVER = 'o4-observer-conv.observer.oracle4.example.com';
const NAMESPACE = 'o4-conv3';
const widgets = (version: string) => `/apis/stable.example.com/${version}/namespaces/${NAMESPACE}/widgets`;

interface Observed {
  body: { request: AdmissionRequest };
}

/** The recorded cluster without the watch cache, its observer webhook registered as recorded and stubbed. */
async function observedCluster(
  observer = stub.allow(),
  mode: BackendMode = { kind: 'ok' },
): Promise<{ h: Harness; api: MockApi; received: ReturnType<typeof conversionBackend>['received'] }> {
  const recorded = fixture('create-v2.no-watch-cache') as ReturnType<typeof fixture> & {
    environment: { observerWebhook: { registered: Record<string, unknown> } };
  };
  const crd = structuredClone(recorded.environment.crd) as { spec: { conversion: { webhook: { clientConfig: { caBundle: string } } } } };
  crd.spec.conversion.webhook.clientConfig.caBundle = (await sharedAuthority()).caBundle;
  const { caBundle: _elided, ...clientConfig } = recorded.environment.observerWebhook.registered.clientConfig as Record<string, unknown>;
  const webhook = { ...recorded.environment.observerWebhook.registered, clientConfig };
  const configuration = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingWebhookConfiguration',
    metadata: { name: 'o4-observer' },
    webhooks: [webhook],
  };
  const backend = conversionBackend(() => mode);
  const h = await createHarness({
    manifests: [crd as unknown as Record<string, unknown>, configuration],
    target: backend.handler,
    stubs: { [OBSERVER]: observer },
    seed: 29,
    mockApi: { admitWrites: true, watchCache: false, namespaces: [{ name: NAMESPACE, labels: { 'o4-observe': 'true' } }] },
  });
  return { h, api: h.api as MockApi, received: backend.received };
}

/** What a request says about itself, uid and user aside (the recording's user is its admin). */
const shape = ({ uid: _uid, userInfo: _user, object, oldObject, ...rest }: AdmissionRequest) => ({
  ...rest,
  object: withoutManagedFields(object ?? null),
  oldObject: comparable(withoutManagedFields(oldObject ?? null)),
});

describe('a write at v2 admitted by a webhook matching v1 only (matchPolicy Equivalent)', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('create-v2.no-watch-cache: the observer gets the object converted to v1 by the conversion webhook, one review for admission', async () => {
    const recorded = fixture('create-v2.no-watch-cache') as ReturnType<typeof fixture> & { observerWebhookReceived: Observed[] };
    const cluster = await observedCluster();
    h = cluster.h;
    const step = recorded.steps[0] as Step;
    const created = await call(cluster.api, 'POST', step.request.path, step.request.body);
    expect([created.status, comparable(created.body)]).toEqual([step.response.code, comparable(step.response.body)]);

    const sent = h.stub(OBSERVER).received.map((review) => review.request as AdmissionRequest);
    expect(sent.map(shape)).toEqual(recorded.observerWebhookReceived.map((observed) => shape(observed.body.request)));
    expect((sent[0]?.object as { spec?: unknown }).spec).toEqual({ color: 'red', size: 1 });

    // The review for admission (the object before storage named it), then storage's two, as recorded.
    const reviews = cluster.received.map((review) => JSON.parse(review.raw) as ReceivedReview['body']);
    const [forObserver, ...storage] = reviews;
    const recordedForObserver = recorded.backendReceived.find(forAdmission);
    expect(forObserver?.request.desiredAPIVersion).toBe('stable.example.com/v1');
    expect(comparable(forObserver?.request.objects.map(withoutManagedFields))).toEqual(
      comparable(recordedForObserver?.body.request.objects.map(withoutManagedFields)),
    );
    expect(storage.map(comparable)).toEqual(recordedReviews(recorded, false));
  });

  it('fail-change-labels.no-watch-cache: an update at v2 reaches the observer at v1, object and oldObject converted', async () => {
    const recorded = fixture('fail-change-labels.no-watch-cache') as ReturnType<typeof fixture> & { observerWebhookReceived: Observed[] };
    const cluster = await observedCluster();
    h = cluster.h;
    const w1 = { apiVersion: 'stable.example.com/v2', kind: 'Widget', metadata: { name: 'w1', namespace: NAMESPACE }, spec: { colour: 'red', size: 1 } };
    expect((await call(cluster.api, 'POST', widgets('v2'), w1)).status).toBe(201);
    const patched = await call(cluster.api, 'PATCH', `${widgets('v2')}/w1`, { metadata: { labels: { touched: 'yes' } } }, 'application/merge-patch+json');
    expect(patched.status).toBe(200);
    const update = h.stub(OBSERVER).received[1]?.request as AdmissionRequest;
    const recordedUpdate = recorded.observerWebhookReceived.find((observed) => observed.body.request.operation === 'UPDATE')?.body.request;
    expect([update.operation, update.kind, update.requestKind]).toEqual([recordedUpdate?.operation, recordedUpdate?.kind, recordedUpdate?.requestKind]);
    const [object, old] = [update.object, update.oldObject] as { apiVersion: string; spec: unknown; metadata: { labels?: unknown } }[];
    expect([object?.apiVersion, object?.spec, object?.metadata.labels]).toEqual(['stable.example.com/v1', { color: 'red', size: 1 }, { touched: 'yes' }]);
    expect([old?.apiVersion, old?.spec]).toEqual(['stable.example.com/v1', { color: 'red', size: 1 }]);
  });

  it('stores what the observer made of the v1 object, converted back to v2 by the conversion webhook', async () => {
    const cluster = await observedCluster(stub.patch([{ op: 'replace', path: '/spec/color', value: 'blue' }]));
    h = cluster.h;
    const w1 = { apiVersion: 'stable.example.com/v2', kind: 'Widget', metadata: { name: 'w1', namespace: NAMESPACE }, spec: { colour: 'red', size: 1 } };
    const created = await call(cluster.api, 'POST', widgets('v2'), w1);
    expect([created.status, (created.body as KubeObject).spec]).toEqual([201, { colour: 'blue', size: 1 }]);
    expect(cluster.api.store.read('stable.example.com/v1', 'Widget', 'w1', NAMESPACE)?.spec).toEqual({ color: 'blue', size: 1 });
    // To v1 for the observer, its patched object back to v2, then storage's two.
    expect(cluster.received.map((review) => review.review.request.desiredAPIVersion)).toEqual([
      'stable.example.com/v1',
      'stable.example.com/v2',
      'stable.example.com/v1',
      'stable.example.com/v2',
    ]);
  });

  it('answers a v2 write the observer denies with its Status, and stores nothing', async () => {
    const cluster = await observedCluster(stub.deny({ message: 'no widgets' }));
    h = cluster.h;
    const w1 = { apiVersion: 'stable.example.com/v2', kind: 'Widget', metadata: { name: 'w1', namespace: NAMESPACE }, spec: { colour: 'red', size: 1 } };
    const refused = await call(cluster.api, 'POST', widgets('v2'), w1);
    expect([refused.status, (refused.body as { message: string }).message]).toEqual([400, `admission webhook "${OBSERVER}" denied the request: no widgets`]);
    expect(cluster.api.store.read('stable.example.com/v1', 'Widget', 'w1', NAMESPACE)).toBeUndefined();
  });

  // Not recorded: the dispatchers return ConvertToGVK's error as apierrors.NewInternalError, whatever the failurePolicy
  // (the observer's is Ignore); the converter's text is the one a read at that version gets.
  it('refuses a v2 write with a 500 when the conversion for the observer fails, storing nothing', async () => {
    const cluster = await observedCluster(stub.allow(), { kind: 'failure', message: 'colour cannot be converted' });
    h = cluster.h;
    const w1 = { apiVersion: 'stable.example.com/v2', kind: 'Widget', metadata: { name: 'w1', namespace: NAMESPACE }, spec: { colour: 'red', size: 1 } };
    const refused = await call(cluster.api, 'POST', widgets('v2'), w1);
    expect([refused.status, (refused.body as { message: string }).message]).toEqual([
      500,
      'Internal error occurred: conversion webhook for stable.example.com/v2, Kind=Widget failed: colour cannot be converted',
    ]);
    expect(h.stub(OBSERVER).received).toHaveLength(0);
    expect(cluster.api.store.read('stable.example.com/v1', 'Widget', 'w1', NAMESPACE)).toBeUndefined();
  });
});
