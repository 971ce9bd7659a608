import type { AdmissionRequest, KubeObject } from '../../lib/kube/admission';
import { ResourceCatalog } from '../../lib/kube/catalog';
import { objects, review, type Review } from '../../lib/review';
import { validatingView } from '../../lib/registry/validating-view';
import { actionRequest, capture, manifestOf, widgetsCrd } from './captures';

/*
 * The objects themselves: built from the recorded client's own manifest (or the recorded stored
 * object), with managedFields asked for, they must equal what kube-apiserver sent, member for member.
 * Only the write's time differs (the harness clock is fixed); it is compared by format.
 */

const catalog = new ResourceCatalog();
catalog.registerCustomResourceDefinition(widgetsCrd());
const crds = [widgetsCrd()];
const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

/** `object` with every managedFields time checked for format and blanked. */
function timeless(object: KubeObject | null): unknown {
  return JSON.parse(JSON.stringify(object), (key, value: unknown) => {
    if (key === 'time' && typeof value === 'string') {
      expect(value).toMatch(TIME);
      return '<time>';
    }
    return value;
  });
}

function expectObjectsOf(built: Review, captured: AdmissionRequest): void {
  const a = built.attributes;
  expect(timeless(a.object)).toEqual(timeless(captured.object));
  expect(timeless(a.oldObject)).toEqual(timeless(captured.oldObject));
  // Member order too: the apiserver writes typed objects in field order and custom resources sorted.
  expect(JSON.stringify(timeless(a.object))).toBe(JSON.stringify(timeless(captured.object)));
}

const manifest = (file: string) => manifestOf(file)!;
// The captures' kube-apiserver ran with --disable-admission-plugins=ServiceAccount (their README): no token volume.
const plugins = { disable: ['ServiceAccount'] };
const decoded = (file: string) => objects.fromYaml(manifest(file), { crds, plugins });
const withManaged = { managedFields: true } as const;

describe('objects built from the recorded manifests equal what kube-apiserver sent', () => {
  it.each([
    'pods-create.json',
    'deployments-create.json',
    'secrets-create.json',
    'services-create.json',
    'namespaces-create.json',
    'configmaps-create.json',
    'nodes-create.json',
  ])('%s: kubectl create', (file) => expectObjectsOf(review.create(decoded(file), withManaged), actionRequest(file)));

  it.each([
    'pods-apply-create.json',
    'deployments-apply-create.json',
    'secrets-apply-create.json',
    'services-apply-create.json',
    'namespaces-apply-create.json',
    'configmaps-apply-create.json',
  ])('%s: server-side apply of a new object', (file) =>
    expectObjectsOf(review.apply(manifest(file), { fieldManager: 'capture', plugins, ...withManaged }), actionRequest(file)),
  );

  it.each(['configmaps-create-client-timeout-3s.json', 'configmaps-create-generatename.json', 'bindings-create-legacy.json'])('%s: curl POST', (file) =>
    expectObjectsOf(review.create(decoded(file), { via: 'api', namespace: 'cap', ...withManaged }), actionRequest(file)),
  );

  it('configmaps-create-fieldmanager-validation.json: curl POST with ?fieldManager', () => {
    const file = 'configmaps-create-fieldmanager-validation.json';
    expectObjectsOf(review.create(decoded(file), { via: 'api', namespace: 'cap', fieldManager: 'my-manager', ...withManaged }), actionRequest(file));
  });

  it.each(['widgets-create-v1.json', 'widgets-create-v2.json'])('%s: a custom resource (sorted members)', (file) =>
    expectObjectsOf(review.create(decoded(file), { via: 'api', namespace: 'cap', catalog, ...withManaged }), actionRequest(file)),
  );
});

describe('updates built from the recorded stored object equal what kube-apiserver sent', () => {
  const resources = ['pods', 'deployments', 'secrets', 'services', 'namespaces', 'configmaps'];
  const old = (file: string) => actionRequest(file).oldObject!;

  it.each(resources)('%s: kubectl replace records a kubectl-replace entry for what changed', (resource) => {
    const file = `${resource}-update.json`;
    const next = structuredClone(old(file));
    next.metadata!.labels = { ...next.metadata!.labels, updated: 'put' };
    expectObjectsOf(review.update(old(file), next, withManaged), actionRequest(file));
  });

  it.each(
    resources.flatMap((resource) => [
      [`${resource}-patch-merge.json`, 'merge', { metadata: { labels: { patched: 'merge' } } }] as const,
      [`${resource}-patch-json.json`, 'json', [{ op: 'add', path: '/metadata/labels/patched-json', value: 'yes' }]] as const,
      [`${resource}-patch-strategic.json`, 'strategic', { metadata: { labels: { patched: 'strategic' } } }] as const,
    ]),
  )('%s: kubectl patch --type=%s', (file, type, patch) => {
    expectObjectsOf(review.patch(old(file), patch, { type, ...withManaged }), actionRequest(file));
  });

  it.each(resources)('%s: server-side apply to an existing object', (resource) => {
    const file = `${resource}-patch-apply.json`;
    expectObjectsOf(review.apply(manifest(file), { existing: old(file), fieldManager: 'capture', ...withManaged }), actionRequest(file));
  });

  it('pods-ephemeralcontainers.json: kubectl debug', () => {
    const file = 'pods-ephemeralcontainers.json';
    expectObjectsOf(review.debug(old(file), { image: 'busybox:1.36', container: 'dbg', ...withManaged }), actionRequest(file));
  });

  it('namespaces-finalize.json: a PUT to finalize', () => {
    const file = 'namespaces-finalize.json';
    expectObjectsOf(review.finalize(old(file), withManaged), actionRequest(file));
  });

  it('widgets-patch-merge-v2.json: a merge patch of a custom resource', () => {
    const file = 'widgets-patch-merge-v2.json';
    expectObjectsOf(review.patch(old(file), { spec: { color: 'green' } }, { type: 'merge', catalog, ...withManaged }), actionRequest(file));
  });
});

describe('subresource and CONNECT objects equal what kube-apiserver sent', () => {
  const pod = (name: string) => objects.pod({ name, namespace: 'cap', images: ['nginx:1.27'] }, { seed: 1, stored: true });

  it('pods-eviction.json', () => {
    expectObjectsOf(
      review.evict(pod('evictme'), { deleteOptions: { gracePeriodSeconds: 0 }, userAgent: 'curl', ...withManaged }),
      actionRequest('pods-eviction.json'),
    );
  });

  it('pods-binding.json', () => {
    expectObjectsOf(review.bind(pod('unbound'), 'capnode', { userAgent: 'curl', ...withManaged }), actionRequest('pods-binding.json'));
  });

  it('serviceaccounts-token.json', () => {
    const sa = objects.serviceAccount({ name: 'capsa', namespace: 'cap' }, { seed: 1, stored: true });
    expectObjectsOf(review.token(sa, { expirationSeconds: 600, ...withManaged }), actionRequest('serviceaccounts-token.json'));
  });

  it.each([
    ['pods-exec.json', () => review.exec(pod('runner'), ['ls', '/'], { container: 'c' })],
    ['pods-exec-curl-post.json', () => review.exec(pod('runner'), ['ls', '-l'], { container: 'c' })],
    ['pods-attach.json', () => review.attach(pod('runner'), { container: 'c' })],
    ['pods-portforward.json', () => review.portForward(pod('runner'))],
    ['pods-proxy.json', () => review.proxy(pod('runner'), { path: '/healthz', port: 80 })],
    ['services-proxy.json', () => review.proxy(objects.service({ name: 'proxied', namespace: 'cap' }, { seed: 1 }), { path: '/some/path', port: 'http' })],
    ['nodes-proxy.json', () => review.proxy(objects.fromYaml({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'capnode' } }), { path: '/healthz' })],
  ] as const)('%s', (file, build) => {
    const built = build();
    expectObjectsOf(built, actionRequest(file));
    expect(built.attributes.name).toBe(actionRequest(file).name);
  });

  it('every recorded manifest used here is in the capture', () => {
    expect(capture('pods-create.json').client).toContain(JSON.stringify(manifest('pods-create.json')));
  });
});

describe('validating webhooks see a CREATE after the registry prepared it', () => {
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
  const validated = (file: string) =>
    capture(file).calls.find((c) => c.webhook === 'validate.capture.local' && c.body.request.kind.kind === actionRequest(file).kind.kind)!.body.request;

  /** `object` with the naturally random values (uid, times, generated suffix, ClusterIP) replaced by their format. */
  function formats(object: KubeObject | null): unknown {
    return JSON.parse(JSON.stringify(object), (key, value: unknown) => {
      if (typeof value !== 'string') return value;
      if (UUID.test(value)) return '<uid>';
      if (key === 'creationTimestamp' || key === 'time') return '<time>';
      if (/^\d+\.\d+\.\d+\.\d+$/.test(value)) return '<ip>';
      if (key === 'name' && /^gen-[a-z0-9]{5}$/.test(value)) return 'gen-<suffix>';
      return value;
    });
  }

  it.each([
    ['pods-create.json', 'kubectl'],
    ['deployments-create.json', 'kubectl'],
    ['services-create.json', 'kubectl'],
    ['namespaces-create.json', 'kubectl'],
    ['secrets-create.json', 'kubectl'],
    ['configmaps-create-generatename.json', 'api'],
    ['widgets-create-v1.json', 'api'],
  ] as const)('%s', (file, via) => {
    const built = review.create(decoded(file), { via, namespace: 'cap', catalog, ...withManaged });
    const view = validatingView(built.attributes, 3);
    const captured = validated(file);
    expect(formats(view.object)).toEqual(formats(captured.object));
    expect(JSON.stringify(formats(view.object))).toBe(JSON.stringify(formats(captured.object)));
    expect(formats({ name: view.name })).toEqual(formats({ name: captured.name }));
    expect(validatingView(built.attributes, 3)).toEqual(view);
  });
});
