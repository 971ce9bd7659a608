import type { AdmissionReview, KubeObject } from '../kube/admission';
import { jsonEqual } from '../kube/json';
import type { StubBehavior, StubCondition, StubResponse } from './behavior';

/** One HTTP answer of a stub, or an instruction to close the connection instead. */
export type StubReply = { status: number; contentType: string; body: string; headers?: Record<string, string> } | { close: true };

/** RFC 6901 lookup that tells a missing member from a null one. */
function resolve(document: unknown, pointer: string): { found: boolean; value?: unknown } {
  if (pointer === '') return { found: true, value: document };
  let current: unknown = document;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, token)) return { found: false };
    current = (current as Record<string, unknown>)[token];
  }
  return { found: true, value: current };
}

export function conditionHolds(condition: StubCondition, object: KubeObject | null): boolean {
  if ('all' in condition) return condition.all.every((c) => conditionHolds(c, object));
  const { found, value } = resolve(object, condition.pointer);
  if ('exists' in condition) return found === condition.exists;
  if ('equals' in condition) return found && jsonEqual(value, condition.equals);
  return !found || !jsonEqual(value, condition.notEquals);
}

function substitute(value: unknown, uid: string): unknown {
  if (value === '$UID') return uid;
  if (Array.isArray(value)) return value.map((item) => substitute(item, uid));
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (Object.keys(record).length === 1 && '$base64json' in record) return Buffer.from(JSON.stringify(record.$base64json)).toString('base64');
    return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, substitute(v, uid)]));
  }
  return value;
}

function reviewBody(review: AdmissionReview, response: StubResponse | undefined): string {
  const envelope: Record<string, unknown> = { apiVersion: review.apiVersion, kind: 'AdmissionReview' };
  if (response) {
    const patchBytes = response.patchRaw ?? (response.patch ? JSON.stringify(response.patch) : undefined);
    // Members assigned in the order a Go webhook's encoder writes them (spreads cost more, on every call).
    const answer: Record<string, unknown> = { uid: review.request?.uid, allowed: response.allowed ?? true };
    if (response.status) answer.status = response.status;
    if (patchBytes !== undefined) answer.patch = Buffer.from(patchBytes).toString('base64');
    if (patchBytes !== undefined || response.patchType !== undefined) answer.patchType = response.patchType ?? 'JSONPatch';
    if (response.warnings) answer.warnings = response.warnings;
    if (response.auditAnnotations) answer.auditAnnotations = response.auditAnnotations;
    envelope.response = answer;
  }
  return JSON.stringify(envelope);
}

/** What a stub answers to `review` (transport-level behaviors are the server's business). */
export function stubReply(behavior: StubBehavior, review: AdmissionReview): StubReply {
  const json = (body: string): StubReply => ({ status: 200, contentType: 'application/json', body });
  if (behavior.transport === 'closeConnection') return { close: true };
  if (behavior.http)
    return {
      status: behavior.http.status,
      contentType: behavior.http.contentType ?? 'text/plain',
      body: behavior.http.body ?? '',
      ...(behavior.http.headers ? { headers: behavior.http.headers } : {}),
    };
  if (behavior.rawReview !== undefined) return json(JSON.stringify(substitute(behavior.rawReview, review.request?.uid ?? '')));
  if (behavior.omitResponse) return json(reviewBody(review, undefined));
  if (behavior.conditional) {
    const object = review.request?.object ?? null;
    const hit = behavior.conditional.find((c) => conditionHolds(c.when, object));
    return json(reviewBody(review, hit ? hit.respond : (behavior.otherwise ?? {})));
  }
  return json(reviewBody(review, behavior.respond ?? {}));
}
