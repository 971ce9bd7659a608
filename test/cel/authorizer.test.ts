import type { AuthorizationAttributes, Authorizer } from '../../lib/authz/authorizer';
import { loadCel } from '../../lib/cel';
import { createPod, errorOf, evaluateOne, pod, podRequest } from './helpers';

beforeAll(loadCel);

/** An authorizer that records what it was asked and answers from a table of `verb resource` keys. */
function recording(answers: Record<string, ReturnType<Authorizer>> = {}) {
  const asked: AuthorizationAttributes[] = [];
  const authorizer: Authorizer = (attributes) => {
    asked.push(attributes);
    return answers[`${attributes.verb} ${attributes.resource || attributes.path}`] ?? { decision: 'noOpinion' };
  };
  return { asked, authorizer };
}

const admin = { username: 'system:admin', uid: 'u-1', groups: ['system:masters', 'system:authenticated'] };
const none = { group: '', resource: '', subresource: '', namespace: '', name: '', path: '' };

describe('the authorizer library (k8s.io/apiserver/pkg/cel/library/authz.go; the `authorizer` variable of k8s.io/apiserver/pkg/admission/plugin/webhook/accessors.go)', () => {
  it('allows everything when the harness user gives no authorizer', () => {
    expect(evaluateOne("authorizer.group('').resource('pods').check('create').allowed()")).toMatchObject({ matches: true });
  });

  it('a resource check asks for group, resource, subresource, namespace, name and verb, as the requesting user', () => {
    const { asked, authorizer } = recording({ 'update deployments': { decision: 'allow' } });
    const expression = "authorizer.group('apps').resource('deployments').subresource('scale').namespace('prod').name('web').check('update').allowed()";
    expect(evaluateOne(expression, { ...createPod(), authorizer })).toMatchObject({ matches: true });
    expect(asked).toEqual([
      { user: admin, verb: 'update', group: 'apps', resource: 'deployments', subresource: 'scale', namespace: 'prod', name: 'web', path: '' },
    ]);
  });

  it('a path check asks for the path and the HTTP verb only', () => {
    const { asked, authorizer } = recording({ 'get /healthz': { decision: 'allow' } });
    expect(evaluateOne("authorizer.path('/healthz').check('get').allowed()", { ...createPod(), authorizer })).toMatchObject({ matches: true });
    expect(asked).toEqual([{ ...none, user: admin, verb: 'get', path: '/healthz' }]);
  });

  it.each([
    ['allow', { decision: 'allow', reason: 'RBAC: allowed by ClusterRoleBinding "admin"' }, 'true', 'RBAC: allowed by ClusterRoleBinding "admin"'],
    ['deny', { decision: 'deny', reason: 'denied by policy' }, 'false', 'denied by policy'],
    // "no opinion" is not allowed (authz.go: allowed() is decision == DecisionAllow).
    ['noOpinion', { decision: 'noOpinion' }, 'false', ''],
  ] as const)('a %s decision: allowed() is %s, reason() is the reason', (_label, answer, allowed, reason) => {
    const { authorizer } = recording({ 'create pods': answer });
    const expression = `authorizer.group('').resource('pods').check('create').allowed() == ${allowed} && authorizer.group('').resource('pods').check('create').reason() == ${JSON.stringify(reason)}`;
    expect(evaluateOne(expression, { ...createPod(), authorizer })).toMatchObject({ matches: true });
  });

  it('an authorizer that fails makes the decision errored(), with the error() text, and not allowed', () => {
    const authorizer: Authorizer = () => {
      throw new Error('webhook authorizer unreachable');
    };
    // One check, bound by optMap (kube has no cel.bind): each check() costs 350 000 (library/cost.go), so a
    // third would pass the per-call limit.
    const expression =
      "optional.of(authorizer.path('/metrics').check('get')).optMap(d, d.errored() && d.error() == 'webhook authorizer unreachable' && !d.allowed()).value()";
    expect(evaluateOne(expression, { ...createPod(), authorizer })).toMatchObject({ matches: true });
  });

  it('check() costs 350 000 (library/cost.go): two in one expression run, a third is cancelled at the per-call limit', () => {
    const { authorizer } = recording({ 'get /metrics': { decision: 'allow' } });
    const two = "authorizer.path('/metrics').check('get').allowed() || authorizer.path('/metrics').check('get').allowed()";
    expect(evaluateOne(two, { ...createPod(), authorizer })).toMatchObject({ matches: true });
    const three = "[1, 2, 3].all(i, authorizer.path('/metrics').check('get').errored() || true)";
    expect(errorOf(three, { ...createPod(), authorizer })).toBe('operation cancelled: actual cost limit exceeded');
  });

  it('a decision that did not error has errored() false and error() empty', () => {
    expect(evaluateOne("!authorizer.path('/metrics').check('get').errored() && authorizer.path('/metrics').check('get').error() == ''")).toMatchObject({
      matches: true,
    });
  });

  it('authorizer.requestResource describes the request being admitted', () => {
    const { asked, authorizer } = recording();
    const object = pod('web-1', 'prod');
    const request = podRequest('UPDATE', object, object, { subResource: 'status', requestSubResource: 'status' });
    evaluateOne("!authorizer.requestResource.check('patch').allowed()", { object, oldObject: object, request, authorizer });
    expect(asked).toEqual([{ user: admin, verb: 'patch', group: '', resource: 'pods', subresource: 'status', namespace: 'prod', name: 'web-1', path: '' }]);
  });

  it('serviceAccount(namespace, name) checks as that service account', () => {
    const { asked, authorizer } = recording();
    evaluateOne("!authorizer.serviceAccount('ci', 'builder').group('').resource('secrets').namespace('ci').check('get').allowed()", {
      ...createPod(),
      authorizer,
    });
    expect(asked[0]?.user).toEqual({ username: 'system:serviceaccount:ci:builder', groups: ['system:serviceaccounts', 'system:serviceaccounts:ci'] });
  });

  it('fieldSelector and labelSelector (the authz selectors library) reach the authorizer with the check; empty ones do not', () => {
    const { asked, authorizer } = recording({ 'list pods': { decision: 'allow' } });
    const expression =
      "authorizer.group('').resource('pods').fieldSelector('spec.nodeName=node-1').labelSelector('app=web,tier in (a,b)').check('list').allowed() && " +
      "authorizer.group('').resource('pods').fieldSelector('').labelSelector('').check('list').allowed()";
    expect(evaluateOne(expression, { ...createPod(), authorizer })).toMatchObject({ matches: true });
    expect(asked).toEqual([
      { ...none, user: admin, verb: 'list', resource: 'pods', fieldSelector: 'spec.nodeName=node-1', labelSelector: 'app=web,tier in (a,b)' },
      { ...none, user: admin, verb: 'list', resource: 'pods' },
    ]);
  });

  it('a selector builds a new check: the one it was called on is unchanged', () => {
    const { asked, authorizer } = recording();
    evaluateOne("[authorizer.group('').resource('pods')].all(c, !c.labelSelector('a=b').check('list').allowed() && !c.check('list').allowed())", {
      ...createPod(),
      authorizer,
    });
    expect(asked.map((attributes) => attributes.labelSelector)).toEqual(['a=b', undefined]);
  });

  it.each([
    ["authorizer.path('  ').check('get').allowed()", 'path must not be empty'],
    ["authorizer.group('apps').resource('').check('get').allowed()", 'resource must not be empty'],
    // The name is validated (as a DNS subdomain) before the namespace (as a DNS label).
    ["authorizer.serviceAccount('ci', 'Invalid@Name').path('/x').check('get').allowed()", 'Invalid service account name'],
    ["authorizer.serviceAccount('ci.example', 'builder').path('/x').check('get').allowed()", 'Invalid service account namespace'],
  ])('%s → %s', (expression, error) => {
    expect(errorOf(expression)).toBe(error);
  });
});
