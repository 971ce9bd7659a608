// The recorded cluster of ./fixtures (recorded on a real kube-apiserver v1.36.2) rebuilt on the harness's mock API:
// the Widget CRD converting through the recorded backend, with or without the watch cache, and what may differ
// from a recording (uids, timestamps and resourceVersions, which differ from run to run on kube too).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createHarness, sharedAuthority, type Harness, type KubeObject } from '../../lib';
import type { MockApi } from '../../lib/mockapi';
import { call, type Reply } from '../mockapi/client';
import { conversionBackend, type BackendMode, type BackendRequest } from './backend';

export interface Step {
  request: { method: string; path: string; body?: unknown };
  response: { code: number; body: Record<string, unknown> };
}

export interface ReceivedReview {
  body: { request: { uid: string; desiredAPIVersion: string; objects: KubeObject[] } };
  backendAnsweredWith: BackendMode;
}

export interface Recorded {
  environment: { crd: Record<string, unknown>; extraFlags: string[] };
  steps: Step[];
  backendReceived: ReceivedReview[];
  watch?: { request: { path: string }; response: { events: { type: string; object: KubeObject }[] } };
}

export const fixture = (name: string): Recorded => JSON.parse(readFileSync(path.join(__dirname, 'fixtures', `${name}.json`), 'utf8')) as Recorded;

/** The recording's namespace: o4-conv2 with the watch cache, o4-conv3 without. */
export const namespaceOf = (recorded: Recorded): string => (recorded.environment.extraFlags.includes('--watch-cache=false') ? 'o4-conv3' : 'o4-conv2');
export const watchCacheOf = (recorded: Recorded): boolean => !recorded.environment.extraFlags.includes('--watch-cache=false');

// Anywhere in a string: a Status's message names the review's uid.
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

/** A continue token with its revision left out: `{v, start}`. */
function continuePoint(token: string): unknown {
  const { rv: _rv, ...rest } = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as Record<string, unknown>;
  return rest;
}

/** `value` with what differs from run to run replaced by placeholders, and keys sorted. */
export function comparable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(comparable);
  if (typeof value === 'string') return TIME.test(value) ? '<time>' : value.replace(UUID, '<uid>');
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const member = (value as Record<string, unknown>)[key];
    out[key] = key === 'resourceVersion' ? '<rv>' : key === 'continue' && member ? continuePoint(String(member)) : comparable(member);
  }
  return out;
}

/**
 * Reviews kube-apiserver sent to convert for admission, which the mock API (running no admission webhooks on
 * its writes) does not send: the recorded observer webhook was registered for v1 only, so a v2 write was
 * converted for it — the create's object before storage named it (no uid yet), the update's object and old
 * object with their resourceVersion. Storage never encodes or decodes an object carrying either.
 */
export const forAdmission = (review: ReceivedReview): boolean =>
  review.body.request.objects.some((object) => !object.metadata?.uid || object.metadata.resourceVersion !== undefined);

export const comparableReview = (body: unknown): unknown => comparable(body);

/** A recorded cluster on the mock API: the CRD, its namespace, the recorded backend as the target. */
export interface Cluster {
  h: Harness;
  api: MockApi;
  namespace: string;
  received: BackendRequest[];
  mode: BackendMode;
  send(method: string, path: string, body?: unknown, contentType?: string): Promise<Reply>;
  /** A recorded step sent as it was: its answer. */
  replay(step: Step): Promise<Reply>;
  /** The reviews received from `from` on, comparable; sorted when the watch cache makes their order its own. */
  reviewsSince(from: number, sorted: boolean): unknown[];
}

/** The recorded backend (`mode` says how it answers), served in process, or over `listen` as a running server. */
export async function recordedCluster(
  recorded: Recorded,
  extraNamespaces: string[] = [],
  timeScale = 1,
  listen?: (handler: ReturnType<typeof conversionBackend>['handler']) => Promise<{ url: string }>,
): Promise<Cluster> {
  const crd = structuredClone(recorded.environment.crd) as { spec: { conversion: { webhook: { clientConfig: { caBundle: string } } } } };
  crd.spec.conversion.webhook.clientConfig.caBundle = (await sharedAuthority()).caBundle;
  const namespace = namespaceOf(recorded);
  let cluster: Cluster | undefined;
  const backend = conversionBackend(() => cluster?.mode ?? { kind: 'ok' });
  const h = await createHarness({
    manifests: [crd as unknown as Record<string, unknown>],
    target: listen ? await listen(backend.handler) : backend.handler,
    seed: 29,
    timeScale,
    mockApi: { watchCache: watchCacheOf(recorded), namespaces: [namespace, ...extraNamespaces].map((name) => ({ name })) },
  });
  const api = h.api as MockApi;
  const send = (method: string, where: string, body?: unknown, contentType?: string): Promise<Reply> => call(api, method, where, body, contentType);
  cluster = {
    h,
    api,
    namespace,
    received: backend.received,
    mode: { kind: 'ok' },
    send,
    replay: (step) =>
      send(step.request.method, step.request.path, step.request.body, step.request.method === 'PATCH' ? 'application/merge-patch+json' : 'application/json'),
    reviewsSince(from, sorted) {
      const reviews = backend.received.slice(from).map((review) => comparableReview(JSON.parse(review.raw)));
      return sorted ? sortedReviews(reviews) : reviews;
    },
  };
  return cluster;
}

export const sortedReviews = (reviews: unknown[]): unknown[] => [...reviews].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));

/** The recording's reviews the mock API sends too (none for admission), comparable; sorted as `reviewsSince`. */
export function recordedReviews(recorded: Recorded, sorted: boolean): unknown[] {
  const reviews = recorded.backendReceived.filter((review) => !forAdmission(review)).map((review) => comparableReview(review.body));
  return sorted ? sortedReviews(reviews) : reviews;
}

const widget = (namespace: string, name: string, apiVersion: string, spec: Record<string, unknown>) => ({
  apiVersion: `stable.example.com/${apiVersion}`,
  kind: 'Widget',
  metadata: { name, namespace },
  spec,
});

/**
 * The widgets every recorded case after the creates found: w1 created in v2 (create-v2), w2 in v1 (create-v1),
 * w3 in v1 (before list-v2), the webhook answering normally; then the watch cache has converted them all.
 */
export async function createWidgets(cluster: Cluster): Promise<void> {
  const collection = (version: string) => `/apis/stable.example.com/${version}/namespaces/${cluster.namespace}/widgets`;
  const created = [
    await cluster.send('POST', collection('v2'), widget(cluster.namespace, 'w1', 'v2', { colour: 'red', size: 1 })),
    await cluster.send('POST', collection('v1'), widget(cluster.namespace, 'w2', 'v1', { color: 'blue', size: 1 })),
    await cluster.send('POST', collection('v1'), widget(cluster.namespace, 'w3', 'v1', { color: 'green', size: 1 })),
  ];
  expect(created.map((reply) => reply.status)).toEqual([201, 201, 201]);
  await cluster.api.settled();
}

export { widget };
