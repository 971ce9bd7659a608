// One webhook, one ValidatingAdmissionPolicy with params and one MutatingAdmissionPolicy through h.admit,
// in kube-apiserver's order (AllOrderedPlugins in k8s.io/kubernetes/pkg/kubeapiserver/options/plugins.go): mutating policies, mutating webhooks, the registry,
// validating policies, validating webhooks.
import { createHarness, objects, review, stub, type Harness } from '../../lib';
import type { KubeObject } from '../../lib/kube/admission';
import { mutating, validating } from '../dispatch/helpers';

const PODS = { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] }] };
const manifests: KubeObject[] = [
  {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingAdmissionPolicy',
    metadata: { name: 'tier' },
    spec: {
      matchConstraints: PODS,
      mutations: [{ patchType: 'ApplyConfiguration', applyConfiguration: { expression: 'Object{metadata: Object.metadata{labels: {"tier": "web"}}}' } }],
    },
  },
  { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingAdmissionPolicyBinding', metadata: { name: 'tier' }, spec: { policyName: 'tier' } },
  {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'max-containers' },
    spec: {
      matchConstraints: PODS,
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      validations: [
        {
          expression: 'object.spec.containers.size() <= int(params.data[object.metadata.labels.tier])',
          messageExpression: "'at most ' + params.data[object.metadata.labels.tier] + ' containers for tier ' + object.metadata.labels.tier",
        },
      ],
    },
  },
  {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name: 'max-containers' },
    spec: { policyName: 'max-containers', validationActions: ['Deny'], paramRef: { name: 'limits', parameterNotFoundAction: 'Deny' } },
  },
  mutating('sidecar', { name: 'sidecar.example.com' }) as KubeObject,
  validating('audit', { name: 'audit.example.com' }) as KubeObject,
];

let h: Harness;
beforeAll(async () => {
  h = await createHarness({
    seed: 12,
    manifests: manifests as never[],
    namespaces: [{ name: 'shop' }],
    objects: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'limits', namespace: 'shop' }, data: { web: '2' } }],
    stubs: {
      'sidecar.example.com': stub.patch([{ op: 'add', path: '/spec/containers/-', value: { name: 'proxy', image: 'envoy:1.31' } }]),
      'audit.example.com': stub.allow(),
    },
  });
});
afterAll(() => h.close());

const pod = (images: string[]) => objects.pod({ name: 'web', namespace: 'shop', images }, { seed: 12 });

it('the webhook sees the mutating policy’s label; the validating policy judges the webhook’s sidecar, with params; the validating webhook comes last', async () => {
  const result = await h.admit(review.create(pod(['nginx:1.27'])));
  expect(result).toBeAllowed();
  const seen = h.stub('sidecar.example.com').received.at(-1)!.request!.object!;
  expect(seen.metadata?.labels?.tier).toBe('web');
  const order = result.trace.steps.filter((s) => s.decision === 'called' && !s.plugin).map((s) => `${s.policy?.kind ?? s.phase} ${s.webhook}`);
  expect(order).toEqual([
    'MutatingAdmissionPolicy tier',
    'mutating sidecar.example.com',
    'ValidatingAdmissionPolicy max-containers',
    'validating audit.example.com',
  ]);
});

it('two containers and the sidecar are over the limit of the pod’s tier: denied before the validating webhook', async () => {
  const calls = h.stub('audit.example.com').received.length;
  const result = await h.admit(review.create(pod(['nginx:1.27', 'redis:7'])));
  expect(result.status?.message).toBe(
    "pods \"web\" is forbidden: ValidatingAdmissionPolicy 'max-containers' with binding 'max-containers' denied request: at most 2 containers for tier web",
  );
  expect(h.stub('audit.example.com').received).toHaveLength(calls);
});
