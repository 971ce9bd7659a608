import { reviewsFromAudit, auditLimits, type AuditEvent, type SkipReason } from '../../lib/audit';
import { ResourceCatalog } from '../../lib/kube/catalog';
import { widgetsCrd } from '../review/captures';
import { auditEvent } from './events';

/*
 * Which audited requests become reviews, with which operation, and why the others do not: stages,
 * levels, verbs, the catalog, and the outcomes that tell a request never reached admission.
 */

const ok = { metadata: {}, code: 200 };
const podRef = (members: Record<string, unknown> = {}) => ({ resource: 'pods', namespace: 'cap', name: 'runner', apiVersion: 'v1', ...members });
const configMap = { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'x1', namespace: 'cap' }, data: { k: 'v' } };
const cmRef = { resource: 'configmaps', namespace: 'cap', name: 'x1', apiVersion: 'v1' };

function skipOf(...events: AuditEvent[]): { reason: SkipReason; detail: string } {
  const { reviews, skipped, skippedByReason } = reviewsFromAudit(events);
  expect(reviews).toEqual([]);
  expect(skipped).toHaveLength(1);
  expect(skippedByReason).toEqual({ [skipped[0]!.reason]: 1 });
  return { reason: skipped[0]!.reason, detail: skipped[0]!.detail };
}

describe('stages', () => {
  const exec = (stage: AuditEvent['stage'], code?: number) =>
    auditEvent({
      stage,
      verb: 'create',
      requestURI: '/api/v1/namespaces/cap/pods/runner/exec?command=sh&stdout=true',
      objectRef: podRef({ subresource: 'exec' }),
      responseStatus: code ? { metadata: {}, code } : undefined,
    });

  it('takes the ResponseComplete event of a request, whatever came before it', () => {
    const { reviews } = reviewsFromAudit([exec('RequestReceived'), exec('ResponseStarted', 101), exec('ResponseComplete', 101)]);
    expect(reviews.map((r) => r.source.stage)).toEqual(['ResponseComplete']);
  });

  it('takes a ResponseStarted event when that is all there is, and says the request had not completed', () => {
    const { reviews } = reviewsFromAudit([exec('RequestReceived'), exec('ResponseStarted', 101)]);
    expect(reviews.map((r) => r.source.stage)).toEqual(['ResponseStarted']);
    expect(reviews[0]!.limits).toEqual([auditLimits.NOT_COMPLETED]);
  });

  it('skips a request with only its RequestReceived stage, or one that panicked', () => {
    expect(skipOf(exec('RequestReceived')).reason).toBe('no-response-stage');
    expect(skipOf(exec('RequestReceived'), exec('Panic', 500)).reason).toBe('panicked');
  });

  it('lists the reviews in the order the requests arrived, not the order they completed', () => {
    const create = (stage: AuditEvent['stage']) =>
      auditEvent({
        auditID: 'create-1',
        stage,
        requestURI: '/api/v1/namespaces/cap/configmaps',
        requestObject: stage === 'ResponseComplete' ? configMap : undefined,
      });
    const { reviews } = reviewsFromAudit([exec('RequestReceived'), create('RequestReceived'), create('ResponseComplete'), exec('ResponseComplete', 101)]);
    expect(reviews.map((r) => r.request.operation)).toEqual(['CONNECT', 'CREATE']);
  });
});

describe('levels, verbs and resources', () => {
  it('skips what is logged below level Request: the body is not there', () => {
    expect(skipOf(auditEvent({ level: 'Metadata', requestObject: undefined })).reason).toBe('level-below-request');
  });

  it('skips reads, even of resources the catalog does not know, and of pods/log', () => {
    expect(
      skipOf(auditEvent({ verb: 'list', requestURI: '/api/v1/namespaces/cap/pods', objectRef: { resource: 'pods', namespace: 'cap', apiVersion: 'v1' } }))
        .reason,
    ).toBe('read-only-verb');
    expect(
      skipOf(
        auditEvent({
          verb: 'watch',
          requestURI: '/apis/example.com/v1/gadgets?watch=true',
          objectRef: { resource: 'gadgets', apiGroup: 'example.com', apiVersion: 'v1' },
        }),
      ).reason,
    ).toBe('read-only-verb');
    expect(skipOf(auditEvent({ verb: 'get', requestURI: '/api/v1/namespaces/cap/pods/runner/log', objectRef: podRef({ subresource: 'log' }) })).reason).toBe(
      'read-only-verb',
    );
  });

  it('skips non-resource requests and verbs no handler admits', () => {
    expect(skipOf(auditEvent({ verb: 'get', requestURI: '/healthz', objectRef: undefined })).detail).toBe('get /healthz');
    expect(skipOf(auditEvent({ verb: 'proxy', requestURI: '/api/v1/proxy/namespaces/cap/pods/runner', objectRef: podRef() })).reason).toBe('verb-not-admitted');
  });

  it('skips resources and subresources the catalog does not serve, and operations they never admit', () => {
    expect(
      skipOf(
        auditEvent({
          requestURI: '/apis/capture.example.com/v2/namespaces/cap/widgets',
          objectRef: { resource: 'widgets', namespace: 'cap', apiGroup: 'capture.example.com', apiVersion: 'v2' },
          requestObject: {},
        }),
      ),
    ).toEqual({
      reason: 'resource-not-in-catalog',
      detail: 'no resource widgets.capture.example.com/v2 in the catalog (register its CustomResourceDefinition)',
    });
    expect(skipOf(auditEvent({ requestURI: '/api/v1/namespaces/cap/pods/runner/shell', objectRef: podRef({ subresource: 'shell' }) })).reason).toBe(
      'subresource-not-in-catalog',
    );
    expect(
      skipOf(
        auditEvent({
          verb: 'update',
          requestURI: '/api/v1/namespaces/cap/bindings/b1',
          objectRef: { resource: 'bindings', namespace: 'cap', name: 'b1', apiVersion: 'v1' },
          responseStatus: ok,
        }),
      ),
    ).toEqual({
      reason: 'operation-not-admitted',
      detail: 'bindings admits only CREATE, not UPDATE',
    });
  });

  it('converts a custom resource once its CRD is in the catalog', () => {
    const catalog = new ResourceCatalog();
    catalog.registerCustomResourceDefinition(widgetsCrd());
    const widget = { apiVersion: 'capture.example.com/v2', kind: 'Widget', metadata: { name: 'w1', namespace: 'cap' }, spec: { size: 2 } };
    const event = auditEvent({
      requestURI: '/apis/capture.example.com/v2/namespaces/cap/widgets',
      objectRef: { resource: 'widgets', namespace: 'cap', name: 'w1', apiGroup: 'capture.example.com', apiVersion: 'v2' },
      requestObject: widget,
    });
    const { reviews } = reviewsFromAudit([event], catalog);
    expect(reviews[0]!.request).toMatchObject({ kind: { group: 'capture.example.com', version: 'v2', kind: 'Widget' }, operation: 'CREATE', object: widget });
  });

  it('skips the kinds never sent to webhooks', () => {
    const event = auditEvent({
      requestURI: '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations',
      objectRef: { resource: 'validatingwebhookconfigurations', name: 'v', apiGroup: 'admissionregistration.k8s.io', apiVersion: 'v1' },
      requestObject: { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'v' } },
    });
    expect(skipOf(event)).toEqual({ reason: 'exempt-from-webhooks', detail: 'ValidatingWebhookConfiguration objects are never sent to admission webhooks' });
  });
});

describe('operations', () => {
  it('create and update from the request body; a PUT answered 201 created the object', () => {
    const put = (code: number) =>
      reviewsFromAudit([
        auditEvent({
          verb: 'update',
          requestURI: '/api/v1/namespaces/cap/configmaps/x1',
          objectRef: cmRef,
          requestObject: configMap,
          responseStatus: { metadata: {}, code },
        }),
      ]).reviews[0]!;
    expect(put(200).request).toMatchObject({ operation: 'UPDATE', options: { kind: 'UpdateOptions' }, oldObject: null });
    expect(put(201).request).toMatchObject({ operation: 'CREATE', options: { kind: 'CreateOptions' }, oldObject: null });
    expect(put(201).limits).toEqual([auditLimits.MANAGED_FIELDS_UNKNOWN]);
  });

  it('a status patch is an UPDATE of the subresource, with the stored result as object', () => {
    const pod = { kind: 'Pod', apiVersion: 'v1', metadata: { name: 'runner', namespace: 'cap' }, spec: { containers: [] }, status: { phase: 'Running' } };
    const event = auditEvent({
      level: 'RequestResponse',
      verb: 'patch',
      requestURI: '/api/v1/namespaces/cap/pods/runner/status',
      objectRef: podRef({ subresource: 'status' }),
      requestObject: { status: { phase: 'Running' } },
      responseObject: pod,
      responseStatus: ok,
    });
    const [converted] = reviewsFromAudit([event]).reviews;
    expect(converted!.request).toMatchObject({ operation: 'UPDATE', subResource: 'status', kind: { kind: 'Pod' }, object: pod });
    expect(converted!.source.objectFrom).toBe('responseObject');
  });

  it('skips a patch whose result the audit does not hold: level Request, a failure, or a Status as response', () => {
    const patch = (members: Partial<AuditEvent>) =>
      auditEvent({
        verb: 'patch',
        requestURI: '/api/v1/namespaces/cap/configmaps/x1',
        objectRef: cmRef,
        requestObject: { data: { k: 'w' } },
        responseStatus: ok,
        ...members,
      });
    expect(skipOf(patch({}))).toEqual({ reason: 'patch-without-result', detail: 'the audit logged the patch only (level Request)' });
    expect(
      skipOf(
        patch({ level: 'RequestResponse', responseStatus: { code: 422, reason: 'Invalid' }, responseObject: { kind: 'Status', apiVersion: 'v1', code: 422 } }),
      ).detail,
    ).toBe('the patch failed with 422');
    expect(skipOf(patch({ level: 'RequestResponse', responseObject: { kind: 'Status', apiVersion: 'v1', status: 'Success' } })).detail).toBe(
      'responseObject is not the patched object',
    );
  });

  it('skips a create or update without request body: it was refused before admission, or not logged', () => {
    expect(skipOf(auditEvent({ responseStatus: { code: 400, reason: 'BadRequest' } }))).toEqual({
      reason: 'no-request-object',
      detail: 'a create without requestObject (it failed with 400: its body was refused before admission)',
    });
  });

  it('skips a deletecollection without the deleted items', () => {
    const collection = (members: Partial<AuditEvent>) =>
      auditEvent({
        verb: 'deletecollection',
        requestURI: '/api/v1/namespaces/cap/configmaps',
        objectRef: { resource: 'configmaps', namespace: 'cap', apiVersion: 'v1' },
        responseStatus: ok,
        ...members,
      });
    expect(skipOf(collection({})).detail).toBe('responseObject (level RequestResponse) is where the deleted items are');
    expect(skipOf(collection({ level: 'RequestResponse', responseObject: { kind: 'ConfigMapList', apiVersion: 'v1', metadata: {}, items: [] } })).detail).toBe(
      'no item was deleted',
    );
  });

  it('takes dryRun from the query, in the options too', () => {
    const [converted] = reviewsFromAudit([
      auditEvent({
        verb: 'update',
        requestURI: '/api/v1/namespaces/cap/configmaps/x1?dryRun=All&fieldManager=kubectl-replace',
        objectRef: cmRef,
        requestObject: configMap,
        responseStatus: ok,
      }),
    ]).reviews;
    expect(converted!.request.dryRun).toBe(true);
    expect(converted!.request.options).toEqual({ kind: 'UpdateOptions', apiVersion: 'meta.k8s.io/v1', dryRun: ['All'], fieldManager: 'kubectl-replace' });
    expect(converted!.review.summary()).toBe('UPDATE configmaps cap/x1 (dryRun)');
  });

  it('skips a CONNECT with dryRun: it is refused with 400 before admission', () => {
    expect(
      skipOf(
        auditEvent({
          verb: 'create',
          requestURI: '/api/v1/namespaces/cap/pods/runner/exec?command=sh&dryRun=All',
          objectRef: podRef({ subresource: 'exec' }),
          responseStatus: { code: 400 },
        }),
      ).reason,
    ).toBe('connect-dry-run');
  });

  it("a namespace's requests carry its own name as namespace", () => {
    const namespace = { kind: 'Namespace', apiVersion: 'v1', metadata: { name: 'team-a' } };
    const [converted] = reviewsFromAudit([
      auditEvent({ requestURI: '/api/v1/namespaces', objectRef: { resource: 'namespaces', name: 'team-a', apiVersion: 'v1' }, requestObject: namespace }),
    ]).reviews;
    expect(converted!.request).toMatchObject({ name: 'team-a', namespace: 'team-a', object: namespace });
  });
});

describe('outcomes that tell a request never reached admission', () => {
  const update = (responseStatus: AuditEvent['responseStatus'], annotations?: Record<string, string>) =>
    auditEvent({ verb: 'update', requestURI: '/api/v1/namespaces/cap/configmaps/x1', objectRef: cmRef, requestObject: configMap, responseStatus, annotations });

  it("401, an authorizer's forbid, 405, and the 404 of an update, a delete or a create", () => {
    expect(skipOf(update({ code: 401, message: 'Unauthorized' }))).toEqual({ reason: 'unauthenticated', detail: '401: Unauthorized' });
    expect(skipOf(update({ code: 403, reason: 'Forbidden' }, { 'authorization.k8s.io/decision': 'forbid' })).reason).toBe('forbidden-by-authorization');
    expect(skipOf(update({ code: 404, message: 'configmaps "x1" not found' }))).toEqual({ reason: 'not-found', detail: '404: configmaps "x1" not found' });
    expect(skipOf(auditEvent({ requestObject: configMap, responseStatus: { code: 404, message: 'namespaces "cap" not found' } })).reason).toBe('not-found');
    const namespaces = auditEvent({
      verb: 'deletecollection',
      requestURI: '/api/v1/namespaces',
      objectRef: { resource: 'namespaces', apiVersion: 'v1' },
      responseStatus: { code: 405, reason: 'MethodNotAllowed' },
    });
    expect(skipOf(namespaces).reason).toBe('method-not-allowed');
  });

  it('keeps other failures, which may have come from admission itself, and says so', () => {
    const denied = { code: 403, reason: 'Forbidden', message: 'admission webhook "deny.example.com" denied the request: no' };
    const { reviews } = reviewsFromAudit([update(denied, { 'authorization.k8s.io/decision': 'allow' })]);
    expect(reviews[0]!.limits.at(-1)).toBe(auditLimits.requestFailed(403, 'Forbidden', denied.message));
    expect(reviews[0]!.limits.at(-1)).toBe(
      'the request failed with 403 (Forbidden: admission webhook "deny.example.com" denied the request: no): it may have ended before every webhook saw it',
    );
  });

  it('keeps a CONNECT answered 404 or 503: it is admitted before its target is looked up', () => {
    const connect = (code: number) =>
      auditEvent({
        verb: 'get',
        requestURI: '/api/v1/namespaces/cap/pods/gone/exec?command=sh',
        objectRef: podRef({ name: 'gone', subresource: 'exec' }),
        responseStatus: { code },
      });
    expect(reviewsFromAudit([connect(404), { ...connect(503), auditID: 'audit-2' }]).reviews.map((r) => r.request.operation)).toEqual(['CONNECT', 'CONNECT']);
  });
});
