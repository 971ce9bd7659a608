import { reviewsFromAudit, auditLimits, type AuditEvent } from '../../lib/audit';
import type { AdmissionRequest } from '../../lib/kube/admission';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { actionRequest, actionRequests, CAPTURES } from '../review/captures';
import { auditEvent, without } from './events';

/*
 * The captured client actions of fixtures/apiserver-captures, as kube-apiserver would have audited them
 * (written here from the client command: URI, verb, objectRef, user, and a request body as the decoder
 * left it), converted back: each must give the request the real apiserver sent, but for the uid and what
 * the audit cannot know.
 */

const only = (event: AuditEvent): AdmissionRequest => {
  const { reviews, skipped } = reviewsFromAudit([event]);
  expect(skipped).toEqual([]);
  expect(reviews).toHaveLength(1);
  return reviews[0]!.request;
};

/** The body a create's audit event holds: the admitted object before the write was recorded in managedFields. */
const bodyOf = (file: string, ...drop: string[]) => without(actionRequest(file).object, ['metadata.managedFields', ...drop]);

describe('CONNECT: the options object rebuilt from the requestURI is the one kube-apiserver sent', () => {
  const cases: [file: string, verb: string, requestURI: string, name: string, subresource: string, resource?: string][] = [
    ['pods-exec.json', 'get', '/api/v1/namespaces/cap/pods/runner/exec?command=ls&command=%2F&container=c&stderr=true&stdout=true', 'runner', 'exec'],
    [
      'pods-exec-curl-post.json',
      'create',
      '/api/v1/namespaces/cap/pods/runner/exec?command=ls&command=-l&container=c&stdout=true&stderr=true',
      'runner',
      'exec',
    ],
    ['pods-attach.json', 'get', '/api/v1/namespaces/cap/pods/runner/attach?container=c&stderr=true&stdout=true', 'runner', 'attach'],
    ['pods-portforward.json', 'get', '/api/v1/namespaces/cap/pods/runner/portforward', 'runner', 'portforward'],
    ['pods-proxy.json', 'get', '/api/v1/namespaces/cap/pods/runner:80/proxy/healthz?x=1', 'runner:80', 'proxy'],
    ['pods-proxy-post-curl.json', 'create', '/api/v1/namespaces/cap/pods/runner/proxy/submit', 'runner', 'proxy'],
    ['services-proxy.json', 'get', '/api/v1/namespaces/cap/services/proxied:http/proxy/some/path', 'proxied:http', 'proxy', 'services'],
    ['nodes-proxy.json', 'get', '/api/v1/nodes/capnode/proxy/healthz', 'capnode', 'proxy', 'nodes'],
  ];
  it.each(cases)('%s (verb %s)', (file, verb, requestURI, name, subresource, resource = 'pods') => {
    const objectRef = { resource, ...(resource === 'nodes' ? {} : { namespace: 'cap' }), name, apiVersion: 'v1', subresource };
    const request = only(auditEvent({ verb, requestURI, objectRef, responseStatus: { metadata: {}, code: 101 } }));
    expect(without(request, ['uid'])).toEqual(without(actionRequest(file), ['uid']));
  });

  it("reads a port-forward's ports, repeated or comma-separated, as the parameter codec does", () => {
    const objectRef = { resource: 'pods', namespace: 'cap', name: 'runner', apiVersion: 'v1', subresource: 'portforward' };
    const request = only(auditEvent({ verb: 'get', requestURI: '/api/v1/namespaces/cap/pods/runner/portforward?ports=8080,8443&ports=9000', objectRef }));
    expect(request.object).toEqual({ kind: 'PodPortForwardOptions', apiVersion: 'v1', ports: [8080, 8443, 9000] });
  });

  it('reads query booleans as the parameter codec does: only absent, "false" and "0" are false', () => {
    const objectRef = { resource: 'pods', namespace: 'cap', name: 'runner', apiVersion: 'v1', subresource: 'exec' };
    const request = only(
      auditEvent({ verb: 'create', requestURI: '/api/v1/namespaces/cap/pods/runner/exec?command=sh&stdin=&stdout=1&stderr=FALSE&tty=0', objectRef }),
    );
    expect(request.object).toEqual({ kind: 'PodExecOptions', apiVersion: 'v1', stdin: true, stdout: true, command: ['sh'] });
  });
});

describe('CREATE: the request body as the object, options from the query, the user admission saw', () => {
  const admin = { user: { username: 'admin', uid: 'admin-uid', groups: ['system:masters', 'system:authenticated'] } };
  const kubectl = '?fieldManager=kubectl-create&fieldValidation=Strict';
  const cases: [file: string, members: Partial<AuditEvent> & Record<string, unknown>][] = [
    ['configmaps-create.json', { requestURI: `/api/v1/namespaces/cap/configmaps${kubectl}`, requestObject: bodyOf('configmaps-create.json') }],
    [
      'configmaps-create-dryrun.json',
      {
        requestURI: `/api/v1/namespaces/cap/configmaps?dryRun=All&fieldManager=kubectl-create&fieldValidation=Strict`,
        requestObject: bodyOf('configmaps-create-dryrun.json'),
      },
    ],
    // curl sent no namespace in these bodies: the handler puts the request's in, after the audit logged it.
    [
      'configmaps-create-fieldmanager-validation.json',
      {
        requestURI: '/api/v1/namespaces/cap/configmaps?fieldManager=my-manager&fieldValidation=Strict&pretty=true',
        requestObject: bodyOf('configmaps-create-fieldmanager-validation.json', 'metadata.namespace'),
      },
    ],
    [
      'configmaps-create-generatename.json',
      { requestURI: '/api/v1/namespaces/cap/configmaps', requestObject: bodyOf('configmaps-create-generatename.json', 'metadata.namespace') },
    ],
    [
      'configmaps-create-client-timeout-3s.json',
      { requestURI: '/api/v1/namespaces/cap/configmaps?timeout=3s', requestObject: bodyOf('configmaps-create-client-timeout-3s.json', 'metadata.namespace') },
    ],
    [
      'configmaps-create-impersonated.json',
      {
        ...admin,
        impersonatedUser: { username: 'jane', uid: 'jane-uid-123', groups: ['devs', 'ops', 'system:authenticated'] },
        requestURI: `/api/v1/namespaces/cap/configmaps${kubectl}`,
        requestObject: bodyOf('configmaps-create-impersonated.json'),
      },
    ],
    [
      'configmaps-create-impersonated-extra.json',
      {
        ...admin,
        impersonatedUser: {
          username: 'jane',
          groups: ['devs', 'ops', 'system:authenticated'],
          extra: { scopes: ['view', 'edit'], 'acme.com/project': ['p1'] },
        },
        requestURI: '/api/v1/namespaces/cap/configmaps',
        requestObject: bodyOf('configmaps-create-impersonated-extra.json', 'metadata.namespace'),
      },
    ],
    [
      'configmaps-create-serviceaccount-user.json',
      {
        user: actionRequest('configmaps-create-serviceaccount-user.json').userInfo,
        requestURI: `/api/v1/namespaces/cap/configmaps${kubectl}`,
        requestObject: bodyOf('configmaps-create-serviceaccount-user.json'),
      },
    ],
    [
      'secrets-create.json',
      {
        requestURI: `/api/v1/namespaces/cap/secrets${kubectl}`,
        objectRef: { resource: 'secrets', namespace: 'cap', name: 'x1', apiVersion: 'v1' },
        requestObject: bodyOf('secrets-create.json'),
      },
    ],
    [
      'namespaces-create.json',
      {
        requestURI: `/api/v1/namespaces${kubectl}`,
        objectRef: { resource: 'namespaces', name: 'capns-x1', apiVersion: 'v1' },
        requestObject: bodyOf('namespaces-create.json'),
      },
    ],
    // Subresources created with a kind of their own.
    [
      'pods-eviction.json',
      {
        requestURI: '/api/v1/namespaces/cap/pods/evictme/eviction',
        objectRef: { resource: 'pods', namespace: 'cap', name: 'evictme', apiVersion: 'v1', subresource: 'eviction' },
        requestObject: bodyOf('pods-eviction.json'),
      },
    ],
    [
      'pods-binding.json',
      {
        requestURI: '/api/v1/namespaces/cap/pods/unbound/binding',
        objectRef: { resource: 'pods', namespace: 'cap', name: 'unbound', apiVersion: 'v1', subresource: 'binding' },
        requestObject: bodyOf('pods-binding.json'),
      },
    ],
    [
      'serviceaccounts-token.json',
      {
        requestURI: '/api/v1/namespaces/cap/serviceaccounts/capsa/token',
        objectRef: { resource: 'serviceaccounts', namespace: 'cap', name: 'capsa', apiVersion: 'v1', subresource: 'token' },
        requestObject: bodyOf('serviceaccounts-token.json', 'metadata.namespace'),
      },
    ],
  ];
  it.each(cases)('%s', (file, members) => {
    const captured = actionRequest(file);
    const objectRef = members.objectRef ?? { resource: 'configmaps', namespace: 'cap', ...(captured.name ? { name: captured.name } : {}), apiVersion: 'v1' };
    const request = only(auditEvent({ ...members, objectRef }));
    expect(without(request, ['uid'])).toEqual(without(captured, ['uid', 'object.metadata.managedFields']));
  });

  it('a server-side apply that created the object (patch answered 201) is a CREATE with CreateOptions', () => {
    const captured = actionRequest('configmaps-apply-create.json');
    const stored = {
      ...captured.object,
      metadata: {
        ...captured.object?.metadata,
        uid: 'b5e0c1a2-0000-4000-8000-000000000001',
        resourceVersion: '247',
        creationTimestamp: '2026-11-21T23:38:47Z',
      },
    };
    const request = only(
      auditEvent({
        level: 'RequestResponse',
        verb: 'patch',
        requestURI: '/api/v1/namespaces/cap/configmaps/x2?fieldManager=capture&fieldValidation=Strict&force=false',
        objectRef: { resource: 'configmaps', namespace: 'cap', name: 'x2', apiVersion: 'v1' },
        requestObject: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x2', namespace: 'cap', labels: { app: 'demo' } }, data: { k: 'v' } },
        responseObject: stored,
      }),
    );
    expect(without(request, ['uid', 'object'])).toEqual(without(captured, ['uid', 'object']));
    expect(request.object).toEqual(stored);
  });
});

describe('UPDATE: the PUT body as the object, UpdateOptions from the query', () => {
  const cases: [file: string, requestURI: string, objectRef: Record<string, string>][] = [
    [
      'configmaps-update.json',
      '/api/v1/namespaces/cap/configmaps/x1?fieldManager=kubectl-replace&fieldValidation=Strict',
      { resource: 'configmaps', namespace: 'cap', name: 'x1', apiVersion: 'v1' },
    ],
    [
      'pods-status-update.json',
      '/api/v1/namespaces/cap/pods/runner/status?fieldManager=kubectl-replace&fieldValidation=Strict',
      { resource: 'pods', namespace: 'cap', name: 'runner', apiVersion: 'v1', subresource: 'status' },
    ],
    ['namespaces-finalize.json', '/api/v1/namespaces/capfin/finalize', { resource: 'namespaces', name: 'capfin', apiVersion: 'v1', subresource: 'finalize' }],
  ];
  it.each(cases)('%s', (file, requestURI, objectRef) => {
    const captured = actionRequest(file);
    // The client sent the managedFields it had read; the apiserver adds the write's entry after the audit logged the body.
    const requestObject = {
      ...captured.object,
      metadata: { ...captured.object?.metadata, managedFields: (captured.object?.metadata?.managedFields as unknown[]).slice(0, -1) },
    };
    const request = only(auditEvent({ verb: 'update', requestURI, objectRef, requestObject, responseStatus: { metadata: {}, code: 200 } }));
    expect(without(request, ['uid', 'oldObject', 'object.metadata.managedFields'])).toEqual(
      without(captured, ['uid', 'oldObject', 'object.metadata.managedFields']),
    );
  });

  // Known divergence: the stored object kube-apiserver sends as oldObject is never in an audit event.
  it.failing('an UPDATE carries the stored object as oldObject', () => {
    const captured = actionRequest('configmaps-update.json');
    const request = only(
      auditEvent({
        verb: 'update',
        requestURI: '/api/v1/namespaces/cap/configmaps/x1',
        objectRef: cases[0]![2],
        requestObject: captured.object,
        responseStatus: { metadata: {}, code: 200 },
      }),
    );
    expect(request.oldObject).toEqual(captured.oldObject);
  });
});

describe('DELETE: DeleteOptions from the body the audit logged, or from the query', () => {
  const ref = (name: string) => ({ resource: 'configmaps', namespace: 'cap', name, apiVersion: 'v1' });
  const cases: [file: string, members: Partial<AuditEvent> & Record<string, unknown>][] = [
    [
      'configmaps-delete.json',
      {
        requestURI: '/api/v1/namespaces/cap/configmaps/x1',
        requestObject: { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', propagationPolicy: 'Background' },
      },
    ],
    [
      'configmaps-delete-dryrun.json',
      {
        requestURI: '/api/v1/namespaces/cap/configmaps/dry1',
        requestObject: { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', propagationPolicy: 'Background', dryRun: ['All'] },
      },
    ],
    // Members in another order than Go's: the options come out in DeleteOptions' field order.
    [
      'configmaps-delete-curl-body-options.json',
      {
        requestURI: '/api/v1/namespaces/cap/configmaps/delbody',
        requestObject: { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Foreground', preconditions: {}, gracePeriodSeconds: 5 },
      },
    ],
    ['configmaps-delete-curl-query-options.json', { requestURI: '/api/v1/namespaces/cap/configmaps/delq?gracePeriodSeconds=0&propagationPolicy=Orphan' }],
  ];
  it.each(cases)('%s', (file, members) => {
    const captured = actionRequest(file);
    const { reviews } = reviewsFromAudit([
      auditEvent({ verb: 'delete', responseStatus: { metadata: {}, code: 200 }, objectRef: ref(captured.name ?? ''), ...members }),
    ]);
    expect(without(reviews[0]!.request, ['uid', 'oldObject'])).toEqual(without(captured, ['uid', 'oldObject']));
    expect(reviews[0]!.request.oldObject).toBeNull();
    expect(reviews[0]!.limits).toEqual([auditLimits.OLD_OBJECT_UNKNOWN]);
  });

  it('a deletecollection at RequestResponse is one DELETE per deleted item, without a name, the item as oldObject', () => {
    const file = 'configmaps-deletecollection.json';
    // What the apiserver answered the deletecollection: the list of the deleted items.
    const { clientResult } = JSON.parse(readFileSync(path.join(CAPTURES, file), 'utf8')) as { clientResult: { stdout: string } };
    const deleted = JSON.parse(clientResult.stdout) as unknown;
    const { reviews } = reviewsFromAudit([
      auditEvent({
        level: 'RequestResponse',
        verb: 'deletecollection',
        requestURI: '/api/v1/namespaces/cap/configmaps?labelSelector=dc%3Dyes',
        objectRef: { resource: 'configmaps', namespace: 'cap', apiVersion: 'v1' },
        responseStatus: { metadata: {}, code: 200 },
        responseObject: deleted,
      }),
    ]);
    expect(reviews.map((r) => without(r.request, ['uid']))).toEqual(actionRequests(file).map((r) => without(r, ['uid'])));
    expect(reviews.map((r) => r.source.oldObjectFrom)).toEqual(['responseObject.items[0]', 'responseObject.items[1]']);
    expect(reviews[0]!.limits).toEqual([auditLimits.COLLECTION_ITEM_AFTER_DELETE]);
    expect(new Set(reviews.map((r) => r.request.uid)).size).toBe(2);
  });

  const podDelete = () =>
    reviewsFromAudit([
      auditEvent({
        verb: 'delete',
        requestURI: '/api/v1/namespaces/cap/pods/graceful',
        objectRef: { resource: 'pods', namespace: 'cap', name: 'graceful', apiVersion: 'v1' },
        responseStatus: { metadata: {}, code: 200 },
        requestObject: { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', gracePeriodSeconds: 17, propagationPolicy: 'Background' },
      }),
    ]).reviews[0]!;

  it('a pod delete says what the pod registry adds', () => {
    expect(podDelete().limits).toEqual([auditLimits.OLD_OBJECT_UNKNOWN, auditLimits.POD_DELETE_OPTIONS_UNKNOWN]);
    expect(without(podDelete().request, ['uid', 'oldObject'])).toEqual(without(actionRequest('pods-delete-grace-period.json'), ['uid', 'oldObject']));
  });

  // Known divergence: kubectl's pod delete sent no grace period; the registry set 0 before admission (pods-delete.json).
  it.failing('a pod delete carries the grace period the registry set', () => {
    const request = only(
      auditEvent({
        verb: 'delete',
        requestURI: '/api/v1/namespaces/cap/pods/x1',
        objectRef: { resource: 'pods', namespace: 'cap', name: 'x1', apiVersion: 'v1' },
        responseStatus: { metadata: {}, code: 200 },
        requestObject: { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', propagationPolicy: 'Background' },
      }),
    );
    expect(request.options).toEqual(actionRequest('pods-delete.json').options);
  });
});
