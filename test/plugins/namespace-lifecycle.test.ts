// NamespaceLifecycle, the first plugin of the mutation phase (plugin/pkg/admission/namespace/lifecycle),
// replayed from test/fixtures/apiserver-policies/namespace-terminating.json (a real kube-apiserver v1.36.2)
// and checked for the rest of its documented behaviour.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createHarness, objects, review, stub, type Harness } from '../../lib';
import { mutating } from '../dispatch/helpers';
import type { AdmissionReview, KubeObject } from '../../lib/kube/admission';
import { behaviourWebhook } from '../webhooks/behaviours';

interface Recording {
  objectsCreated: { sent: KubeObject }[];
  requests: {
    label: string;
    clientRequest: { path: string; body: KubeObject };
    response: { status: number; body: unknown };
    webhookCalls: { admissionReviewReceived: AdmissionReview }[];
  }[];
}
const recording = JSON.parse(readFileSync(path.join(__dirname, '../fixtures/apiserver-policies/namespace-terminating.json'), 'utf8')) as Recording;

const harnesses: Harness[] = [];
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((h) => h.close()));
});

// Pods written here: the plugins after NamespaceLifecycle (ServiceAccount, PodSecurity) meet them as a
// client sends them, not as the object builders' run of those plugins left them.
const pod = (namespace: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web', namespace },
  spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] },
});
const terminating = (name: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name },
  spec: { finalizers: ['kubernetes'] },
  status: { phase: 'Terminating' },
});

describe('NamespaceLifecycle as a real kube-apiserver v1.36.2 runs it (fixtures/apiserver-policies/namespace-terminating.json)', () => {
  it.each(recording.requests.map((request, i) => [request.label, i] as const))(
    '%s: refused before any webhook, with the recorded status',
    async (_label, i) => {
      const request = recording.requests[i]!;
      const configurations = recording.objectsCreated.map((o) => o.sent).filter((o) => o.kind?.endsWith('WebhookConfiguration'));
      const { handler, calls } = behaviourWebhook();
      const h = await createHarness({ seed: 4, target: handler, manifests: configurations as never[], objects: [terminating('oracle3-nsterm')] });
      harnesses.push(h);
      const namespace = request.clientRequest.path.split('/')[4]!;
      const sent = request.clientRequest.body;
      const result = await h.admit(review.create({ ...sent, metadata: { ...sent.metadata, namespace } }, { via: 'api' }));
      expect(result.status).toEqual(request.response.body);
      expect(calls).toHaveLength(request.webhookCalls.length);
      expect(String(result.trace)).toContain('NamespaceLifecycle (built-in plugin): rejected');
    },
  );
});

describe('NamespaceLifecycle', () => {
  it('lets deletions and updates through in a terminating namespace, and refuses only creates', async () => {
    const h = await createHarness({ seed: 4, objects: [terminating('closing')] });
    harnesses.push(h);
    const stored = objects.stored(pod('closing'), { seed: 4 });
    expect(await h.admit(review.delete(stored))).toBeAllowed();
    expect(await h.admit(review.update(stored, { ...stored, metadata: { ...stored.metadata, labels: { a: 'b' } } }))).toBeAllowed();
  });

  it('never lets default, kube-system or kube-public be deleted', async () => {
    const h = await createHarness({ seed: 4 });
    harnesses.push(h);
    const namespace = objects.stored({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kube-system' } }, { seed: 4 });
    const result = await h.admit(review.delete(namespace));
    expect(result.status).toMatchObject({
      code: 403,
      reason: 'Forbidden',
      message: 'namespaces "kube-system" is forbidden: this namespace may not be deleted',
    });
  });

  it('answers 404 for an undeclared namespace, with a process warning naming the fix; disabled, the next plugins still fail to find it', async () => {
    const emitWarning = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      const h = await createHarness({ seed: 4 });
      harnesses.push(h);
      const result = await h.admit(review.create(pod('nowhere')));
      expect(result.status).toMatchObject({ code: 404, reason: 'NotFound', message: 'namespaces "nowhere" not found' });
      await h.admit(review.create(pod('nowhere')));
      expect(emitWarning.mock.calls).toEqual([
        [
          'h.admit: the namespace "nowhere" does not exist in the mock cluster, so NamespaceLifecycle answers 404 as kube-apiserver would; declare it with createHarness({ namespaces: [{ name: "nowhere" }] })',
          { code: 'ADMISSION_HARNESS_UNDECLARED_NAMESPACE' },
        ],
      ]);
    } finally {
      emitWarning.mockRestore();
    }
    // Disabled, the next plugins meet the missing namespace: it has no default ServiceAccount, and
    // PodSecurity cannot read its labels.
    const off = await createHarness({ seed: 4, plugins: { disable: ['NamespaceLifecycle'] } });
    harnesses.push(off);
    expect((await off.admit(review.create(pod('nowhere')))).status).toMatchObject({
      code: 403,
      message: 'pods "web" is forbidden: error looking up service account nowhere/default: serviceaccount "default" not found',
    });
    const accountless = await createHarness({ seed: 4, plugins: { disable: ['NamespaceLifecycle', 'ServiceAccount'] } });
    harnesses.push(accountless);
    expect((await accountless.admit(review.create(pod('nowhere')))).status).toMatchObject({
      code: 500,
      message: 'Internal error occurred: failed to lookup namespace "nowhere"',
    });
    const neither = await createHarness({ seed: 4, plugins: { disable: ['NamespaceLifecycle', 'ServiceAccount', 'PodSecurity'] } });
    harnesses.push(neither);
    expect(await neither.admit(review.create(pod('nowhere')))).toBeAllowed();
  });
});

describe('the undeclared-namespace warning', () => {
  it("is decided by the namespace NamespaceLifecycle found missing (its trace step says which), not by the refusal's text", async () => {
    const emitWarning = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      // A webhook denying in the very words of NamespaceLifecycle's 404, for a namespace that exists.
      const rules = [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }];
      const h = await createHarness({
        seed: 4,
        manifests: [mutating('m', { name: 'm.example.com', rules } as never)],
        stubs: { 'm.example.com': stub.deny({ code: 404, message: 'namespaces "default" not found' }) },
      });
      harnesses.push(h);
      const denied = await h.admit(review.create(pod('default')));
      expect(denied.status).toMatchObject({ code: 404 });
      expect(denied.status?.message).toContain('namespaces "default" not found');
      expect(denied.trace.steps.some((step) => step.missing)).toBe(false);
      expect(emitWarning).not.toHaveBeenCalled();

      const refused = await h.admit(review.create(pod('nowhere')));
      expect(refused.trace.steps.find((step) => step.webhook === 'NamespaceLifecycle')?.missing).toEqual({ kind: 'Namespace', namespace: '', name: 'nowhere' });
      expect(emitWarning.mock.calls.map(([, options]) => options)).toEqual([{ code: 'ADMISSION_HARNESS_UNDECLARED_NAMESPACE' }]);
    } finally {
      emitWarning.mockRestore();
    }
  });

  it('names no missing object for its other refusals: deleting an immortal namespace', async () => {
    const h = await createHarness({ seed: 4 });
    harnesses.push(h);
    const immortal = await h.admit(review.delete(objects.namespace({ name: 'default' }, { seed: 4 })));
    expect(immortal.status?.code).toBe(403);
    expect(immortal.trace.steps.find((step) => step.webhook === 'NamespaceLifecycle')?.missing).toBeUndefined();
  });
});
