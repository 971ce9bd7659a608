// PodSecurity in the admission chain: it judges the object after every mutating webhook, replayed from
// test/fixtures/apiserver-policies/psa-restricted-sidecar.json (a real kube-apiserver v1.36.2 run with
// --allow-privileged=true; with the default false, pod validation refuses first: validation-fixtures.test.ts).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createHarness, objects, review, type Harness } from '../../lib';
import type { AdmissionReview, KubeObject } from '../../lib/kube/admission';
import { behaviourWebhook } from '../webhooks/behaviours';

interface Recording {
  objectsCreated: { method: string; sent: KubeObject }[];
  requests: {
    label: string;
    clientRequest: { path: string; body: KubeObject };
    response: { status: number; body: unknown; warnings: string[] };
    webhookCalls: { behaviour: string; admissionReviewReceived: AdmissionReview }[];
    auditAnnotations: Record<string, string>;
  }[];
}
const recording = JSON.parse(readFileSync(path.join(__dirname, '../fixtures/apiserver-policies/psa-restricted-sidecar.json'), 'utf8')) as Recording;
const sent = recording.objectsCreated.map((o) => o.sent);
const labelsOf = (namespace: KubeObject) =>
  Object.fromEntries(Object.entries(namespace.metadata?.labels ?? {}).filter(([key]) => key.startsWith('pod-security')));
const created = sent.find((o) => o.kind === 'Namespace')!;
const relabelled = recording.objectsCreated.find((o) => o.method === 'PUT' && o.sent.kind === 'Namespace')!.sent;
const configuration = (name: string) => sent.filter((o) => o.metadata?.name === name);

const harnesses: Harness[] = [];
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((h) => h.close()));
});

describe('PodSecurity as a real kube-apiserver v1.36.2 runs it (fixtures/apiserver-policies/psa-restricted-sidecar.json)', () => {
  // Each request with the namespace labels and webhook configuration it was made under.
  const cases: [number, KubeObject, KubeObject[]][] = [
    [0, created, configuration('oracle3-psa-priv')],
    [1, relabelled, configuration('oracle3-psa-plain')],
    [2, relabelled, []],
  ];
  it.each(cases.map(([i, namespace, manifests]) => [recording.requests[i]!.label, i, namespace, manifests] as const))(
    '%s',
    async (_label, i, namespace, manifests) => {
      const request = recording.requests[i]!;
      const name = request.clientRequest.path.split('/')[4]!;
      const { handler, calls } = behaviourWebhook();
      const h = await createHarness({
        seed: 8,
        target: handler,
        allowPrivileged: true,
        manifests: manifests as never[],
        namespaces: [{ name, labels: labelsOf(namespace) }],
      });
      harnesses.push(h);
      const body = request.clientRequest.body;
      const result = await h.admit(review.create({ ...body, metadata: { ...body.metadata, namespace: name } }, { via: 'api' }));
      expect(calls.map((c) => c.behaviour)).toEqual(request.webhookCalls.map((c) => c.behaviour));
      if (request.response.status === 201) expect(result).toBeAllowed();
      else expect(result.status).toEqual(request.response.body);
      expect(result.warningHeaders).toEqual(request.response.warnings);
      expect(result.auditAnnotations['pod-security.kubernetes.io/enforce-policy']).toBe(request.auditAnnotations['pod-security.kubernetes.io/enforce-policy']);
    },
  );
});

describe('PodSecurity in the chain', () => {
  it('a Deployment in a namespace that warns under restricted gets warnings for its template, never a refusal', async () => {
    const h = await createHarness({
      seed: 8,
      namespaces: [{ name: 'strict', labels: { 'pod-security.kubernetes.io/enforce': 'restricted', 'pod-security.kubernetes.io/warn': 'restricted' } }],
    });
    harnesses.push(h);
    const deployment = objects.deployment({ name: 'web', namespace: 'strict' }, { seed: 8 });
    const result = await h.admit(review.create(deployment));
    expect(result).toBeAllowed();
    expect(result.warnings.some((w) => w.startsWith('would violate PodSecurity "restricted:latest": '))).toBe(true);
  });

  it('can be turned off, and configured: exemptions and defaults', async () => {
    const labels = { 'pod-security.kubernetes.io/enforce': 'restricted' };
    const pod = () => objects.pod({ name: 'web', namespace: 'strict' }, { seed: 8 });
    const off = await createHarness({ seed: 8, plugins: { disable: ['PodSecurity'] }, namespaces: [{ name: 'strict', labels }] });
    harnesses.push(off);
    expect(await off.admit(review.create(pod()))).toBeAllowed();
    const exempt = await createHarness({ seed: 8, podSecurity: { exemptions: { namespaces: ['strict'] } }, namespaces: [{ name: 'strict', labels }] });
    harnesses.push(exempt);
    expect(await exempt.admit(review.create(pod()))).toBeAllowed();
    const strict = await createHarness({ seed: 8, namespaces: [{ name: 'strict', labels }] });
    harnesses.push(strict);
    expect((await strict.admit(review.create(pod()))).status?.message).toMatch(/^pods "web" is forbidden: violates PodSecurity "restricted:latest": /);
  });
});

// PodSecurity reads the v1 field spec.hostUsers (policy/helpers.go relaxPolicyForUserNamespacePod), and
// so does pod validation: a pod in its own user namespace may unmask /proc (check_procMount.go relaxes
// the baseline rule from 1.35; procMount_restricted keeps the strict rule at the restricted level).
describe('PodSecurity judges a user-namespace pod on spec.hostUsers', () => {
  const unmaskedPod = (hostUsers?: boolean): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: 'ns' },
    spec: {
      ...(hostUsers === undefined ? {} : { hostUsers }),
      securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
      containers: [
        { name: 'app', image: 'nginx:1.27', securityContext: { procMount: 'Unmasked', allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } },
      ],
    },
  });
  const harnessAt = async (level: string): Promise<Harness> => {
    const h = await createHarness({ seed: 8, namespaces: [{ name: 'ns', labels: { 'pod-security.kubernetes.io/enforce': level } }] });
    harnesses.push(h);
    return h;
  };

  it('baseline admits procMount Unmasked with hostUsers: false', async () => {
    const h = await harnessAt('baseline');
    expect(await h.admit(review.create(unmaskedPod(false)))).toBeAllowed();
  });

  it('restricted refuses it with its own verdict, not a 422', async () => {
    const h = await harnessAt('restricted');
    const result = await h.admit(review.create(unmaskedPod(false)));
    expect(result.status).toMatchObject({
      code: 403,
      reason: 'Forbidden',
      message:
        'pods "web" is forbidden: violates PodSecurity "restricted:latest": procMount (container "app" must not set securityContext.procMount to "Unmasked")',
    });
  });

  it('without hostUsers: false the API refuses the pod first, at any level (422)', async () => {
    for (const level of ['privileged', 'baseline']) {
      const h = await harnessAt(level);
      for (const hostUsers of [undefined, true]) {
        const result = await h.admit(review.create(unmaskedPod(hostUsers)));
        expect(result.status).toMatchObject({
          code: 422,
          reason: 'Invalid',
          message: 'Pod "web" is invalid: spec.containers[0].securityContext.procMount: Invalid value: "Unmasked": `hostUsers` must be false to use `Unmasked`',
        });
      }
    }
  });
});
