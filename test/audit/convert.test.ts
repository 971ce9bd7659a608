import { reviewsFromAudit, auditLimits, type AuditReview } from '../../lib/audit';
import { reviewFromRequest } from '../../lib/review';
import { actionRequest } from '../review/captures';
import { ADMIN, logEvents, without } from './events';

/*
 * The hand-written audit log (fixtures/audit.log), event by event: what each request becomes. The log
 * follows the captured actions of fixtures/apiserver-captures, so where the audit holds enough the
 * converted request is compared with what kube-apiserver v1.36.2 actually sent.
 */

const conversion = reviewsFromAudit(logEvents());
const byAuditID = (id: string): AuditReview => {
  const found = conversion.reviews.find((r) => r.source.auditID === id);
  if (!found) throw new Error(`no review for ${id}`);
  return found;
};

const POD_CREATE = '0d3c5f4e-2b7a-4c1e-9f6d-8a1b2c3d4e01';
const POD_GET = '5e2a9b17-6c4d-4f08-8e3a-1d2c3b4a5f02';
const CONFIGMAP_PATCH = 'a7c81e3d-0f2b-4d6a-9c5e-2b3a4c5d6e03';
const SECRET_CREATE = 'c41f7d20-8e5b-4a3c-b2d1-4e5f6a7b8c04';
const SCALE_UPDATE = 'e9b3a6c5-1d7f-4b2e-a0c9-5f6a7b8c9d05';
const POD_EXEC = 'f2d4c8b1-3a6e-4c5d-8b7f-6a7b8c9d0e06';

describe('reviewsFromAudit on fixtures/audit.log', () => {
  it('gives one review per admitted request, in log order, and counts the get it skipped', () => {
    expect(conversion.requests).toBe(6);
    expect(
      conversion.reviews.map(
        (r) => `${r.request.operation} ${r.request.requestResource?.resource}${r.request.requestSubResource ? `/${r.request.requestSubResource}` : ''}`,
      ),
    ).toEqual(['CREATE pods', 'UPDATE configmaps', 'CREATE secrets', 'UPDATE deployments/scale', 'CONNECT pods/exec']);
    expect(conversion.skipped).toEqual([
      { auditID: POD_GET, verb: 'get', requestURI: '/api/v1/namespaces/cap/pods/x1', reason: 'read-only-verb', detail: 'get requests never reach admission' },
    ]);
    expect(conversion.skippedByReason).toEqual({ 'read-only-verb': 1 });
  });

  it('pod create (RequestResponse): the request body as object, CreateOptions from the query, the limits of requestObject', () => {
    const { source, request, limits } = byAuditID(POD_CREATE);
    expect(source).toEqual({
      from: 'audit',
      auditID: POD_CREATE,
      stage: 'ResponseComplete',
      requestURI: '/api/v1/namespaces/cap/pods?fieldManager=kubectl-create&fieldValidation=Strict',
      timestamp: '2026-11-21T23:38:31.402118Z',
      objectFrom: 'requestObject',
    });
    expect(request).toEqual({
      uid: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      kind: { group: '', version: 'v1', kind: 'Pod' },
      resource: { group: '', version: 'v1', resource: 'pods' },
      requestKind: { group: '', version: 'v1', kind: 'Pod' },
      requestResource: { group: '', version: 'v1', resource: 'pods' },
      name: 'x1',
      namespace: 'cap',
      operation: 'CREATE',
      userInfo: ADMIN,
      object: logEvents()[1]!.requestObject,
      oldObject: null,
      dryRun: false,
      options: { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1', fieldManager: 'kubectl-create', fieldValidation: 'Strict' },
    });
    expect(limits).toEqual([auditLimits.MANAGED_FIELDS_UNKNOWN, auditLimits.PLUGIN_CHANGES_UNKNOWN]);
  });

  it('pod create: not the responseObject, which holds what admission and storage did afterwards', () => {
    const { request } = byAuditID(POD_CREATE);
    expect(request.object?.metadata).not.toHaveProperty('uid');
    expect(request.object).not.toHaveProperty('status.phase');
  });

  it('configmap patch (RequestResponse): UPDATE of the stored result, since the audit holds only the patch', () => {
    const { source, request, limits } = byAuditID(CONFIGMAP_PATCH);
    expect(source.objectFrom).toBe('responseObject');
    expect(request.operation).toBe('UPDATE');
    expect(request.object).toEqual(logEvents()[5]!.responseObject);
    expect(request.object?.metadata?.labels).toEqual({ app: 'demo', patched: 'merge' });
    expect(request.oldObject).toBeNull();
    // kubectl patch sends only its field manager, as the capture shows.
    expect(request.options).toEqual(actionRequest('configmaps-patch-merge.json').options);
    expect(limits).toEqual([auditLimits.OLD_OBJECT_UNKNOWN, auditLimits.OBJECT_IS_RESULT]);
  });

  it('secret create (Request): keeps the Secret data as logged — redaction is a later step', () => {
    const { request, limits } = byAuditID(SECRET_CREATE);
    expect(request.object).toEqual({
      kind: 'Secret',
      apiVersion: 'v1',
      metadata: { name: 'x1', namespace: 'cap', labels: { app: 'demo' } },
      data: { password: 'czNjcjN0' },
      type: 'Opaque',
    });
    // What kube-apiserver sent for the same kubectl create, but for the write's managedFields entry.
    expect(without(request, ['uid'])).toEqual(without(actionRequest('secrets-create.json'), ['uid', 'object.metadata.managedFields']));
    expect(limits).toEqual([auditLimits.MANAGED_FIELDS_UNKNOWN]);
  });

  it('deployment scale update (Request): UPDATE of deployments/scale carrying an autoscaling/v1 Scale', () => {
    const { request, limits } = byAuditID(SCALE_UPDATE);
    expect(request).toMatchObject({
      kind: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
      resource: { group: 'apps', version: 'v1', resource: 'deployments' },
      subResource: 'scale',
      requestSubResource: 'scale',
      operation: 'UPDATE',
      options: { kind: 'UpdateOptions', apiVersion: 'meta.k8s.io/v1' },
    });
    // The capture's curl PUT of the same Scale: equal but for managedFields and the stored oldObject.
    expect(without(request, ['uid', 'oldObject'])).toEqual(
      without(actionRequest('deployments-scale-update.json'), ['uid', 'oldObject', 'object.metadata.managedFields']),
    );
    expect(request.oldObject).toBeNull();
    expect(limits).toEqual([auditLimits.OLD_OBJECT_UNKNOWN, auditLimits.MANAGED_FIELDS_UNKNOWN]);
  });

  it('pod exec over a WebSocket (verb get): CONNECT with the PodExecOptions of the query, exactly as kube-apiserver sent it', () => {
    const { source, request, limits } = byAuditID(POD_EXEC);
    expect(source).toMatchObject({ stage: 'ResponseComplete', objectFrom: 'requestURI' });
    expect(without(request, ['uid'])).toEqual(without(actionRequest('pods-exec.json'), ['uid']));
    expect(limits).toEqual([]);
  });

  it('every request reads back through reviewFromRequest into the same attributes as its Review', () => {
    for (const { request, review } of conversion.reviews) {
      expect(reviewFromRequest(request, 'audit').attributes).toEqual(review.attributes);
    }
  });

  it('derives uids from the auditIDs: stable from run to run, distinct per request', () => {
    const again = reviewsFromAudit(logEvents());
    expect(again.reviews.map((r) => r.request.uid)).toEqual(conversion.reviews.map((r) => r.request.uid));
    expect(new Set(conversion.reviews.map((r) => r.request.uid)).size).toBe(conversion.reviews.length);
  });

  it('leaves the events, the requests it returns and their Reviews independent of each other', () => {
    const events = logEvents();
    const [first] = reviewsFromAudit(events).reviews;
    expect(first!.request.object).toEqual(events[1]!.requestObject);
    expect(first!.request.object).not.toBe(events[1]!.requestObject);
    expect(first!.review.attributes.object).not.toBe(first!.request.object);
  });
});
