// Every recording in test/fixtures/apiserver-outcomes (a real kube-apiserver v1.36.2, see README.md there)
// replayed through h.admit with the webhook it was recorded with (test/webhooks/behaviours.ts): the calls
// each webhook received and what was in them, the mutation and patch annotations, the status and message,
// and the object the API kept.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createHarness, loadManifests, objects, review, type AdmitResult, type Harness } from '../../lib';
import type { AdmissionReview, KubeObject } from '../../lib/kube/admission';
import { behaviourWebhook, type BehaviourCall } from '../webhooks/behaviours';

const DIR = path.join(__dirname, '../fixtures/apiserver-outcomes');

interface Outcome {
  case: string;
  webhookConfigurationsSent: Record<string, unknown>[];
  clientRequest: { method: string; path: string; body: KubeObject | null };
  response: { status: number; body: { message?: string; kind?: string; details?: unknown } & KubeObject };
  webhookCalls: { behaviour: string; admissionReviewReceived: AdmissionReview }[];
  /** A GET afterwards: its status and body. */
  storedObjectAfter: { status: number; body: KubeObject };
  auditAnnotations: Record<string, string>;
}

const load = (name: string): Outcome => JSON.parse(readFileSync(path.join(DIR, `${name}.json`), 'utf8')) as Outcome;

// The namespace of the recordings, labelled for the webhooks' namespaceSelector.
const NAMESPACES = [{ name: 'whtest', labels: { 'oracle2-test': 'true' } }];

/**
 * What differs between runs or binaries and is left out of comparisons: the token volume's random
 * suffix, and the projected source the recording binary adds that upstream does not
 * (`openshift-service-ca.crt`, see test/fixtures/apiserver-policies/README.md).
 */
function normalised(value: unknown): unknown {
  if (value === undefined) return undefined;
  const text = JSON.stringify(value).replace(/kube-api-access-[a-z0-9]{5}/g, 'kube-api-access-xxxxx');
  return JSON.parse(text, (_key, member: unknown) =>
    Array.isArray(member) ? member.filter((item) => !(item && typeof item === 'object' && JSON.stringify(item).includes('openshift-service-ca.crt'))) : member,
  );
}

/** The admission-relevant annotations of a request: the mutating dispatcher's. */
function dispatcherAnnotations(annotations: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(annotations).filter(([key]) => key.startsWith('mutation.webhook.') || key.startsWith('patch.webhook.')));
}

const harnesses: Harness[] = [];
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((h) => h.close()));
});

/** A harness serving the recording webhook, with the configurations the recording created. */
async function replaying(outcome: Outcome): Promise<{ h: Harness; calls: BehaviourCall[] }> {
  const { handler, calls } = behaviourWebhook();
  const h = await createHarness({ seed: 13, target: handler, manifests: outcome.webhookConfigurationsSent as never[], namespaces: NAMESPACES });
  harnesses.push(h);
  return { h, calls };
}

/** The create the recording's client sent (a raw POST into namespace whtest). */
function createOf(outcome: Outcome) {
  return review.create(objects.fromYaml({ ...outcome.clientRequest.body, metadata: { ...outcome.clientRequest.body?.metadata, namespace: 'whtest' } }), {
    via: 'api',
    managedFields: true,
  });
}

/** Calls, annotations and status as recorded. */
function expectRecorded(outcome: Outcome, result: AdmitResult, calls: BehaviourCall[]): void {
  expect(calls.map((c) => c.behaviour)).toEqual(outcome.webhookCalls.map((c) => c.behaviour));
  expect(dispatcherAnnotations(result.auditAnnotations)).toEqual(dispatcherAnnotations(outcome.auditAnnotations));
  if (outcome.response.status >= 400) {
    expect(result.allowed).toBe(false);
    expect(result.status).toMatchObject({ code: outcome.response.status, message: outcome.response.body.message });
  } else {
    expect(result).toBeAllowed();
  }
}

/** What each webhook was sent, as recorded: the spec and labels of each call's object. */
function expectReviewsReceived(outcome: Outcome, calls: BehaviourCall[]): void {
  const seen = (r: AdmissionReview) =>
    normalised({ labels: r.request?.object?.metadata?.labels, spec: (r.request?.object as { spec?: unknown } | null)?.spec });
  expect(calls.map((c) => seen(c.review))).toEqual(outcome.webhookCalls.map((c) => seen(c.admissionReviewReceived)));
}

describe('the object after webhook patches, as a real kube-apiserver v1.36.2 keeps it (fixtures/apiserver-outcomes)', () => {
  const creates = [
    'patch-wrong-type-labels',
    'patch-wrong-type-replicas',
    'patch-unknown-field',
    'patch-unknown-field-second',
    'patch-noop-replace',
    'patch-empty-list',
    'patch-empty-list-alone',
    'patch-replace-missing-key',
    'sidecar-defaulting',
    'non-idempotent-sidecar',
    'patch-remove-metadata-name',
  ];

  it.each(creates)('%s: the recorded calls, reviews, annotations and status', async (name) => {
    const outcome = load(name);
    const { h, calls } = await replaying(outcome);
    const result = await h.admit(createOf(outcome));
    expectRecorded(outcome, result, calls);
    expectReviewsReceived(outcome, calls);
  });

  it.each(creates.filter((name) => load(name).response.status < 400))('%s: the object kept is the one recorded', async (name) => {
    const outcome = load(name);
    const { h } = await replaying(outcome);
    const result = await h.admit(createOf(outcome));
    expect(outcome.storedObjectAfter.status).toBe(200);
    const stored = outcome.storedObjectAfter.body;
    expect(normalised(result.object?.metadata?.labels)).toEqual(normalised(stored.metadata?.labels));
    expect(normalised((result.object as { spec?: unknown }).spec)).toEqual(normalised((stored as { spec?: unknown }).spec));
  });

  it('patch-unknown-field: /spec/bogusField is dropped, and the trace says so', async () => {
    const outcome = load('patch-unknown-field');
    const { h } = await replaying(outcome);
    const result = await h.admit(createOf(outcome));
    expect((result.object as { spec: Record<string, unknown> }).spec).not.toHaveProperty('bogusField');
    expect(String(result.trace)).toContain('unknown fields dropped: spec.bogusField');
  });

  it('delete-with-options: one DELETE of an unscheduled pod is admitted three times, the last with deletionTimestamp', async () => {
    const outcome = load('delete-with-options');
    const { h, calls } = await replaying(outcome);
    const recorded = outcome.webhookCalls.map((c) => c.admissionReviewReceived.request!);
    const pod = objects.stored(recorded[0]!.oldObject!);
    const result = await h.admit(review.delete(pod, { via: 'api', gracePeriodSeconds: 0, propagationPolicy: 'Background' }));
    expectRecorded(outcome, result, calls);
    const sent = calls.map((c) => c.review.request!);
    expect(new Set(sent.map((r) => r.uid)).size).toBe(3);
    expect(sent.map((r) => [r.operation, r.object, r.options])).toEqual(recorded.map((r) => [r.operation, r.object, r.options]));
    const marks = (r: (typeof sent)[number]) => {
      const m = r.oldObject!.metadata as Record<string, unknown>;
      return { deletionTimestamp: m.deletionTimestamp !== undefined, deletionGracePeriodSeconds: m.deletionGracePeriodSeconds, generation: m.generation };
    };
    expect(sent.map(marks)).toEqual(recorded.map(marks));
  });

  it('connect-objectselector: a non-empty objectSelector never matches a CONNECT (its object, PodExecOptions, has no metadata); {} does', async () => {
    const outcome = load('connect-objectselector');
    const { h, calls } = await replaying(outcome);
    const pod = objects.pod({ name: 'p9', namespace: 'whtest', labels: { app: 't' } }, { stored: true });
    const result = await h.admit(review.exec(pod, ['ls']));
    expect(calls.map((c) => c.behaviour)).toEqual(outcome.webhookCalls.map((c) => c.behaviour));
    expect(result.trace.steps.map((s) => s.why.at(-1))).toEqual(['objectSelector {runlevel notin (1)} matched neither object nor oldObject']);
    const everything = await replaying({
      ...outcome,
      webhookConfigurationsSent: outcome.webhookConfigurationsSent.map((c) => ({
        ...c,
        webhooks: (c.webhooks as Record<string, unknown>[]).map((w) => ({ ...w, objectSelector: {} })),
      })),
    });
    await everything.h.admit(review.exec(pod, ['ls']));
    expect(everything.calls.map((c) => c.behaviour)).toEqual(['allow']);
  });

  it('KNOWN DIVERGENCE connect-objectselector: the connect itself (400 "pod p9 does not have a host assigned") is not emulated; h.admit answers for admission alone', async () => {
    const outcome = load('connect-objectselector');
    expect(outcome.response).toMatchObject({ status: 400, body: { message: 'pod p9 does not have a host assigned' } });
    const { h } = await replaying(outcome);
    const result = await h.admit(review.exec(objects.pod({ name: 'p9', namespace: 'whtest' }, { stored: true }), ['ls']));
    expect(result).toBeAllowed();
  });

  it('dryrun-sideeffects-some: a v1 configuration with sideEffects Some is refused with the API’s text', () => {
    const outcome = load('dryrun-sideeffects-some');
    const cause = (outcome.response.body.details as { causes: { field: string; message: string }[] }).causes[0]!;
    expect(() => loadManifests([outcome.clientRequest.body as never])).toThrow(`${cause.field}: ${cause.message}`);
  });
});

describe('every recording is replayed', () => {
  it('names each fixture file in this file', () => {
    const self = readFileSync(__filename, 'utf8');
    for (const file of readdirSync(DIR).filter((f) => f.endsWith('.json') && f !== 'VERSION.json')) expect(self).toContain(`'${file.replace('.json', '')}'`);
  });
});
