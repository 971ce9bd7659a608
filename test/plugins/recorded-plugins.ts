// What the recordings in test/plugins/fixtures/apiserver-plugins-more hold (copied from a real
// kube-apiserver v1.36.2, README.md there), and a harness set up as that cluster was: the observer
// mutating webhook it registered (a stub that allows), the namespaces the recorder created, the
// plugins it enabled and its --admission-control-config-file.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { createHarness, review, Review, type AdmitResult, type Harness, type HarnessOptions } from '../../lib';
import type { AdmissionReview, KubeObject, Status, UserInfo } from '../../lib/kube/admission';

export const FIXTURES = path.join(__dirname, 'fixtures/apiserver-plugins-more');

export interface RecordedStep {
  request: { method: string; path: string; headers?: Record<string, string>; body?: KubeObject; user?: string };
  response: { code: number; headers: Record<string, string>; body: KubeObject & Partial<Status> };
}

export interface Recording {
  case: string;
  /** observerWebhook is a reference (`o4-observer-opt (see podnodeselector-mutation.json)`) in some recordings. */
  environment: { extraFlags: string[]; admissionConfig: string | null; observerWebhook: { registered: Record<string, unknown> } | string };
  steps: RecordedStep[];
  backendReceived: { url: string; body: AdmissionReview }[];
}

export const load = (name: string): Recording => JSON.parse(readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8')) as Recording;

/** The objects the webhook received, in order. */
export const received = (recording: Recording): KubeObject[] => recording.backendReceived.map((r) => r.body.request!.object!);

/** The recorder's namespaces: labelled for the observer, with the annotations each case describes. */
export const namespace = (name: string, annotations: Record<string, string> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name, labels: { 'o4-observe': 'true' }, annotations },
});

/** The observer webhook the recording's cluster had registered, followed where the recording only names it. */
export function observerOf(recording: Recording): Record<string, unknown> {
  const observer = recording.environment.observerWebhook;
  if (typeof observer !== 'string') return observer.registered;
  const [, file] = /\(see ([^)]+)\.json\)/.exec(observer) ?? [];
  return observerOf(load(file!));
}

/** The observer's MutatingWebhookConfiguration, named as the recorder named it (o4-observer-opt…): its name orders the webhooks. */
export function observerConfiguration(recording: Recording): KubeObject {
  const registered = observerOf(recording);
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingWebhookConfiguration',
    metadata: { name: String(registered.name).split('.')[0] },
    webhooks: [registered],
  } as KubeObject;
}

/** A harness as the recording's cluster: its observer webhook (stubbed), its enabled plugins and their configuration. */
export async function recordedCluster(
  recording: Recording,
  objects: KubeObject[],
  options: Partial<HarnessOptions> = {},
): Promise<Harness & { observed(): KubeObject[] }> {
  const registered = observerOf(recording);
  const configuration = observerConfiguration(recording);
  const flag = recording.environment.extraFlags.find((f) => f.startsWith('--enable-admission-plugins='));
  const enable = flag ? flag.slice('--enable-admission-plugins='.length).split(',') : [];
  const admissionConfig = recording.environment.admissionConfig;
  const h = await createHarness({
    seed: 36,
    manifests: [configuration as never],
    stubs: { [String(registered.name)]: { respond: { allowed: true } } },
    objects,
    plugins: { enable, ...(admissionConfig ? { configuration: parse(admissionConfig) as Record<string, unknown> } : {}) },
    ...options,
  });
  return Object.assign(h, { observed: () => h.stub(String(registered.name)).received.map((r) => r.request!.object!) });
}

/**
 * The token volume's random suffix differs between clusters, and the recording binary adds a projected
 * source upstream does not (`openshift-service-ca.crt`): both are left out; everything else must match.
 */
export function normalised(value: unknown): unknown {
  const text = JSON.stringify(value).replace(/kube-api-access-[a-z0-9]{5}/g, 'kube-api-access-xxxxx');
  return JSON.parse(text, (_key, member: unknown) =>
    Array.isArray(member) ? member.filter((item) => !(item && typeof item === 'object' && JSON.stringify(item).includes('openshift-service-ca.crt'))) : member,
  ) as unknown;
}

export const specOf = (object: KubeObject | null | undefined): Record<string, unknown> =>
  (object as { spec?: Record<string, unknown> } | null | undefined)?.spec ?? {};

/** A refusal's code, message and reason (undefined for a bare 500), as the API answered or the harness does. */
export const refusal = (status: Partial<Status> | undefined): Partial<Status> => ({ code: status?.code, message: status?.message, reason: status?.reason });

/** The recorded user of a step: the recorder's bearer token for alice (group devs), else the admin. */
function userOf(step: RecordedStep): UserInfo | undefined {
  return step.request.user === 'alice' ? { username: 'alice', groups: ['devs', 'system:authenticated'] } : undefined;
}

/** The review a recorded write makes, on the stored objects recorded before it (by name). */
function reviewOf(step: RecordedStep, stored: Map<string, KubeObject>): Review | undefined {
  const { method, path: url, body } = step.request;
  const [, namespace = '', , name = '', subResource = ''] = /^\/api\/v1\/(?:namespaces\/([^/]+)\/)?([^/]+)(?:\/([^/]+))?(?:\/([^/]+))?$/.exec(url) ?? [];
  const options = { ...(userOf(step) ? { userInfo: userOf(step)! } : {}), ...(namespace ? { namespace } : {}) };
  if (method === 'POST' && subResource === 'binding') {
    const bound = review.bind(stored.get(name)!, String((body as { target: { name: string } }).target.name), options);
    // A Binding carrying labels and annotations of its own, as the client sent them.
    const metadata = {
      ...bound.attributes.object!.metadata,
      ...(body!.metadata?.labels ? { labels: body!.metadata.labels } : {}),
      ...(body!.metadata?.annotations ? { annotations: body!.metadata.annotations } : {}),
    };
    return new Review({ ...bound.attributes, object: { ...bound.attributes.object!, metadata } });
  }
  if (method === 'POST') return review.create({ ...body!, metadata: { ...body!.metadata, ...(namespace ? { namespace } : {}) } }, { ...options, via: 'api' });
  if (method === 'PUT') return review.update(stored.get(name)!, body!, { ...options, via: 'api', ...(subResource ? { subResource } : {}) });
  if (method === 'PATCH') {
    const type = step.request.headers?.['Content-Type'] === 'application/merge-patch+json' ? 'merge' : 'strategic';
    return review.patch(stored.get(name)!, body, { ...options, type, ...(subResource ? { subResource } : {}) });
  }
  return undefined;
}

// What a Service's storage allocates after admission (its ClusterIP and IP families): no plugin's doing.
const ALLOCATED = ['clusterIP', 'clusterIPs', 'ipFamilies', 'ipFamilyPolicy'];
const withoutAllocations = (spec: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(spec).filter(([key]) => !ALLOCATED.includes(key)));

/** What a step came to in the harness, beside what the recording says it came to. */
export interface ReplayedStep {
  step: RecordedStep;
  result?: AdmitResult;
}

/**
 * Sends every write of the recording through h.admit, each on the objects the recording stored before
 * it, and checks its outcome against the recorded response: the code and exact message of a refusal,
 * the stored pod's spec and labels of an admitted create or update. A GET checks
 * the last admitted object of that name (a pod bound by a Binding: the Binding's labels).
 */
export async function replay(h: Harness, recording: Recording, storedBefore: KubeObject[] = []): Promise<ReplayedStep[]> {
  const stored = new Map<string, KubeObject>(storedBefore.map((object) => [object.metadata!.name!, object]));
  const admitted = new Map<string, AdmitResult>();
  const replayed: ReplayedStep[] = [];
  for (const step of recording.steps) {
    const name = step.request.path.split('/')[step.request.path.includes('/namespaces/') ? 6 : 4] ?? '';
    if (step.request.method === 'GET') {
      const last = admitted.get(name)!;
      expect(last).toBeDefined();
      const labels = step.response.body.metadata?.labels;
      expect(last.object?.metadata?.labels).toEqual(labels);
      replayed.push({ step });
      continue;
    }
    const request = reviewOf(step, stored);
    if (!request) throw new Error(`no review for ${step.request.method} ${step.request.path}`);
    const result = await h.admit(request);
    replayed.push({ step, result });
    const { code, headers, body } = step.response;
    // A recorded `warning` header here is the registry's (spec.externalIPs is deprecated…), not a plugin's.
    void headers;
    if (code >= 300) {
      expect({ path: step.request.path, status: refusal(result.status) }).toEqual({ path: step.request.path, status: refusal(body) });
      continue;
    }
    expect({ path: step.request.path, status: result.status }).toEqual({ path: step.request.path, status: undefined });
    const target = step.request.path.endsWith('/binding') ? name : (body.metadata?.name ?? name);
    admitted.set(target, result);
    if (body.kind === 'Status') continue;
    stored.set(target, body);
    expect(normalised(withoutAllocations(specOf(result.object)))).toEqual(normalised(withoutAllocations(specOf(body))));
    expect(result.object?.metadata?.labels).toEqual(body.metadata?.labels);
  }
  return replayed;
}

/** The observer webhook (at `/admit`) received what the recorded one did, in order: the objects' kind, labels and spec. */
export function expectObserverSawRecorded(observed: KubeObject[], recording: Recording, url = '/admit?'): void {
  const view = (o: KubeObject) => normalised({ kind: o.kind, labels: o.metadata?.labels, spec: specOf(o), target: (o as { target?: unknown }).target });
  const recorded = recording.backendReceived.filter((r) => r.url.startsWith(url)).map((r) => r.body.request!.object!);
  expect(observed.map(view)).toEqual(recorded.map(view));
}
