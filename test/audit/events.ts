import { readFileSync } from 'node:fs';
import path from 'node:path';
import { auditEventsFrom, type AuditEvent } from '../../lib/audit';
import { cloneJson, isRecord } from '../../lib/kube/json';

/** The hand-written audit log: a pod create, a get, a configmap patch, a secret create, a deployment scale update and a pod exec. */
export const AUDIT_LOG = path.join(__dirname, 'fixtures/audit.log');

export function logEvents(): AuditEvent[] {
  return auditEventsFrom(readFileSync(AUDIT_LOG, 'utf8'), 'audit.log');
}

export const ADMIN = { username: 'admin', uid: 'admin-uid', groups: ['system:masters', 'system:authenticated'] };

/**
 * One ResponseComplete event at level Request by the captures' admin, members as the log backend
 * writes them; `members` replace the defaults (undefined removes one).
 */
export function auditEvent(members: Partial<AuditEvent> & Record<string, unknown>): AuditEvent {
  const event: Record<string, unknown> = {
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level: 'Request',
    auditID: 'audit-1',
    stage: 'ResponseComplete',
    requestURI: '/api/v1/namespaces/cap/configmaps',
    verb: 'create',
    user: ADMIN,
    sourceIPs: ['127.0.0.1'],
    userAgent: 'kubectl/v1.33.1 (linux/amd64) kubernetes/8adc0f0',
    objectRef: { resource: 'configmaps', namespace: 'cap', apiVersion: 'v1' },
    responseStatus: { metadata: {}, code: 201 },
    requestReceivedTimestamp: '2026-11-21T23:38:31.402118Z',
    stageTimestamp: '2026-11-21T23:38:31.431560Z',
    annotations: { 'authorization.k8s.io/decision': 'allow' },
    ...members,
  };
  for (const key of Object.keys(event)) if (event[key] === undefined) delete event[key];
  return event as unknown as AuditEvent;
}

/** A copy of `value` without the members at the dotted paths (`object.metadata.managedFields`). */
export function without<T>(value: T, paths: readonly string[]): T {
  const copy = cloneJson(value);
  for (const dotted of paths) {
    const keys = dotted.split('.');
    let at: unknown = copy;
    for (const key of keys.slice(0, -1)) at = isRecord(at) ? at[key] : undefined;
    if (isRecord(at)) delete at[keys.at(-1) as string];
  }
  return copy;
}

/**
 * Every member path of a JSON value, in document order, values aside: `.request.object.spec.containers[0].name`.
 * Two values with equal lists have the same members, recursively, in the same order.
 */
export function memberPaths(value: unknown, at = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => [`${at}[${i}]`, ...memberPaths(item, `${at}[${i}]`)]);
  if (isRecord(value)) return Object.entries(value).flatMap(([key, item]) => [`${at}.${key}`, ...memberPaths(item, `${at}.${key}`)]);
  return [];
}
