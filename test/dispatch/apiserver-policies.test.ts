// The recordings in test/fixtures/apiserver-policies (a real kube-apiserver v1.36.2, README.md there),
// replayed through h.admit with the webhook they were recorded with (test/webhooks/behaviours.ts): the
// built-in mutating plugins here; the policies in test/policy/*-fixtures.test.ts; NamespaceLifecycle,
// ResourceQuota and PodSecurity in test/plugins/; psa-restricted-sidecar's pod validation in
// test/registry/validation-fixtures.test.ts. The last test fails when a recording is replayed nowhere.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createHarness, review, type Harness } from '../../lib';
import type { AdmissionReview, KubeObject } from '../../lib/kube/admission';
import { behaviourWebhook } from '../webhooks/behaviours';

const DIR = path.join(__dirname, '../fixtures/apiserver-policies');

interface Recording {
  namespace: string;
  objectsCreated: { sent: KubeObject }[];
  requests: {
    clientRequest: { method: string; body: KubeObject };
    response: { status: number };
    webhookCalls: { behaviour: string; admissionReviewReceived: AdmissionReview }[];
    storedObjectAfter: { status: number; body: KubeObject };
    auditAnnotations: Record<string, string>;
  }[];
}

const load = (name: string): Recording => JSON.parse(readFileSync(path.join(DIR, `${name}.json`), 'utf8')) as Recording;

/**
 * The token volume's random suffix differs between runs, and the recording binary adds a projected source
 * upstream does not (`openshift-service-ca.crt`, README.md there): both are left out of comparisons.
 */
function normalised(value: unknown): unknown {
  const text = JSON.stringify(value).replace(/kube-api-access-[a-z0-9]{5}/g, 'kube-api-access-xxxxx');
  return JSON.parse(text, (_key, member: unknown) =>
    Array.isArray(member) ? member.filter((item) => !(item && typeof item === 'object' && JSON.stringify(item).includes('openshift-service-ca.crt'))) : member,
  );
}

const spec = (object: KubeObject | null | undefined): unknown => (object as { spec?: unknown } | null | undefined)?.spec;

const harnesses: Harness[] = [];
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((h) => h.close()));
});

describe('the built-in mutating plugins before the first webhook, as a real kube-apiserver v1.36.2 runs them (fixtures/apiserver-policies)', () => {
  it('default-tolerations: the first mutating webhook sees the ServiceAccount volume, DefaultTolerationSeconds, Priority; the pod is stored so', async () => {
    const recording = load('default-tolerations');
    const [request] = recording.requests;
    const namespace = recording.objectsCreated.find((o) => o.sent.kind === 'Namespace')!.sent.metadata!.name!;
    const configurations = recording.objectsCreated.filter((o) => o.sent.kind === 'MutatingWebhookConfiguration').map((o) => o.sent);
    const { handler, calls } = behaviourWebhook();
    const h = await createHarness({ seed: 13, target: handler, manifests: configurations as never[], namespaces: [{ name: namespace }] });
    harnesses.push(h);

    // The body the client sent, as it was sent: the registry's decode and defaults and the plugins are h.admit's.
    const sent = request!.clientRequest.body;
    const result = await h.admit(review.create({ ...sent, metadata: { ...sent.metadata, namespace } }, { via: 'api', managedFields: true }));

    expect(request!.response.status).toBe(201);
    expect(result).toBeAllowed();
    expect(calls.map((c) => c.behaviour)).toEqual(request!.webhookCalls.map((c) => c.behaviour));
    const received = request!.webhookCalls[0]!.admissionReviewReceived.request!.object;
    expect(normalised(spec(calls[0]!.review.request!.object))).toEqual(normalised(spec(received)));
    expect(calls[0]!.review.request!.object!.metadata!.labels).toEqual(received!.metadata!.labels);
    const annotation = 'mutation.webhook.admission.k8s.io/round_0_index_0';
    expect(result.auditAnnotations[annotation]).toBe(request!.auditAnnotations[annotation]);
    expect(normalised(spec(result.object))).toEqual(normalised(spec(request!.storedObjectAfter.body)));
  });
});

describe('every recording is replayed', () => {
  it('names each fixture file of apiserver-policies in some test', () => {
    const tests = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory() ? tests(path.join(dir, entry.name)) : entry.name.endsWith('.test.ts') ? [path.join(dir, entry.name)] : [],
      );
    const sources = tests(path.join(__dirname, '..'))
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    const recordings = readdirSync(DIR)
      .filter((name) => name.endsWith('.json') && !/^[A-Z_]/.test(name))
      .map((name) => name.replace(/\.json$/, ''));
    expect(recordings.filter((name) => !sources.includes(name))).toEqual([]);
  });
});
