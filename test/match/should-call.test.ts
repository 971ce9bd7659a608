import type { GroupVersionResource } from '../../lib/kube/admission';
import type { MutatingWebhook } from '../../lib/kube/webhook-config';
import { shouldCallHook, type EquivalentResourceMapper, type MatchContext } from '../../lib/match/should-call';
import type { MatchAttributes } from '../../lib/match/request';

const deployments = (group: string, version: string): GroupVersionResource => ({ group, version, resource: 'deployments' });

// The equivalents of the test table in k8s.io/apiserver/pkg/admission/plugin/webhook/generic/webhook_test.go.
const mapper: EquivalentResourceMapper = {
  equivalentResources: () => [deployments('extensions', 'v1beta1'), deployments('apps', 'v1'), deployments('apps', 'v1beta1'), deployments('apps', 'v1alpha1')],
  kindFor: (gvr, sub) =>
    sub === 'scale'
      ? {
          group: gvr.group === 'apps' && gvr.version === 'v1' ? 'autoscaling' : gvr.group,
          version: gvr.group === 'apps' && gvr.version === 'v1' ? 'v1' : gvr.version,
          kind: 'Scale',
        }
      : { group: gvr.group, version: gvr.version, kind: 'Deployment' },
};

const context = (labels: Record<string, Record<string, string>> = { prod: { env: 'prod' } }): MatchContext => ({
  namespaces: { labels: (name) => labels[name] },
  resources: mapper,
});

function webhook(overrides: Partial<MutatingWebhook> = {}): MutatingWebhook {
  return {
    name: 'w.example.com',
    clientConfig: { url: 'https://w' },
    rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'], scope: '*' }],
    matchPolicy: 'Equivalent',
    namespaceSelector: {},
    objectSelector: {},
    ...overrides,
  };
}

const deploymentCreate = (overrides: Partial<MatchAttributes> = {}): MatchAttributes => ({
  operation: 'CREATE',
  kind: { group: 'apps', version: 'v1', kind: 'Deployment' },
  resource: deployments('apps', 'v1'),
  subResource: '',
  name: 'web',
  namespace: 'prod',
  object: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', labels: { app: 'web' } } },
  oldObject: null,
  ...overrides,
});

const rule = (group: string, version: string, resource = 'deployments') => ({
  operations: ['*'],
  apiGroups: [group],
  apiVersions: [version],
  resources: [resource],
});

describe('matchPolicy (k8s.io/apiserver/pkg/admission/plugin/webhook/generic/webhook.go)', () => {
  it.each([
    [
      'rules [ext/v1beta1, apps/v1beta1], Equivalent',
      [rule('extensions', 'v1beta1'), rule('apps', 'v1beta1')],
      'Equivalent',
      { group: 'extensions', version: 'v1beta1', kind: 'Deployment' },
    ],
    [
      'rules [apps/v1beta1, ext/v1beta1], Equivalent',
      [rule('apps', 'v1beta1'), rule('extensions', 'v1beta1')],
      'Equivalent',
      { group: 'apps', version: 'v1beta1', kind: 'Deployment' },
    ],
    ['rules including apps/v1', [rule('apps', 'v1beta1'), rule('apps', 'v1')], 'Equivalent', { group: 'apps', version: 'v1', kind: 'Deployment' }],
  ] as const)('%s → called as %j', (_label, rules, matchPolicy, kind) => {
    const decision = shouldCallHook(webhook({ rules: [...rules], matchPolicy }), deploymentCreate(), context());
    expect(decision.call).toBe(true);
    if (!decision.call) return;
    expect(decision.invocation.kind).toEqual(kind);
    expect(decision.invocation.object?.apiVersion).toBe(`${kind.group}/${kind.version}`);
  });

  it('Exact: not called', () => {
    const decision = shouldCallHook(webhook({ rules: [rule('extensions', 'v1beta1')], matchPolicy: 'Exact' }), deploymentCreate(), context());
    expect(decision).toEqual({
      call: false,
      why: expect.arrayContaining([expect.stringMatching(/no rule matched CREATE apps\/v1 deployments \(matchPolicy Exact\)/)]),
    });
  });

  it('the scale subresource is sent as the equivalent Scale kind', () => {
    const decision = shouldCallHook(
      webhook({ rules: [rule('extensions', 'v1beta1', 'deployments/scale')] }),
      deploymentCreate({ operation: 'UPDATE', subResource: 'scale', kind: { group: 'autoscaling', version: 'v1', kind: 'Scale' } }),
      context(),
    );
    expect(decision.call && decision.invocation).toMatchObject({
      kind: { group: 'extensions', version: 'v1beta1', kind: 'Scale' },
      resource: deployments('extensions', 'v1beta1'),
      subResource: 'scale',
    });
  });

  it('an equivalent with no known kind is a 500', () => {
    const decision = shouldCallHook(webhook({ rules: [rule('extensions', 'v1beta1')] }), deploymentCreate(), {
      ...context(),
      resources: { ...mapper, kindFor: () => undefined },
    });
    expect(decision.call).toBe(false);
    expect(!decision.call && decision.error).toMatchObject({
      code: 500,
      message: 'Internal error occurred: unable to convert to extensions/v1beta1, Resource=deployments: unknown kind',
    });
  });
});

describe('selectors and their order (k8s.io/apiserver/pkg/admission/plugin/webhook/predicates/namespace/matcher.go, predicates/object/matcher.go)', () => {
  it('skips on the namespaceSelector before looking at rules', () => {
    const decision = shouldCallHook(webhook({ namespaceSelector: { matchLabels: { env: 'dev' } } }), deploymentCreate(), context());
    expect(decision).toEqual({ call: false, why: ['namespaceSelector {env=dev} did not match namespace "prod" (labels {"env":"prod"})'] });
  });

  it('a missing namespace is a 404, but only when the rules match', () => {
    const selective = webhook({ namespaceSelector: { matchLabels: { env: 'prod' } } });
    const decision = shouldCallHook(selective, deploymentCreate({ namespace: 'gone' }), context());
    expect(!decision.call && decision.error).toMatchObject({ code: 404, reason: 'NotFound', message: 'namespaces "gone" not found' });
    const unmatched = shouldCallHook(
      { ...selective, rules: [rule('batch', 'v1', 'jobs')], matchPolicy: 'Exact' },
      deploymentCreate({ namespace: 'gone' }),
      context(),
    );
    expect(unmatched).toEqual({ call: false, why: expect.any(Array) });
  });

  it('an empty namespaceSelector needs no namespace lookup', () => {
    expect(shouldCallHook(webhook(), deploymentCreate({ namespace: 'gone' }), context()).call).toBe(true);
  });

  it('cluster-scoped requests ignore the namespaceSelector', () => {
    const node = deploymentCreate({
      namespace: '',
      resource: { group: '', version: 'v1', resource: 'nodes' },
      kind: { group: '', version: 'v1', kind: 'Node' },
    });
    expect(shouldCallHook(webhook({ namespaceSelector: { matchLabels: { env: 'dev' } } }), node, context()).call).toBe(true);
  });

  it("a namespace's own CREATE uses the labels of the object in the request", () => {
    const namespaceCreate = deploymentCreate({
      kind: { group: '', version: 'v1', kind: 'Namespace' },
      resource: { group: '', version: 'v1', resource: 'namespaces' },
      name: 'fresh',
      namespace: 'fresh',
      object: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'fresh', labels: { env: 'dev' } } },
    });
    expect(shouldCallHook(webhook({ namespaceSelector: { matchLabels: { env: 'dev' } } }), namespaceCreate, context()).call).toBe(true);
  });

  it('objectSelector matches the object or the old object', () => {
    const selector = webhook({ objectSelector: { matchLabels: { app: 'api' } } });
    expect(shouldCallHook(selector, deploymentCreate(), context())).toEqual({
      call: false,
      why: [expect.any(String), 'objectSelector {app=api} matched neither object nor oldObject'],
    });
    const update = deploymentCreate({ operation: 'UPDATE', oldObject: { metadata: { labels: { app: 'api' } } } });
    expect(shouldCallHook(selector, update, context()).call).toBe(true);
  });

  it('objects without metadata never match a non-empty objectSelector', () => {
    const connect = deploymentCreate({ operation: 'CONNECT', object: { apiVersion: 'v1', kind: 'NodeProxyOptions', path: '/' } });
    expect(shouldCallHook(webhook({ objectSelector: { matchExpressions: [{ key: 'x', operator: 'DoesNotExist' }] } }), connect, context()).call).toBe(false);
    expect(shouldCallHook(webhook({ objectSelector: {} }), connect, context()).call).toBe(true);
  });

  it('an invalid selector is a 500 when the rules match', () => {
    const decision = shouldCallHook(webhook({ objectSelector: { matchExpressions: [{ key: 'a', operator: 'Bad' }] } }), deploymentCreate(), context());
    expect(!decision.call && decision.error).toMatchObject({ code: 500, message: expect.stringContaining('"Bad" is not a valid label selector operator') });
  });
});
