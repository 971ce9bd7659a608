import type { AuthorizationAttributes } from '../../lib/authz/authorizer';
import { startMockApi, type MockApi } from '../../lib/mockapi';
import { call, objectOf } from './client';

let api: MockApi;
const asked: AuthorizationAttributes[] = [];
beforeAll(async () => {
  api = await startMockApi({
    seed: 10,
    namespaces: [{ name: 'team-a' }],
    authorizer: (attributes) => {
      asked.push(attributes);
      if (attributes.resource === 'secrets') return { decision: 'deny', reason: 'secrets are off limits' };
      if (attributes.path === '/metrics') return { decision: 'allow' };
      return attributes.verb === 'get' || attributes.verb === 'create' ? { decision: 'allow' } : { decision: 'noOpinion' };
    },
  });
});
afterEach(() => (asked.length = 0));
afterAll(() => api.close());

describe('SubjectAccessReview', () => {
  it('answers for spec.user with the authorizer decision, echoing the request', async () => {
    const body = {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      spec: { user: 'jane', groups: ['devs'], resourceAttributes: { namespace: 'team-a', verb: 'get', resource: 'secrets', name: 's' } },
    };
    const reply = await call(api, 'POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', body);
    expect(reply.status).toBe(201);
    expect(reply.body).toEqual({ ...body, metadata: {}, status: { allowed: false, denied: true, reason: 'secrets are off limits' } });
    // The first question is whether the caller may create the review at all.
    expect(asked).toEqual([
      expect.objectContaining({ verb: 'create', group: 'authorization.k8s.io', resource: 'subjectaccessreviews' }),
      { user: { username: 'jane', groups: ['devs'] }, verb: 'get', group: '', resource: 'secrets', subresource: '', namespace: 'team-a', name: 's', path: '' },
    ]);
  });

  it('asks about non-resource paths', async () => {
    const reply = await call(api, 'POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
      spec: { user: 'prom', nonResourceAttributes: { path: '/metrics', verb: 'get' } },
    });
    expect(objectOf(reply).status).toEqual({ allowed: true });
  });

  it('answers SelfSubjectAccessReview about the caller, the kubeconfig user', async () => {
    const reply = await call(api, 'POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
      spec: { resourceAttributes: { verb: 'list', resource: 'pods' } },
    });
    expect(objectOf(reply)).toMatchObject({ kind: 'SelfSubjectAccessReview', apiVersion: 'authorization.k8s.io/v1', status: { allowed: false } });
    expect(asked.at(-1)?.user.username).toBe('system:serviceaccount:default:webhook');
  });

  it('answers LocalSubjectAccessReview in the namespace of its path', async () => {
    await call(api, 'POST', '/apis/authorization.k8s.io/v1/namespaces/team-a/localsubjectaccessreviews', {
      spec: { user: 'jane', resourceAttributes: { verb: 'get', resource: 'pods' } },
    });
    expect(asked.at(-1)).toMatchObject({ namespace: 'team-a', user: { username: 'jane' } });
  });

  it('reports an authorizer that throws as an evaluation error', async () => {
    const previous = api.authorizer;
    api.authorizer = (attributes) => {
      if (attributes.resource === 'subjectaccessreviews') return { decision: 'allow' };
      throw new Error('webhook authorizer unreachable');
    };
    const reply = await call(api, 'POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
      spec: { user: 'x', resourceAttributes: { verb: 'get', resource: 'pods' } },
    });
    api.authorizer = previous;
    expect(objectOf(reply)).toMatchObject({ kind: 'SubjectAccessReview', status: { allowed: false, evaluationError: 'webhook authorizer unreachable' } });
  });
});

describe('the webhook own requests', () => {
  it('are authorized as the kubeconfig user, with the RBAC forbidden text', async () => {
    expect((await call(api, 'GET', '/api/v1/namespaces/team-a/secrets/s')).body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'secrets "s" is forbidden: User "system:serviceaccount:default:webhook" cannot get resource "secrets" in API group "" in the namespace "team-a": secrets are off limits',
      reason: 'Forbidden',
      details: { name: 's', kind: 'secrets' },
      code: 403,
    });
    expect(objectOf(await call(api, 'GET', '/apis/apps/v1/deployments')).message).toBe(
      'deployments.apps is forbidden: User "system:serviceaccount:default:webhook" cannot list resource "deployments" in API group "apps" at the cluster scope',
    );
  });

  it('answers SelfSubjectReview with the caller', async () => {
    const reply = await call(api, 'POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'SelfSubjectReview',
    });
    expect(objectOf(reply).status).toEqual({
      userInfo: {
        username: 'system:serviceaccount:default:webhook',
        groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'],
      },
    });
  });
});
