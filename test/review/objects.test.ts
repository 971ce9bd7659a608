import type { KubeObject } from '../../lib/kube/admission';
import { createHarness } from '../../lib';
import { objects, review, SeededRandom } from '../../lib/review';
import { widgetsCrd } from './captures';

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

type Generator = (input?: Record<string, unknown>, options?: { seed?: number; stored?: boolean }) => KubeObject;

const KINDS: Record<string, Generator> = {
  pod: objects.pod as Generator,
  deployment: objects.deployment as Generator,
  statefulSet: objects.statefulSet as Generator,
  daemonSet: objects.daemonSet as Generator,
  replicaSet: objects.replicaSet as Generator,
  job: objects.job as Generator,
  cronJob: objects.cronJob as Generator,
  service: objects.service as Generator,
  configMap: objects.configMap as Generator,
  secret: objects.secret as Generator,
  namespace: objects.namespace as Generator,
  serviceAccount: objects.serviceAccount as Generator,
  ingress: objects.ingress as Generator,
  networkPolicy: objects.networkPolicy as Generator,
  persistentVolumeClaim: objects.persistentVolumeClaim as Generator,
  role: objects.role as Generator,
  roleBinding: objects.roleBinding as Generator,
  clusterRole: objects.clusterRole as Generator,
  clusterRoleBinding: objects.clusterRoleBinding as Generator,
};
const SEEDS = Array.from({ length: 40 }, (_, i) => i * 7919 + 1);

type Json = Record<string, unknown>;
const list = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);

/** The pod specs of an object: its own, its template's, its job template's. */
function podSpecsOf(object: KubeObject): Json[] {
  const at = (value: unknown, key: string): Json => ((value as Json | undefined)?.[key] ?? {}) as Json;
  const spec = at(object, 'spec');
  const template = object.kind === 'CronJob' ? at(at(at(spec, 'jobTemplate'), 'spec'), 'template') : at(spec, 'template');
  return [...(object.kind === 'Pod' ? [spec] : []), ...(template.spec ? [at(template, 'spec')] : [])];
}

/** The names the API validates as DNS-1123 labels (containers, volumes) and as IANA service names (ports). */
function namesIn(object: KubeObject): { labels: unknown[]; ports: unknown[] } {
  const specs = podSpecsOf(object);
  const containers = specs.flatMap((s) => [...list(s.containers), ...list(s.initContainers)]);
  return {
    labels: [...containers.map((c) => c.name), ...specs.flatMap((s) => list(s.volumes).map((v) => v.name))],
    ports: containers.flatMap((c) => list(c.ports).map((p) => p.name)).filter((name) => name !== undefined),
  };
}

describe.each(Object.entries(KINDS))('objects.%s', (kind, generate) => {
  it('gives the same object for the same seed, byte for byte, and another one for another seed', () => {
    expect(JSON.stringify(generate({}, { seed: 42 }))).toBe(JSON.stringify(generate({}, { seed: 42 })));
    const variants = new Set(SEEDS.map((seed) => JSON.stringify(generate({}, { seed }))));
    expect(variants.size).toBeGreaterThan(SEEDS.length / 2);
  });

  it('names everything with valid DNS-1123 names and valid labels', () => {
    for (const seed of SEEDS) {
      const object = generate({}, { seed });
      expect(object.metadata?.name).toMatch(DNS1123_SUBDOMAIN);
      expect(object.metadata!.name!.length).toBeLessThanOrEqual(63);
      const names = namesIn(object);
      for (const name of names.labels) expect(name).toMatch(DNS1123_LABEL);
      for (const name of names.ports) expect(name).toMatch(/^(?=.*[a-z])[a-z0-9]([-a-z0-9]{0,13}[a-z0-9])?$/);
      for (const [key, value] of Object.entries({ ...object.metadata?.labels })) {
        expect(value).toMatch(LABEL_VALUE);
        expect(value.length).toBeLessThanOrEqual(63);
        expect(key.split('/').at(-1)!.length).toBeLessThanOrEqual(63);
      }
    }
  });

  it('is a CREATE object unless stored: no uid, resourceVersion or creationTimestamp', () => {
    const fresh = generate({}, { seed: 3 });
    expect(fresh.metadata).not.toHaveProperty('uid');
    expect(fresh.metadata).not.toHaveProperty('resourceVersion');
    expect(fresh.metadata).not.toHaveProperty('creationTimestamp');
    const stored = generate({}, { seed: 3, stored: true });
    expect(stored.metadata?.uid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(stored.metadata?.resourceVersion).toMatch(/^\d+$/);
    expect(stored.metadata?.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(JSON.stringify(generate({}, { seed: 3, stored: true }))).toBe(JSON.stringify(stored));
  });

  it('deep-merges overrides, replacing arrays and removing members set to null', () => {
    const base = generate({}, { seed: 5 });
    const changed = generate({ metadata: { annotations: { 'team.example.com/owner': 'payments' }, labels: null } }, { seed: 5 });
    expect(changed.metadata?.annotations).toMatchObject({ 'team.example.com/owner': 'payments' });
    expect(changed.metadata?.name).toBe(base.metadata?.name);
    // Labels the API's defaulting adds come back: a namespace's name label, a Job's pod template labels (SetDefaults_Job).
    const templateLabels = Object.keys((changed as { spec?: { template?: { metadata?: { labels?: object } } } }).spec?.template?.metadata?.labels ?? {});
    const defaulted = kind === 'namespace' ? ['kubernetes.io/metadata.name'] : kind === 'job' ? templateLabels : [];
    expect(Object.keys(changed.metadata?.labels ?? {})).toEqual(defaulted);
  });
});

describe('objects.pod', () => {
  it('keeps its original options: name, namespace, labels, annotations, images, random', () => {
    const pod = objects.pod({
      name: 'web-1',
      namespace: 'shop',
      labels: { app: 'web' },
      annotations: { a: 'b' },
      images: ['nginx:1.27', 'nginx:latest', 'registry.local:5000/app'],
    });
    expect(pod.metadata).toMatchObject({ name: 'web-1', namespace: 'shop', labels: { app: 'web' }, annotations: { a: 'b' } });
    expect(pod.spec!.containers.map((c) => [c.name, c.image, c.imagePullPolicy])).toEqual([
      ['nginx', 'nginx:1.27', 'IfNotPresent'],
      ['nginx-1', 'nginx:latest', 'Always'],
      ['app', 'registry.local:5000/app', 'Always'],
    ]);
    // Bare containers, as a minimal manifest writes them: nothing besides the API defaults and the
    // ServiceAccount plugin's token mount (its volume's suffix derives from the pod's name).
    const tokenVolume = (pod.spec!.volumes ?? []).find((v) => v.name.startsWith('kube-api-access-'));
    expect(tokenVolume?.name).toMatch(/^kube-api-access-[a-z0-9]{5}$/);
    // Derived from the pod's name, not the seed: the same pod is generated alike whatever the seed.
    const volumesOf = (seed: number) => objects.pod({ name: 'web', namespace: 'shop', images: ['nginx:1.27'] }, { seed }).spec!.volumes;
    expect(volumesOf(21)).toEqual(volumesOf(22));
    expect(pod.spec!.containers[0]).toEqual({
      name: 'nginx',
      image: 'nginx:1.27',
      resources: {},
      volumeMounts: [{ name: tokenVolume?.name, readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }],
      terminationMessagePath: '/dev/termination-log',
      terminationMessagePolicy: 'File',
      imagePullPolicy: 'IfNotPresent',
    });
    expect(objects.pod({ name: 'web', namespace: 'shop', images: ['nginx:1.27'] }, { plugins: { disable: ['ServiceAccount'] } }).spec!.containers[0]).toEqual({
      name: 'nginx',
      image: 'nginx:1.27',
      resources: {},
      terminationMessagePath: '/dev/termination-log',
      terminationMessagePolicy: 'File',
      imagePullPolicy: 'IfNotPresent',
    });
    expect(pod.spec!.securityContext).toEqual({});
    const a = objects.pod({ random: new SeededRandom(9) });
    expect(objects.pod({ random: new SeededRandom(9) })).toEqual(a);
  });

  it('has the defaults kube-apiserver applies before mutating webhooks (fixtures/apiserver-captures/pods-create.json)', () => {
    const pod = objects.pod({}, { seed: 1 });
    expect(pod.spec).toMatchObject({
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      schedulerName: 'default-scheduler',
      priority: 0,
      enableServiceLinks: true,
      preemptionPolicy: 'PreemptLowerPriority',
      tolerations: [
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      ],
    });
    expect(pod.status).toEqual({});
    expect(objects.pod({}, { seed: 1, stored: true }).status).toMatchObject({
      phase: 'Pending',
      qosClass: expect.stringMatching(/^(BestEffort|Burstable|Guaranteed)$/),
    });
  });

  it('uses images from real registries, with tags or digests', () => {
    const images = SEEDS.flatMap((seed) => objects.pod({}, { seed }).spec!.containers.map((c) => c.image!));
    for (const image of images) expect(image).toMatch(/^[a-z0-9.-]+(:\d+)?(\/[a-z0-9._-]+)*(:[\w.-]+)?(@sha256:[0-9a-f]{64})?$/);
    for (const image of images) expect(image).toMatch(/[:@]/);
    expect(new Set(images.map((i) => i.split('/')[0])).size).toBeGreaterThan(4);
  });

  it('is created from its controller: name, generateName, labels and ownerReference of the owner', () => {
    const deployment = objects.deployment({ name: 'checkout', namespace: 'shop' }, { seed: 2, stored: true });
    const pod = objects.pod({}, { seed: 2, owner: deployment });
    const [owner] = pod.metadata!.ownerReferences!;
    expect(owner).toMatchObject({ apiVersion: 'apps/v1', kind: 'ReplicaSet', controller: true, blockOwnerDeletion: true });
    expect(owner!.name).toMatch(/^checkout-[a-z0-9]{9,10}$/);
    expect(pod.metadata!.generateName).toBe(`${owner!.name}-`);
    expect(pod.metadata!.name).toMatch(new RegExp(`^${owner!.name}-[a-z0-9]{5}$`));
    expect(pod.metadata!.namespace).toBe('shop');
    expect(pod.metadata!.labels).toMatchObject({ ...deployment.spec!.template.metadata!.labels, 'pod-template-hash': owner!.name.split('-').at(-1) });
    expect(pod.spec!.containers.map((c) => c.image)).toEqual(deployment.spec!.template.spec!.containers.map((c) => c.image));

    const statefulSet = objects.statefulSet({ name: 'db' }, { seed: 2, stored: true });
    const member = objects.pod({}, { seed: 2, owner: statefulSet });
    expect(member.metadata!.name).toMatch(/^db-\d$/);
    expect(member.metadata!.labels!['statefulset.kubernetes.io/pod-name']).toBe(member.metadata!.name);
  });
});

describe('generated pods in h.admit', () => {
  // A check of the builders, not of the plugins (those are tested in test/plugins on pods written there
  // or recorded): whatever the seed, a generated pod, owned or not, is one the chain admits.
  it('are admitted whatever the seed', async () => {
    const h = await createHarness({ seed: 21, namespaces: [{ name: 'shop' }] });
    try {
      for (let seed = 1; seed <= 40; seed++) {
        const generated = objects.pod({ namespace: 'shop' }, { seed });
        const owned = objects.pod({ namespace: 'shop' }, { seed, owner: objects.deployment({ namespace: 'shop' }, { seed }) });
        for (const object of [generated, owned]) {
          const result = await h.admit(review.create(object));
          expect({ seed, status: result.status }).toEqual({ seed, status: undefined });
        }
      }
    } finally {
      await h.close();
    }
  });
});

describe('the other kinds', () => {
  it('makes ReplicaSets owned by a Deployment unless told there is no owner', () => {
    const rs = objects.replicaSet({}, { seed: 4 });
    expect(rs.metadata!.ownerReferences![0]).toMatchObject({ kind: 'Deployment', controller: true });
    expect(rs.spec!.selector.matchLabels!['pod-template-hash']).toBe(rs.metadata!.labels!['pod-template-hash']);
    expect(rs.metadata!.annotations).toMatchObject({ 'deployment.kubernetes.io/revision': '1' });
    expect(objects.replicaSet({}, { seed: 4, owner: null }).metadata).not.toHaveProperty('ownerReferences');
  });

  it('makes Jobs of a CronJob, and stored Jobs carry the selector the job strategy generates', () => {
    const cronJob = objects.cronJob({ name: 'nightly-backup' }, { seed: 6, stored: true });
    const job = objects.job({}, { seed: 6, owner: cronJob, stored: true });
    expect(job.metadata!.name).toMatch(/^nightly-backup-\d+$/);
    expect(job.metadata!.ownerReferences![0]).toMatchObject({ kind: 'CronJob', name: 'nightly-backup', uid: cronJob.metadata!.uid });
    expect(job.spec!.selector!.matchLabels).toEqual({ 'batch.kubernetes.io/controller-uid': job.metadata!.uid });
    expect(job.spec!.template.metadata!.labels).toMatchObject({ 'batch.kubernetes.io/job-name': job.metadata!.name, 'job-name': job.metadata!.name });
    expect(job.spec).toMatchObject({ completions: 1, parallelism: 1, completionMode: 'NonIndexed', suspend: false });
  });

  it('applies the Namespace defaults: its name label when decoded, the kubernetes finalizer once stored', () => {
    const namespace = objects.namespace({ name: 'payments' }, { seed: 1 });
    expect(namespace.metadata!.labels!['kubernetes.io/metadata.name']).toBe('payments');
    expect(namespace.spec).toEqual({});
    expect(namespace.status).toEqual({ phase: 'Active' });
    expect(objects.namespace({ name: 'payments' }, { seed: 1, stored: true }).spec).toEqual({ finalizers: ['kubernetes'] });
  });

  it('merges Secret stringData into base64 data', () => {
    const secret = objects.secret({ stringData: { token: 's3cr3t' } } as never, { seed: 1 });
    expect(secret.data!.token).toBe(Buffer.from('s3cr3t').toString('base64'));
    expect(secret).not.toHaveProperty('stringData');
  });

  it('gives stored Services their allocated ClusterIP, and no IP on create', () => {
    const service = objects.service({ spec: { type: 'ClusterIP', clusterIP: null } }, { seed: 1 });
    expect(service.spec).not.toHaveProperty('clusterIP');
    expect(service.spec).toMatchObject({ type: 'ClusterIP', sessionAffinity: 'None', internalTrafficPolicy: 'Cluster' });
    const stored = objects.service({ spec: { type: 'NodePort', clusterIP: null } }, { seed: 1, stored: true });
    expect(stored.spec!.clusterIP).toMatch(/^10\.(9[6-9]|10\d|11[01])\.\d+\.\d+$/);
    expect(stored.spec).toMatchObject({
      clusterIPs: [stored.spec!.clusterIP],
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
      externalTrafficPolicy: 'Cluster',
    });
    for (const port of stored.spec!.ports!) expect(port.nodePort).toBeGreaterThanOrEqual(30000);
  });

  it('writes Go maps sorted and typed members in field order', () => {
    const deployment = objects.deployment({ labels: { zeta: '1', alpha: '2' } }, { seed: 1 });
    expect(Object.keys(deployment.metadata!.labels!)).toEqual(['alpha', 'zeta']);
    expect(Object.keys(deployment.spec!.selector.matchLabels!)).toEqual(['alpha', 'zeta']);
    expect(Object.keys(deployment)).toEqual(['kind', 'apiVersion', 'metadata', 'spec', 'status']);
  });
});

describe('objects.fromYaml', () => {
  it('decodes the user manifest with the same defaults', () => {
    const pod = objects.fromYaml(`
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: shop}
spec:
  containers:
    - name: web
      image: nginx
      ports: [{containerPort: 80}]
`);
    expect(pod).toEqual(
      expect.objectContaining({
        spec: expect.objectContaining({
          containers: [
            expect.objectContaining({
              imagePullPolicy: 'Always',
              ports: [{ containerPort: 80, protocol: 'TCP' }],
              terminationMessagePath: '/dev/termination-log',
            }),
          ],
          dnsPolicy: 'ClusterFirst',
          priority: 0,
        }),
        status: {},
      }),
    );
    expect(objects.fromYaml(JSON.stringify(pod))).toEqual(pod);
    expect(objects.fromYaml(pod)).toEqual(pod);
  });

  it('stores the manifest when asked, deterministically for a seed', () => {
    const manifest = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'settings-' }, data: { b: '2', a: '1' } };
    const stored = objects.fromYaml(manifest, { stored: true, seed: 8 });
    expect(stored.metadata!.name).toMatch(/^settings-[a-z0-9]{5}$/);
    expect(Object.keys(stored.data as object)).toEqual(['a', 'b']);
    expect(objects.fromYaml(manifest, { stored: true, seed: 8 })).toEqual(stored);
    expect(objects.stored(manifest, { seed: 8 })).toEqual(stored);
  });

  it('refuses several documents and objects without apiVersion and kind', () => {
    expect(() => objects.fromYaml('kind: A\napiVersion: v1\n---\nkind: B\napiVersion: v1\n')).toThrow(/expected one document, found 2/);
    expect(() => objects.fromYaml('metadata: {name: x}')).toThrow(/no apiVersion and kind/);
  });

  it('applies CRD schema defaults to custom resources and sorts their members', () => {
    const widget = objects.fromYaml({ kind: 'Gadget', apiVersion: 'example.com/v1', metadata: { name: 'g' }, spec: { size: 3 } }, { crds: [GADGETS] });
    expect(widget.spec).toEqual({ mode: 'auto', size: 3 });
    expect(Object.keys(widget)).toEqual(['apiVersion', 'kind', 'metadata', 'spec']);
  });
});

const GADGETS = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'gadgets.example.com' },
  spec: {
    group: 'example.com',
    names: { plural: 'gadgets', kind: 'Gadget' },
    scope: 'Namespaced',
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                required: ['size', 'owner', 'endpoint', 'tier', 'ports', 'ratio', 'window'],
                properties: {
                  size: { type: 'integer', minimum: 1, maximum: 5 },
                  mode: { type: 'string', default: 'auto' },
                  owner: { type: 'string', format: 'email' },
                  endpoint: { type: 'string', format: 'uri' },
                  tier: { type: 'string', enum: ['gold', 'silver'] },
                  ratio: { type: 'number', minimum: 0, maximum: 1 },
                  window: { type: 'string', format: 'duration' },
                  ports: { type: 'array', minItems: 2, items: { type: 'integer', minimum: 1024, maximum: 2048 } },
                  labels: { type: 'object', additionalProperties: { type: 'string' } },
                  shortName: { type: 'string', maxLength: 8, pattern: '^[a-z]+$' },
                },
              },
              status: { type: 'object', properties: { ready: { type: 'boolean' } } },
            },
          },
        },
        subresources: { status: {} },
      },
    ],
  },
};

describe('objects.custom', () => {
  it('fills every required member by type, honouring enum, format, bounds and defaults', () => {
    for (const seed of SEEDS) {
      const gadget = objects.custom(GADGETS, {}, { seed });
      const spec = gadget.spec as Record<string, unknown>;
      expect(gadget).toMatchObject({ apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { namespace: 'default' } });
      expect(gadget.metadata!.name).toMatch(DNS1123_LABEL);
      expect(spec.size).toEqual(expect.any(Number));
      expect(spec.size as number).toBeGreaterThanOrEqual(1);
      expect(spec.size as number).toBeLessThanOrEqual(5);
      expect(Number.isInteger(spec.size)).toBe(true);
      expect(spec.owner).toMatch(/^[^@\s]+@[^@\s]+$/);
      expect(spec.endpoint).toMatch(/^https?:\/\//);
      expect(['gold', 'silver']).toContain(spec.tier);
      expect(spec.ratio as number).toBeLessThanOrEqual(1);
      expect(spec.window).toMatch(/^\d+s$/);
      expect((spec.ports as number[]).length).toBeGreaterThanOrEqual(2);
      for (const port of spec.ports as number[]) expect(port).toBeGreaterThanOrEqual(1024);
      expect(spec.mode).toBe('auto');
      if (spec.shortName !== undefined) expect(spec.shortName).toMatch(/^[a-z]{1,8}$/);
      expect(gadget).not.toHaveProperty('status');
    }
    expect(objects.custom(GADGETS, {}, { seed: 1 })).toEqual(objects.custom(GADGETS, {}, { seed: 1 }));
  });

  it('makes widgets from the recorded CRD: schemaless, so a spec with the scale subresource replicas', () => {
    const widget = objects.custom(widgetsCrd(), { name: 'w1', namespace: 'cap', spec: { color: 'red' } }, { seed: 3, version: 'v2' });
    expect(widget).toEqual({
      apiVersion: 'capture.example.com/v2',
      kind: 'Widget',
      metadata: { name: 'w1', namespace: 'cap' },
      spec: { color: 'red', replicas: expect.any(Number) },
    });
    expect(objects.custom(widgetsCrd(), {}, { seed: 3 }).apiVersion).toBe('capture.example.com/v1');
    const stored = objects.custom(widgetsCrd(), {}, { seed: 3, stored: true });
    expect(stored.metadata).toMatchObject({ generation: 1, uid: expect.any(String) });
    expect(() => objects.custom(widgetsCrd(), {}, { version: 'v9' })).toThrow(/serves no version "v9".*\n.*v1, v2/);
  });
});
