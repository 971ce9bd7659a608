// MutatingAdmissionPolicy in the chain as a real kube-apiserver v1.36.2 ran it (test/fixtures/apiserver-policies,
// README.md there): replayed through h.admit with the recorded policies, bindings and webhook
// configurations, comparing what each webhook call received, the audit annotations and the stored object.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createHarness, review, type Harness } from '../../lib';
import type { AdmissionReview, KubeObject } from '../../lib/kube/admission';
import { behaviourWebhook } from '../webhooks/behaviours';

const DIR = path.join(__dirname, '../fixtures/apiserver-policies');

interface Recording {
  objectsCreated: { sent: KubeObject }[];
  requests: {
    label: string;
    clientRequest: { path: string; body: KubeObject };
    response: { status: number };
    webhookCalls: { behaviour: string; admissionReviewReceived: AdmissionReview }[];
    storedObjectAfter: { body: KubeObject };
    auditAnnotations: Record<string, string>;
  }[];
}

const load = (name: string): Recording => JSON.parse(readFileSync(path.join(DIR, `${name}.json`), 'utf8')) as Recording;
const named = (recording: Recording, ...names: string[]) => recording.objectsCreated.map((o) => o.sent).filter((o) => names.includes(o.metadata?.name ?? ''));
const ADMISSION_KEYS = /^(mutation|patch)\.webhook\.admission\.k8s\.io\//;
const admissionAnnotations = (all: Record<string, string>) => Object.fromEntries(Object.entries(all).filter(([key]) => ADMISSION_KEYS.test(key)));

const harnesses: Harness[] = [];
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((h) => h.close()));
});

async function replay(request: Recording['requests'][number], manifests: KubeObject[]) {
  const namespace = request.clientRequest.path.split('/')[4]!;
  const { handler, calls } = behaviourWebhook();
  const h = await createHarness({ seed: 21, target: handler, manifests: manifests as never[], namespaces: [{ name: namespace }] });
  harnesses.push(h);
  const sent = request.clientRequest.body;
  const result = await h.admit(review.create({ ...sent, metadata: { ...sent.metadata, namespace } }, { via: 'api', managedFields: true }));
  return { result, calls };
}

describe('MutatingAdmissionPolicy as a real kube-apiserver v1.36.2 runs it (fixtures/apiserver-policies)', () => {
  it('map-applyconfiguration: the policy’s label is there for the mutating webhook after it; no audit annotation for the policy', async () => {
    const recording = load('map-applyconfiguration');
    const [request] = recording.requests;
    const { result, calls } = await replay(
      request!,
      recording.objectsCreated.map((o) => o.sent),
    );
    expect(result).toBeAllowed();
    expect(calls.map((c) => c.review.request!.object!.metadata!.labels)).toEqual(
      request!.webhookCalls.map((c) => c.admissionReviewReceived.request!.object!.metadata!.labels),
    );
    expect(admissionAnnotations(result.auditAnnotations)).toEqual(admissionAnnotations(request!.auditAnnotations));
    expect(result.object?.metadata?.labels).toEqual(request!.storedObjectAfter.body.metadata!.labels);
  });

  describe('map-reinvocation', () => {
    const recording = load('map-reinvocation');
    // The configurations that existed when each request was made (README: wh-b still existed for C).
    const cases: [string, string[]][] = [
      [
        '(A) an IfNeeded policy whose re-run changes nothing: the webhook is called once',
        ['oracle3-map-reinv-wh', 'oracle3-map-reinv', 'oracle3-map-reinv-binding'],
      ],
      [
        '(B) the IfNeeded policy re-runs after the webhook’s change, and its change reinvokes the webhook (round_1)',
        ['oracle3-map-reinv-wh-b', 'oracle3-map-reinv-b', 'oracle3-map-reinv-b-binding'],
      ],
      [
        '(C) a Never policy does not re-run; the webhook index counts webhooks only',
        ['oracle3-map-reinv-wh-b', 'oracle3-map-reinv-wh-c', 'oracle3-map-reinv-c', 'oracle3-map-reinv-c-binding'],
      ],
    ];
    it.each(cases.map(([title, names], i) => [title, names, i] as const))('%s', async (_title, names, i) => {
      const request = recording.requests[i]!;
      const { result, calls } = await replay(request, named(recording, ...names));
      expect(result).toBeAllowed();
      expect(calls.map((c) => c.review.request!.object!.metadata!.labels)).toEqual(
        request.webhookCalls.map((c) => c.admissionReviewReceived.request!.object!.metadata!.labels),
      );
      expect(admissionAnnotations(result.auditAnnotations)).toEqual(admissionAnnotations(request.auditAnnotations));
      expect(result.object?.metadata?.labels).toEqual(request.storedObjectAfter.body.metadata!.labels);
    });
  });
});
