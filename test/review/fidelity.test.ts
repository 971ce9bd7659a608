import type { AdmissionRequest, KubeObject } from '../../lib/kube/admission';
import { ResourceCatalog } from '../../lib/kube/catalog';
import { encodeReview, objects, review, users, type Review } from '../../lib/review';
import { actionRequest, actionRequests, captureFiles, widgetsCrd } from './captures';

/*
 * For every recorded client action, the builder for that action must produce a request of the same
 * shape as kube-apiserver v1.36.2 sent: members and their order, kinds and resources, operation,
 * name, namespace, options (kind and members), which objects are null and their kinds, dryRun.
 */

const catalog = new ResourceCatalog();
catalog.registerCustomResourceDefinition(widgetsCrd());

const nameOf = (file: string) => actionRequest(file).name ?? '';
const at = (file: string) => ({ name: nameOf(file), namespace: 'cap' });
const seed = { seed: 7 };

// The objects of each resource, given the name the capture has.
const named: Record<string, (name: string) => KubeObject> = {
  pods: (name) => objects.pod({ name, namespace: 'cap' }, seed),
  configmaps: (name) => objects.configMap({ name, namespace: 'cap' }, seed),
  secrets: (name) => objects.secret({ name, namespace: 'cap' }, seed),
  services: (name) => objects.service({ name, namespace: 'cap' }, seed),
  deployments: (name) => objects.deployment({ name, namespace: 'cap' }, seed),
  namespaces: (name) => objects.namespace({ name }, seed),
  widgets: (name) => objects.custom(widgetsCrd(), { name, namespace: 'cap' }, { ...seed, version: 'v2' }),
};
const make: Record<string, (file: string) => KubeObject> = Object.fromEntries(
  Object.entries(named).map(([resource, build]) => [resource, (file: string) => build(nameOf(file))]),
);
const stored = (resource: string, file: string) => objects.stored(make[resource]!(file), seed);

const LABEL_PATCH = { metadata: { labels: { patched: 'yes' } } };
const JSON_PATCH = [{ op: 'add', path: '/metadata/labels/patched-json', value: 'yes' }];

/** The names of the items a deletecollection deleted. */
function itemsOf(file: string): string[] {
  return [...new Set(actionRequests(file).map((r) => r.oldObject?.metadata?.name ?? ''))];
}

/** The builder call that reproduces each recorded action (per resource for the six resources recorded alike). */
function generic(file: string): Review | Review[] | undefined {
  const match = /^(pods|configmaps|secrets|services|deployments|namespaces)-(.+)\.json$/.exec(file);
  if (!match) return undefined;
  const [, resource = '', action] = match;
  switch (action) {
    case 'create':
      return review.create(make[resource]!(file));
    case 'apply-create':
      return review.apply(make[resource]!(file), { fieldManager: 'capture' });
    case 'update':
      return review.update(stored(resource, file), make[resource]!(file));
    case 'patch-merge':
      return review.patch(stored(resource, file), LABEL_PATCH, { type: 'merge' });
    case 'patch-strategic':
      return review.patch(stored(resource, file), LABEL_PATCH, { type: 'strategic' });
    case 'patch-json':
      return review.patch(stored(resource, file), JSON_PATCH, { type: 'json' });
    case 'patch-apply':
      return review.apply(make[resource]!(file), { fieldManager: 'capture', existing: stored(resource, file) });
    case 'delete':
      return review.delete(stored(resource, file));
    case 'deletecollection':
      return review.deleteCollection(itemsOf(file).map((name) => objects.stored(named[resource]!(name), seed)));
    default:
      return undefined;
  }
}

const node = objects.fromYaml({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'capnode' } });
const runner = () => objects.pod({ name: 'runner', namespace: 'cap', images: ['nginx:1.27'], spec: { nodeName: 'capnode' } }, { ...seed, stored: true });
const configMap = (file: string) => make.configmaps!(file);
const storedConfigMap = (file: string) => stored('configmaps', file);

const SPECIFIC: Record<string, () => Review | Review[]> = {
  'configmaps-create-dryrun.json': () => review.create(configMap('configmaps-create-dryrun.json'), { dryRun: true }),
  'configmaps-create-client-timeout-3s.json': () => review.create(configMap('configmaps-create-client-timeout-3s.json'), { via: 'api' }),
  'configmaps-create-kubectl-request-timeout.json': () => review.create(configMap('configmaps-create-kubectl-request-timeout.json')),
  'configmaps-create-fieldmanager-validation.json': () =>
    review.create(configMap('configmaps-create-fieldmanager-validation.json'), {
      via: 'api',
      options: { fieldManager: 'my-manager', fieldValidation: 'Strict' },
    }),
  'configmaps-create-generatename.json': () =>
    review.create(objects.configMap({ namespace: 'cap', metadata: { name: null, generateName: 'gen-' } }, seed), { via: 'api' }),
  'configmaps-create-impersonated.json': () =>
    review.create(configMap('configmaps-create-impersonated.json')).as(users.impersonated({ username: 'jane', uid: 'jane-uid-123', groups: ['devs', 'ops'] })),
  'configmaps-create-impersonated-extra.json': () =>
    review
      .create(configMap('configmaps-create-impersonated-extra.json'), { via: 'api' })
      .as(users.impersonated({ username: 'jane', groups: ['devs', 'ops'], extra: { Scopes: ['view', 'edit'], 'Acme.com/project': ['p1'] } })),
  'configmaps-create-serviceaccount-user.json': () =>
    review.create(configMap('configmaps-create-serviceaccount-user.json'), { userInfo: users.serviceAccount('cap', 'capsa') }),
  'configmaps-update-dryrun.json': () =>
    review.update(storedConfigMap('configmaps-update-dryrun.json'), configMap('configmaps-update-dryrun.json'), { dryRun: true }),
  'configmaps-patch-dryrun.json': () =>
    review.patch(storedConfigMap('configmaps-patch-dryrun.json'), { data: { a: 'patched' } }, { type: 'merge', dryRun: true }),
  'configmaps-delete-dryrun.json': () => review.delete(storedConfigMap('configmaps-delete-dryrun.json')).dryRun(),
  'configmaps-delete-curl-body-options.json': () =>
    review.delete(storedConfigMap('configmaps-delete-curl-body-options.json'), {
      via: 'api',
      options: { gracePeriodSeconds: 5, preconditions: {}, propagationPolicy: 'Foreground' },
    }),
  'configmaps-delete-curl-query-options.json': () =>
    review.delete(storedConfigMap('configmaps-delete-curl-query-options.json'), { via: 'api', gracePeriodSeconds: 0, propagationPolicy: 'Orphan' }),
  'deployments-delete-propagation-foreground.json': () =>
    review.delete(stored('deployments', 'deployments-delete-propagation-foreground.json'), { propagationPolicy: 'Foreground' }),
  'deployments-delete-propagation-orphan.json': () =>
    review.delete(stored('deployments', 'deployments-delete-propagation-orphan.json'), { propagationPolicy: 'Orphan' }),
  'deployments-status-patch.json': () => review.status(stored('deployments', 'deployments-status-patch.json'), { observedGeneration: 1, replicas: 1 }),
  'deployments-scale-kubectl.json': () => review.scale(stored('deployments', 'deployments-scale-kubectl.json'), 3),
  'deployments-scale-update.json': () => review.scale(stored('deployments', 'deployments-scale-update.json'), 5, { via: 'api' }),
  'deployments-scale-patch-subresource.json': () => review.scale(stored('deployments', 'deployments-scale-patch-subresource.json'), 2, { via: 'merge-patch' }),
  'namespaces-finalize.json': () => review.finalize(stored('namespaces', 'namespaces-finalize.json')),
  'pods-delete-grace-period.json': () =>
    review.delete(objects.pod({ ...at('pods-delete-grace-period.json'), spec: { nodeName: 'capnode' } }, seed), { gracePeriodSeconds: 17 }),
  'pods-status-patch.json': () => review.status(runner(), { phase: 'Running', podIP: '127.0.0.1' }),
  'pods-status-update.json': () => review.status(runner(), { message: 'put via status' }, { via: 'replace' }),
  'pods-ephemeralcontainers.json': () => review.debug(runner(), { image: 'busybox:1.36', container: 'dbg' }),
  'pods-eviction.json': () => review.evict(objects.pod(at('pods-eviction.json'), { ...seed, stored: true }), { deleteOptions: { gracePeriodSeconds: 0 } }),
  'pods-binding.json': () => review.bind(objects.pod(at('pods-binding.json'), { ...seed, stored: true }), 'capnode'),
  'bindings-create-legacy.json': () =>
    review.create(
      { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'unbound2', namespace: 'cap' }, target: { kind: 'Node', name: 'capnode', apiVersion: 'v1' } },
      { via: 'api' },
    ),
  'serviceaccounts-token.json': () =>
    review.token(objects.serviceAccount({ name: 'capsa', namespace: 'cap' }, { ...seed, stored: true }), { expirationSeconds: 600 }),
  'pods-exec.json': () => review.exec(runner(), ['ls', '/'], { container: 'c' }),
  'pods-exec-curl-post.json': () => review.exec(runner(), ['ls', '-l'], { container: 'c' }),
  'pods-attach.json': () => review.attach(runner(), { container: 'c' }),
  'pods-portforward.json': () => review.portForward(runner()),
  'pods-proxy.json': () => review.proxy(runner(), { path: '/healthz', port: 80 }),
  'pods-proxy-post-curl.json': () => review.proxy(runner(), { path: '/submit' }),
  'services-proxy.json': () =>
    review.proxy(objects.service({ name: 'proxied', namespace: 'cap' }, { ...seed, stored: true }), { path: '/some/path', port: 'http' }),
  'nodes-proxy.json': () => review.proxy(node, { path: '/healthz' }),
  'nodes-create.json': () => review.create(node),
  'customresourcedefinitions-create.json': () => review.create(widgetsCrd()),
  'widgets-create-v1.json': () =>
    review.create(objects.custom(widgetsCrd(), at('widgets-create-v1.json'), { ...seed, version: 'v1' }), { via: 'api', catalog }),
  'widgets-create-v2.json': () => review.create(make.widgets!('widgets-create-v2.json'), { via: 'api', catalog }),
  'widgets-patch-merge-v2.json': () =>
    review.patch(objects.stored(make.widgets!('widgets-patch-merge-v2.json')), { spec: { color: 'green' } }, { type: 'merge', catalog }),
  'widgets-scale-v2.json': () => review.scale(objects.stored(make.widgets!('widgets-scale-v2.json')), 4, { catalog }),
  'widgets-status-v2.json': () => review.status(objects.stored(make.widgets!('widgets-status-v2.json')), { replicas: 4 }, { catalog }),
  'widgets-delete-v2.json': () => review.delete(objects.stored(make.widgets!('widgets-delete-v2.json')), { catalog }),
};

// Actions kube-apiserver sends no webhook at all: nothing to reproduce, and the recording must agree.
const NO_CALLS: Record<string, string> = {
  'mutatingwebhookconfigurations-create.json':
    'webhook configurations are never sent to webhooks (k8s.io/apiserver/pkg/admission/plugin/webhook/predicates/rules/rules.go)',
  'namespaces-deletecollection.json': 'namespaces have no deletecollection: 405 MethodNotAllowed',
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Options with values that are naturally random (precondition uids) replaced by their format. */
function normalised(options: KubeObject | null): unknown {
  return JSON.parse(JSON.stringify(options), (_key, value: unknown) => (typeof value === 'string' && UUID.test(value) ? '<uuid>' : value));
}

function shapeOf(object: KubeObject | null): string | null {
  return object && `${object.apiVersion} ${object.kind}`;
}

function expectSameShape(built: AdmissionRequest, captured: AdmissionRequest): void {
  expect(Object.keys(built)).toEqual(Object.keys(captured));
  for (const member of [
    'kind',
    'resource',
    'subResource',
    'requestKind',
    'requestResource',
    'requestSubResource',
    'operation',
    'namespace',
    'dryRun',
  ] as const) {
    expect({ [member]: built[member] }).toEqual({ [member]: captured[member] });
  }
  expect({ name: built.name }).toEqual({ name: captured.name });
  expect({ options: normalised(built.options) }).toEqual({ options: normalised(captured.options) });
  expect(Object.keys(built.options ?? {})).toEqual(Object.keys(captured.options ?? {}));
  expect({ object: shapeOf(built.object), oldObject: shapeOf(built.oldObject) }).toEqual({
    object: shapeOf(captured.object),
    oldObject: shapeOf(captured.oldObject),
  });
}

function encode(built: Review): AdmissionRequest {
  return encodeReview(built.attributes, 'v1', '00000000-0000-4000-8000-000000000000').request!;
}

describe('every recorded action is reproduced by a builder, in the shape kube-apiserver sent', () => {
  const files = captureFiles();

  it('covers every capture', () => {
    const unmapped = files.filter((file) => !(file in SPECIFIC) && !(file in NO_CALLS) && generic(file) === undefined);
    expect(unmapped).toEqual([]);
    expect(files.length).toBeGreaterThanOrEqual(99);
  });

  it.each(files.filter((file) => !(file in NO_CALLS)))('%s', (file) => {
    const built = SPECIFIC[file]?.() ?? generic(file);
    const reviews = Array.isArray(built) ? built : [built!];
    const captured = actionRequests(file);
    // deletecollection: one request per item (a pod's first round of three); others: the first round (an
    // unscheduled pod's delete and kubectl port-forward have two).
    const compared = Array.isArray(built) ? itemsOf(file).map((name) => captured.find((r) => r.oldObject?.metadata?.name === name)!) : captured.slice(0, 1);
    expect(reviews).toHaveLength(compared.length);
    reviews.forEach((one, i) => expectSameShape(encode(one), compared[i]!));
  });

  it.each(Object.entries(NO_CALLS))('%s: kube-apiserver called no webhook (%s)', (file) => {
    expect(actionRequests(file)).toEqual([]);
  });

  it('namespaces refuse deletecollection, as kube-apiserver does', () => {
    expect(() => review.deleteCollection([objects.namespace({ name: 'gone' }, seed)])).toThrow(/405 MethodNotAllowed/);
  });
});

describe('users as the authenticators make them', () => {
  const userOf = (file: string) => actionRequest(file).userInfo;

  it('impersonated users get system:authenticated and lower-cased, sorted extra keys', () => {
    expect(users.impersonated({ username: 'jane', uid: 'jane-uid-123', groups: ['devs', 'ops'] })).toEqual(userOf('configmaps-create-impersonated.json'));
    const built = users.impersonated({ username: 'jane', groups: ['devs', 'ops'], extra: { Scopes: ['view', 'edit'], 'Acme.com/project': ['p1'] } });
    expect(built).toEqual(userOf('configmaps-create-impersonated-extra.json'));
    expect(Object.keys(built.extra!)).toEqual(Object.keys(userOf('configmaps-create-impersonated-extra.json').extra!));
  });

  it('service accounts have their groups and a credential id, with the members in the recorded order', () => {
    const built = users.serviceAccount('cap', 'capsa');
    const captured = userOf('configmaps-create-serviceaccount-user.json');
    expect(Object.keys(built)).toEqual(Object.keys(captured));
    expect({ ...built, uid: '', extra: {} }).toEqual({ ...captured, uid: '', extra: {} });
    expect(built.uid).toMatch(UUID);
    expect(Object.keys(built.extra!)).toEqual(Object.keys(captured.extra!));
    expect(built.extra!['authentication.kubernetes.io/credential-id']![0]).toMatch(/^JTI=[0-9a-f-]{36}$/);
  });
});
