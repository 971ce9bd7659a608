import { HarnessError } from '../../lib/errors';
import { ResourceCatalog } from '../../lib/kube/catalog';
import { DEFAULT_USER, encodeReview, objects, review, users } from '../../lib/review';
import { widgetsCrd } from './captures';

const seed = { seed: 11 };
const pod = () => objects.pod({ name: 'web-1', namespace: 'shop', images: ['nginx:1.27'] }, seed);
const request = (built: { attributes: Parameters<typeof encodeReview>[0] }) => encodeReview(built.attributes, 'v1', 'uid').request!;

function thrown(build: () => unknown): HarnessError {
  try {
    build();
  } catch (error) {
    if (error instanceof HarnessError) return error;
    throw error;
  }
  throw new Error('expected a HarnessError');
}

describe('invalid combinations name the valid choices', () => {
  it('CONNECT on a resource without CONNECT subresources lists the ones that exist', () => {
    const error = thrown(() => review.connect(objects.configMap({}, seed), 'exec'));
    expect(error.code).toBe('REVIEW_INVALID');
    expect(error.message).toMatch(/configmaps has no CONNECT subresource/);
    expect(error.message).toMatch(/pods\/attach, pods\/exec, pods\/portforward, pods\/proxy.*services\/proxy.*nodes\/proxy|nodes\/proxy.*pods\/attach/);
  });

  it('pods/log is refused: reads never reach admission', () => {
    expect(() => review.connect(pod(), 'log')).toThrow(/pods\/log never reaches admission webhooks[\s\S]*CONNECT: attach, exec, portforward, proxy/);
  });

  it('a subresource under the wrong operation, or one the resource does not serve', () => {
    expect(() => review.connect(pod(), 'status')).toThrow(/pods\/status is admitted as UPDATE, not CONNECT/);
    expect(() => review.update(pod(), pod(), { subResource: 'logs' })).toThrow(
      /pods has no subresource "logs"[\s\S]*UPDATE: ephemeralcontainers, resize, status/,
    );
    expect(() => review.scale(objects.configMap({}, seed), 3)).toThrow(/configmaps has no subresource "scale"/);
    const deployment = objects.deployment({}, seed);
    expect(() => review.update(deployment, deployment, { subResource: 'scale' })).toThrow(
      /deployments\/scale carries autoscaling\/v1 Scale[\s\S]*review\.scale/,
    );
  });

  it('operations a resource never admits', () => {
    const binding = { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p', namespace: 'default' }, target: { kind: 'Node', name: 'n' } };
    expect(() => review.update(binding, binding)).toThrow(/bindings admits only CREATE, not UPDATE/);
    expect(() => review.create({ apiVersion: 'v1', kind: 'Frobnicator' })).toThrow(/no resource serves v1 Frobnicator/);
  });
});

describe('CREATE', () => {
  it('sends the object as given, with kubectl create options, and no name for generateName', () => {
    const configMap = objects.configMap({ namespace: 'shop', metadata: { name: null, generateName: 'settings-' } }, seed);
    const built = review.create(configMap);
    expect(built.attributes.object).toEqual(configMap);
    expect(request(built)).not.toHaveProperty('name');
    expect(built.attributes.options).toEqual({
      kind: 'CreateOptions',
      apiVersion: 'meta.k8s.io/v1',
      fieldManager: 'kubectl-create',
      fieldValidation: 'Strict',
    });
  });

  it('records managedFields only when asked for', () => {
    expect(review.create(pod()).attributes.object?.metadata).not.toHaveProperty('managedFields');
    const managed = review.create(pod(), { managedFields: true, fieldManager: 'ci' }).attributes.object!.metadata!.managedFields as { manager: string }[];
    expect(managed.map((e) => e.manager)).toEqual(['ci']);
  });

  it('puts ?dryRun=All where each options kind has it', () => {
    expect(Object.keys(review.create(pod(), { dryRun: true }).attributes.options!)).toEqual([
      'kind',
      'apiVersion',
      'dryRun',
      'fieldManager',
      'fieldValidation',
    ]);
    const deletion = review.delete(pod()).dryRun();
    expect(Object.keys(deletion.attributes.options!)).toEqual(['kind', 'apiVersion', 'gracePeriodSeconds', 'propagationPolicy', 'dryRun']);
    expect(deletion.dryRun(false).attributes.options).not.toHaveProperty('dryRun');
    expect(deletion.dryRun(false).attributes.dryRun).toBe(false);
  });
});

describe('UPDATE', () => {
  it('stores the old object and carries its identity into the new one, the same on every run', () => {
    const built = review.update(pod(), { ...pod(), metadata: { ...pod().metadata, labels: { tier: 'web' } } });
    const old = built.attributes.oldObject!;
    expect(old.metadata).toMatchObject({
      uid: expect.any(String),
      resourceVersion: expect.stringMatching(/^\d+$/),
      creationTimestamp: expect.any(String),
      generation: 1,
    });
    expect(built.attributes.object!.metadata).toMatchObject({
      uid: old.metadata!.uid,
      resourceVersion: old.metadata!.resourceVersion,
      labels: { tier: 'web' },
    });
    expect(review.update(pod(), pod()).attributes.oldObject).toEqual(review.update(pod(), pod()).attributes.oldObject);
  });

  it('applies patches as kubectl patch sends them', () => {
    const stored = objects.stored(pod(), seed);
    const strategic = review.patch(stored, { spec: { containers: [{ name: 'nginx', image: 'nginx:1.28' }] } });
    expect(strategic.attributes.object!.spec).toMatchObject({
      containers: [expect.objectContaining({ name: 'nginx', image: 'nginx:1.28', imagePullPolicy: 'IfNotPresent' })],
    });
    expect(strategic.attributes.options).toEqual({ kind: 'UpdateOptions', apiVersion: 'meta.k8s.io/v1', fieldManager: 'kubectl-patch' });
    const merged = review.patch(stored, { spec: { containers: [{ name: 'sidecar', image: 'busybox:1.36' }] } }, { type: 'merge' });
    expect((merged.attributes.object!.spec as { containers: unknown[] }).containers).toEqual([{ name: 'sidecar', image: 'busybox:1.36' }]);
    expect(() => review.patch(stored, [{ op: 'remove', path: '/metadata/nothing' }], { type: 'json' })).toThrow(/the JSON patch does not apply/);
  });

  it('server-side apply creates or updates, owning only the applied fields', () => {
    const config = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'shop' }, data: { mode: 'fast' } };
    expect(review.apply(config).attributes.operation).toBe('CREATE');
    const existing = objects.stored({ ...config, data: { mode: 'slow', extra: '1' } }, seed);
    const updated = review.apply(config, { existing, managedFields: true });
    expect(updated.attributes.operation).toBe('UPDATE');
    expect(updated.attributes.object!.data).toEqual({ extra: '1', mode: 'fast' });
    const entries = updated.attributes.object!.metadata!.managedFields as { manager: string; operation: string; fieldsV1: unknown }[];
    expect(entries[0]).toMatchObject({ manager: 'kubectl', operation: 'Apply', fieldsV1: { 'f:data': { 'f:mode': {} } } });
  });

  it('builds the status, scale, resize and ephemeralcontainers subresources from the stored parent', () => {
    const deployment = objects.deployment({ name: 'web', namespace: 'shop', labels: { app: 'web' }, spec: { replicas: 2 } }, { ...seed, stored: true });
    const scaled = review.scale(deployment, 5);
    expect(scaled.attributes.object).toMatchObject({
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      spec: { replicas: 5 },
      status: { replicas: 0, selector: 'app=web' },
    });
    expect(scaled.attributes.oldObject).toMatchObject({ spec: { replicas: 2 } });
    expect(scaled.attributes.options).toEqual({ kind: 'UpdateOptions', apiVersion: 'meta.k8s.io/v1' });

    const resized = review.resize(pod(), { nginx: { limits: { cpu: '2' }, requests: { cpu: '1' } } });
    expect(resized.attributes.subResource).toBe('resize');
    expect(resized.attributes.object!.spec).toMatchObject({
      containers: [expect.objectContaining({ resources: { limits: { cpu: '2' }, requests: { cpu: '1' } } })],
    });

    const debugged = review.debug(pod(), { interactive: true });
    const [debugger_] = (debugged.attributes.object!.spec as { ephemeralContainers: { name: string; stdin: boolean }[] }).ephemeralContainers;
    expect(debugger_!.name).toMatch(/^debugger-[a-z0-9]{5}$/);
    expect(debugger_!.stdin).toBe(true);
    expect(review.debug(pod()).attributes.object).toEqual(review.debug(pod()).attributes.object);
  });
});

describe('DELETE', () => {
  it('gives a pod the grace period its strategy computes', () => {
    const grace = (p: object, options = {}) => review.delete(p as never, options).attributes.options!.gracePeriodSeconds;
    expect(grace(pod())).toBe(0);
    const scheduled = objects.pod({ images: ['nginx:1.27'], spec: { nodeName: 'node-1', terminationGracePeriodSeconds: 45 } }, seed);
    expect(grace(scheduled)).toBe(45);
    expect(grace(scheduled, { gracePeriodSeconds: 17 })).toBe(17);
    expect(grace(objects.pod({ spec: { nodeName: 'node-1' }, status: { phase: 'Succeeded' } }, seed), { gracePeriodSeconds: 17 })).toBe(0);
  });

  it('gives a namespace a uid precondition, and a collection an empty name per item', () => {
    const namespace = objects.namespace({ name: 'shop' }, { ...seed, stored: true });
    expect(review.delete(namespace).attributes.options).toEqual({
      kind: 'DeleteOptions',
      apiVersion: 'meta.k8s.io/v1',
      preconditions: { uid: namespace.metadata!.uid },
      propagationPolicy: 'Background',
    });
    const items = [objects.configMap({ name: 'a' }, seed), objects.configMap({ name: 'b' }, seed)];
    const reviews = review.deleteCollection(items);
    expect(reviews.map((r) => [r.attributes.name, r.attributes.oldObject!.metadata!.name, r.attributes.options])).toEqual([
      ['', 'a', { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1' }],
      ['', 'b', { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1' }],
    ]);
  });
});

describe('CONNECT', () => {
  it('sends the connect options as the object and never options or dryRun', () => {
    const built = review.exec(pod(), ['sh'], { stdin: true, tty: true });
    expect(built.attributes).toMatchObject({ operation: 'CONNECT', options: null, oldObject: null, dryRun: false, subResource: 'exec' });
    expect(built.attributes.object).toEqual({
      kind: 'PodExecOptions',
      apiVersion: 'v1',
      stdin: true,
      stdout: true,
      tty: true,
      container: 'nginx',
      command: ['sh'],
    });
    expect(built.dryRun().attributes.dryRun).toBe(false);
    expect(review.proxy(objects.service({ name: 'api' }, seed), { port: 'http' }).attributes).toMatchObject({
      name: 'api:http',
      object: { kind: 'ServiceProxyOptions', path: '/' },
    });
    expect(review.connect(pod(), 'exec').attributes.object).toEqual({
      kind: 'PodExecOptions',
      apiVersion: 'v1',
      stdout: true,
      stderr: true,
      container: 'nginx',
      command: ['sh'],
    });
  });
});

describe('subresource CREATEs', () => {
  it('evictions, bindings and token requests carry their own kinds on the parent resource', () => {
    const eviction = review.evict(pod());
    expect(request(eviction)).toMatchObject({
      kind: { group: 'policy', version: 'v1', kind: 'Eviction' },
      resource: { resource: 'pods' },
      subResource: 'eviction',
      name: 'web-1',
      operation: 'CREATE',
    });
    const binding = review.bind(pod(), 'node-7');
    expect(binding.attributes.userInfo).toEqual(users.scheduler());
    expect(binding.attributes.object).toMatchObject({ target: { kind: 'Node', name: 'node-7' } });
    const token = review.token(objects.serviceAccount({ name: 'builder', namespace: 'ci' }, seed), { audiences: ['vault'] });
    expect(request(token)).toMatchObject({
      name: 'builder',
      namespace: 'ci',
      object: { spec: { audiences: ['vault'], expirationSeconds: 3600, boundObjectRef: null } },
    });
  });
});

describe('custom resources', () => {
  it('go through the catalog a CRD was registered in', () => {
    const catalog = new ResourceCatalog();
    catalog.registerCustomResourceDefinition(widgetsCrd());
    const widget = objects.custom(widgetsCrd(), { name: 'w', namespace: 'shop' }, seed);
    expect(() => review.create(widget)).toThrow(/no resource serves capture.example.com\/v1 Widget/);
    expect(review.scale(widget, 3, { catalog }).attributes.object).toMatchObject({ kind: 'Scale', spec: { replicas: 3 } });
    expect(review.status(widget, { ready: true }, { catalog }).attributes.object).toMatchObject({ status: { ready: true } });
  });
});

describe('users', () => {
  it('are the identities kube-apiserver authenticates', () => {
    expect(users.admin()).toEqual(DEFAULT_USER);
    expect(users.node('node-1')).toEqual({ username: 'system:node:node-1', groups: ['system:nodes', 'system:authenticated'] });
    expect(users.anonymous()).toEqual({ username: 'system:anonymous', groups: ['system:unauthenticated'] });
    expect(users.controller('replicaset-controller').username).toBe('system:serviceaccount:kube-system:replicaset-controller');
    const bound = users.serviceAccount('shop', 'api', { pod: { name: 'api-7d9f-x2k4q', node: 'node-3' } });
    expect(Object.keys(bound.extra!)).toEqual([
      'authentication.kubernetes.io/credential-id',
      'authentication.kubernetes.io/node-name',
      'authentication.kubernetes.io/node-uid',
      'authentication.kubernetes.io/pod-name',
      'authentication.kubernetes.io/pod-uid',
    ]);
    expect(users.serviceAccount('shop', 'api')).toEqual(users.serviceAccount('shop', 'api'));
    expect(review.create(pod()).as(bound).attributes.userInfo).toStrictEqual(bound);
  });
});
