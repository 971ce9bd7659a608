// ServiceAccount in h.admit: the account a pod names is read from the cluster (`objects`), every
// namespace has `default`, a missing account refuses the pod before any webhook is called, and the
// validation phase refuses a pod a webhook pointed at an account that does not exist.
import { createHarness, objects, review, type Harness, type HarnessOptions } from '../../lib';
import type { KubeObject } from '../../lib/kube/admission';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { call } from '../mockapi/client';

const harnesses: Harness[] = [];
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((h) => h.close()));
});

const hook = (name: string) => ({
  name,
  clientConfig: { url: `https://${name}/` },
  rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
  sideEffects: 'None',
  admissionReviewVersions: ['v1'],
});
const mutating = {
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'MutatingWebhookConfiguration',
  metadata: { name: 'm' },
  webhooks: [hook('renamer.example.com')],
};

async function harness(options: Partial<HarnessOptions> = {}): Promise<Harness> {
  const h = await createHarness({ seed: 21, namespaces: [{ name: 'shop' }], ...options });
  harnesses.push(h);
  return h;
}
const pod = (spec: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web', namespace: 'shop' },
  spec: { containers: [{ name: 'app', image: 'nginx:1.27' }], ...spec },
});
const account = (name: string, extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ServiceAccount',
  metadata: { name, namespace: 'shop' },
  ...extra,
});
/** The pod stored by the create recorded in default-tolerations (a real kube-apiserver v1.36.2). */
function recordedStoredPod(): KubeObject {
  const file = path.join(__dirname, '../fixtures/apiserver-policies/default-tolerations.json');
  const recording = JSON.parse(readFileSync(file, 'utf8')) as { requests: { storedObjectAfter: { body: KubeObject } }[] };
  return recording.requests[0]!.storedObjectAfter.body;
}
const specOf = (object: KubeObject | null | undefined) => (object as { spec: Record<string, unknown> } | null | undefined)?.spec;

it('refuses a pod naming an account the cluster lacks before any webhook, and says once how to seed it', async () => {
  const h = await harness({ manifests: [mutating] as never[], stubs: { 'renamer.example.com': { respond: { allowed: true } } } });
  const emitWarning = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
  try {
    const result = await h.admit(review.create(pod({ serviceAccountName: 'builder' })));
    expect(result.status).toMatchObject({
      code: 403,
      reason: 'Forbidden',
      message: 'pods "web" is forbidden: error looking up service account shop/builder: serviceaccount "builder" not found',
    });
    expect(h.stub('renamer.example.com').received).toHaveLength(0);
    expect(String(result.trace)).toContain('ServiceAccount (built-in plugin): rejected');
    // The warning below reads the missing account from the plugin's step, never from the refusal's text.
    expect(result.trace.steps.find((step) => step.webhook === 'ServiceAccount')?.missing).toEqual({
      kind: 'ServiceAccount',
      namespace: 'shop',
      name: 'builder',
    });
    await h.admit(review.create(pod({ serviceAccountName: 'builder' })));
    expect(emitWarning.mock.calls).toEqual([
      [
        'h.admit: the ServiceAccount shop/builder does not exist in the mock cluster (only each namespace\'s "default" does), so the ServiceAccount plugin refuses the pod as kube-apiserver would; seed it with createHarness({ objects: [{ apiVersion: "v1", kind: "ServiceAccount", metadata: { name: "builder", namespace: "shop" } }] })',
        { code: 'ADMISSION_HARNESS_MISSING_SERVICE_ACCOUNT' },
      ],
    ]);
  } finally {
    emitWarning.mockRestore();
  }
});

it('admits a pod naming a seeded account, with the account’s automount choice and image pull secrets', async () => {
  const h = await harness({ objects: [account('builder', { automountServiceAccountToken: false, imagePullSecrets: [{ name: 'regcred' }] })] });
  const result = await h.admit(review.create(pod({ serviceAccountName: 'builder' })));
  expect(result).toBeAllowed();
  expect(specOf(result.object)).toMatchObject({ serviceAccountName: 'builder', imagePullSecrets: [{ name: 'regcred' }] });
  expect(specOf(result.object)).not.toHaveProperty('volumes');
});

it('mounts the default account’s token into a pod that names none, the default being there without seeding', async () => {
  const h = await harness();
  const result = await h.admit(review.create(pod()));
  expect(result).toBeAllowed();
  expect(specOf(result.object)).toMatchObject({
    serviceAccountName: 'default',
    containers: [{ volumeMounts: [{ mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true }] }],
  });
});

it('refuses a pod a webhook pointed at an account that does not exist: the plugin runs again in the reinvocation round', async () => {
  const h = await harness({
    manifests: [mutating] as never[],
    stubs: { 'renamer.example.com': { respond: { patch: [{ op: 'replace', path: '/spec/serviceAccountName', value: 'ghost' }] } } },
  });
  const emitWarning = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
  const result = await h.admit(review.create(pod())).finally(() => emitWarning.mockRestore());
  // The webhook renamed the account: seeding it is not the advice, so nothing is said.
  expect(emitWarning).not.toHaveBeenCalled();
  expect(h.stub('renamer.example.com').received).toHaveLength(1);
  expect(result.status).toMatchObject({
    code: 403,
    message: 'pods "web" is forbidden: error looking up service account shop/ghost: serviceaccount "ghost" not found',
  });
  expect(String(result.trace)).toMatch(/mutating round 1\n\s+└─ ServiceAccount \(built-in plugin\): rejected/);
});

it('refuses `kubectl debug` on a pod whose account is gone, in the validation phase', async () => {
  const h = await harness();
  const stored = objects.stored(pod({ serviceAccountName: 'retired' }), { seed: 21 });
  const result = await h.admit(review.debug(stored));
  expect(result.status).toMatchObject({
    code: 403,
    message: 'pods "web" is forbidden: error looking up service account shop/retired: serviceaccount "retired" not found',
  });
  expect(String(result.trace)).toMatch(/validating[\s\S]*ServiceAccount \(built-in plugin\): rejected/);
  const kept = await harness({ objects: [account('retired')] });
  expect(await kept.admit(review.debug(stored))).toBeAllowed();
});

it('lets a cluster run without the plugin', async () => {
  const h = await harness({ plugins: { disable: ['ServiceAccount'] } });
  const result = await h.admit(review.create(pod({ serviceAccountName: 'builder' })));
  expect(result).toBeAllowed();
  expect(specOf(result.object)).not.toHaveProperty('volumes');
});

it('keeps the token volume and mounts a pod already carries: a pod kube-apiserver stored, created again, gets no second one', async () => {
  // The pod as a real kube-apiserver v1.36.2 stored it (fixtures/apiserver-policies/default-tolerations.json),
  // its token volume and mounts added by kube's own ServiceAccount plugin; sent again as
  // `kubectl get -o yaml | kubectl create -f -` does, without what the server set on its first create.
  const stored = recordedStoredPod();
  const { uid: _uid, resourceVersion: _rv, generation: _generation, creationTimestamp: _created, ...metadata } = stored.metadata!;
  const sent: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: { ...metadata, namespace: 'shop' }, spec: stored.spec };
  const volumes = (object: KubeObject | null | undefined) => (specOf(object)?.volumes ?? []) as { name: string }[];
  const mounts = (object: KubeObject | null | undefined) => ((specOf(object)?.containers ?? []) as { volumeMounts?: unknown[] }[]).map((c) => c.volumeMounts);
  const h = await harness();
  const result = await h.admit(review.create(sent));
  expect(result).toBeAllowed();
  // mountServiceAccountToken (plugin/pkg/admission/serviceaccount/admission.go): a volume named
  // kube-api-access-* is the token volume, and a container mounting the token path gets no second mount.
  expect(volumes(result.object).map((v) => v.name)).toEqual(volumes(sent).map((v) => v.name));
  expect(volumes(result.object).filter((v) => v.name.startsWith('kube-api-access-'))).toHaveLength(1);
  expect(mounts(result.object)).toEqual(mounts(sent));
  expect(String(result.trace)).not.toContain('ServiceAccount (built-in plugin)');
});

it('the mock API serves each namespace’s default ServiceAccount, as the ServiceAccount controller creates it', async () => {
  const h = await harness({ mockApi: true });
  const reply = await call(h.api!, 'GET', '/api/v1/namespaces/shop/serviceaccounts/default');
  expect(reply.status).toBe(200);
  expect(reply.body).toMatchObject({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: 'shop' } });
  // A namespace the webhook creates gets one too.
  expect((await call(h.api!, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-b' } })).status).toBe(201);
  expect((await call(h.api!, 'GET', '/api/v1/namespaces/team-b/serviceaccounts/default')).status).toBe(200);
});
