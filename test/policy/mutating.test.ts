// MutatingAdmissionPolicy semantics beyond the recordings (apiserver plugin/policy/mutating and generic,
// k8s.io/kubernetes/pkg/kubeapiserver/options/plugins.go): both patch types, the decode and defaults after them, errors under each failurePolicy,
// params, the order against webhooks, h.policy(name), and load-time errors.
import { createHarness, objects, review, stub, type Harness, type HarnessOptions } from '../../lib';
import type { KubeObject } from '../../lib/kube/admission';
import { mutating } from '../dispatch/helpers';

type Json = Record<string, unknown>;

const PODS = { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'DELETE'], resources: ['pods'] }] };
const policy = (name: string, spec: Json): KubeObject => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'MutatingAdmissionPolicy',
  metadata: { name },
  spec: { matchConstraints: PODS, ...spec },
});
const binding = (name: string, spec: Json): KubeObject => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'MutatingAdmissionPolicyBinding',
  metadata: { name },
  spec,
});
const applyConfiguration = (expression: string) => ({ patchType: 'ApplyConfiguration', applyConfiguration: { expression } });
const jsonPatch = (expression: string) => ({ patchType: 'JSONPatch', jsonPatch: { expression } });
const pod = () => objects.pod({ name: 'web-1', namespace: 'shop', images: ['nginx:1.27'], labels: { app: 'web' } }, { seed: 3 });

const harnesses: Harness[] = [];
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((h) => h.close()));
});
async function harness(manifests: KubeObject[], options: Partial<HarnessOptions> = {}): Promise<Harness> {
  const h = await createHarness({ seed: 9, namespaces: [{ name: 'shop' }], manifests: manifests as never[], ...options });
  harnesses.push(h);
  return h;
}

describe('mutations', () => {
  it('an ApplyConfiguration merges a sidecar into containers by name; the API defaults it before the webhook sees it', async () => {
    const sidecar = applyConfiguration('Object{spec: Object.spec{containers: [Object.spec.containers{name: "proxy", image: "envoy:1.31"}]}}');
    const h = await harness(
      [policy('inject', { mutations: [sidecar] }), binding('inject', { policyName: 'inject' }), mutating('m', { name: 'm.example.com' })],
      { stubs: { 'm.example.com': stub.allow() } },
    );
    const result = await h.admit(review.create(pod()));
    expect(result).toBeAllowed();
    const seen = h.stub('m.example.com').received[0]!.request!.object as { spec: { containers: Json[] } };
    expect(seen.spec.containers.map((c) => c.name)).toEqual([pod().spec!.containers![0]!.name, 'proxy']);
    expect(seen.spec.containers[1]).toMatchObject({
      name: 'proxy',
      image: 'envoy:1.31',
      terminationMessagePath: '/dev/termination-log',
      imagePullPolicy: 'IfNotPresent',
    });
    expect(String(result.trace)).toMatch(/MutatingAdmissionPolicy inject with binding inject: mutated/);
    expect(Object.keys(result.auditAnnotations).filter((key) => key.includes('mutation'))).toEqual(['mutation.webhook.admission.k8s.io/round_0_index_0']);
  });

  it('a JSONPatch adds a label with an escaped key, reading params', async () => {
    const label = jsonPatch('[JSONPatch{op: "add", path: "/metadata/labels/" + jsonpatch.escapeKey("example.com/team"), value: params.data.team}]');
    const h = await harness(
      [
        policy('team', { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, mutations: [label] }),
        binding('team', { policyName: 'team', paramRef: { name: 'owner', parameterNotFoundAction: 'Deny' } }),
      ],
      {
        objects: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'owner', namespace: 'shop' }, data: { team: 'payments' } }],
      },
    );
    const result = await h.admit(review.create(pod()));
    expect(result.object?.metadata?.labels).toEqual({ app: 'web', 'example.com/team': 'payments' });
  });

  it('a DELETE has no object: the mutations are not evaluated', async () => {
    const h = await harness([
      policy('p', { mutations: [applyConfiguration('Object{metadata: Object.metadata{labels: {"x": object.metadata.name}}}')] }),
      binding('b', { policyName: 'p' }),
    ]);
    expect(await h.admit(review.delete(objects.stored(pod(), { seed: 3 })))).toBeAllowed();
  });
});

describe('errors', () => {
  const failing = (failurePolicy: 'Fail' | 'Ignore') => [
    policy('p', { failurePolicy, mutations: [applyConfiguration('Object{metadata: Object.metadata{labels: {"x": object.spec.nothing}}}')] }),
    binding('b', { policyName: 'p' }),
  ];

  it('under failurePolicy Fail, a failed mutation denies: 403, reason Invalid, the policy and binding named', async () => {
    const h = await harness(failing('Fail'));
    const result = await h.admit(review.create(pod()));
    const message = `policy 'p' with binding 'b' denied request: expression 'Object{metadata: Object.metadata{labels: {"x": object.spec.nothing}}}' resulted in error: no such key: nothing`;
    expect(result.status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message,
      reason: 'Invalid',
      details: { name: 'web-1', kind: 'pods', causes: [{ message }] },
      code: 403,
    });
    // The binding's step carries the refusal, so coverage can say what ended the chain.
    expect(result.trace.steps.find((s) => s.policy?.kind === 'MutatingAdmissionPolicy' && s.webhook === 'b')?.rejection).toEqual(result.status);
    expect(String(result.trace)).toContain(`MutatingAdmissionPolicy p with binding b: rejected — 403 ${message}`);
  });

  it('under failurePolicy Ignore, the request goes on unchanged', async () => {
    const h = await harness(failing('Ignore'));
    const result = await h.admit(review.create(pod()));
    expect(result).toBeAllowed();
    expect(result.object?.metadata?.labels).toEqual({ app: 'web' });
  });

  it('a policy may not set an atomic list: the merge refuses it', async () => {
    const h = await harness([
      policy('p', { mutations: [applyConfiguration('Object{spec: Object.spec{containers: [Object.spec.containers{name: "web", command: ["sh"]}]}}')] }),
      binding('b', { policyName: 'p' }),
    ]);
    const result = await h.admit(
      review.create(objects.pod({ name: 'web-1', namespace: 'shop', containers: [{ name: 'web', image: 'nginx:1.27' }] } as never, { seed: 3 })),
    );
    expect(result.status?.message).toContain(
      "policy 'p' with binding 'b' denied request: error applying patch: invalid ApplyConfiguration: may not mutate atomic arrays, maps or structs: .spec.containers[0].command",
    );
  });
});

describe('h.policy(name) for a mutating policy', () => {
  it('runs its mutations alone on the request and returns the object, with the errors it met', async () => {
    const h = await harness([
      policy('label', { mutations: [applyConfiguration('Object{metadata: Object.metadata{labels: {"seen": "yes"}}}')] }),
      binding('b', { policyName: 'label' }),
    ]);
    const handle = h.policy('label');
    expect(handle.kind).toBe('MutatingAdmissionPolicy');
    const evaluation = await handle.evaluate(review.create(pod()));
    expect(evaluation).toMatchObject({ allowed: true, matched: true, errors: [] });
    expect(evaluation.object?.metadata?.labels).toEqual({ app: 'web', seen: 'yes' });
  });
});

describe('loading, as the API validates mutating policies on create', () => {
  it.each([
    ['no mutations', policy('p', {}), 'spec.mutations: Required value: mutations must contain at least one item'],
    [
      'an unsupported patchType',
      policy('p', { mutations: [{ patchType: 'Merge' }] }),
      'spec.mutations[0].patchType: Unsupported value: "Merge": supported values: "ApplyConfiguration", "JSONPatch"',
    ],
    [
      'the expression under the other patchType',
      policy('p', { mutations: [{ patchType: 'JSONPatch', applyConfiguration: { expression: 'Object{}' } }] }),
      'spec.mutations[0].jsonPatch: Required value: jsonPatch is required when patchType is JSONPatch',
    ],
    [
      'an unsupported reinvocationPolicy',
      policy('p', { reinvocationPolicy: 'Always', mutations: [applyConfiguration('Object{}')] }),
      'spec.reinvocationPolicy: Unsupported value: "Always": supported values: "IfNeeded", "Never"',
    ],
    [
      'an expression of the wrong type',
      policy('p', { mutations: [applyConfiguration('Object.metadata{}')] }),
      'spec.mutations[0].applyConfiguration.expression: Invalid value: "Object.metadata{}": must evaluate to Object but got Object.metadata',
    ],
  ])('%s', async (_what, manifest, message) => {
    await expect(harness([manifest])).rejects.toThrow(message);
  });
});

describe('h.explain', () => {
  it('lists mutating policies before the mutating webhooks', async () => {
    const h = await harness(
      [policy('label', { mutations: [applyConfiguration('Object{}')] }), binding('b', { policyName: 'label' }), mutating('m', { name: 'm.example.com' })],
      { stubs: { 'm.example.com': stub.allow() } },
    );
    const text = String(h.explain(review.create(pod())));
    expect(text).toContain('├─ mutating admission policies\n│  └─ MutatingAdmissionPolicy label with binding b: evaluated — rules[0] matched CREATE v1 pods');
    expect(text.indexOf('mutating admission policies')).toBeLessThan(text.indexOf('─ mutating\n'));
  });
});

describe('metrics', () => {
  it('counts each mutation in apiserver_mutating_admission_policy_check_total by policy, binding and error type', async () => {
    const h = await harness([
      policy('label', { mutations: [applyConfiguration('Object{metadata: Object.metadata{labels: {"seen": "yes"}}}')] }),
      binding('b', { policyName: 'label' }),
      policy('broken', { failurePolicy: 'Ignore', mutations: [applyConfiguration('Object{metadata: Object.metadata{labels: {"x": object.spec.nothing}}}')] }),
      binding('b2', { policyName: 'broken' }),
    ]);
    await h.admit(review.create(pod()));
    const metrics = h.metrics();
    expect(metrics).toContain('apiserver_mutating_admission_policy_check_total{error_type="no_error",policy="label",policy_binding="b"} 1');
    expect(metrics).toContain('apiserver_mutating_admission_policy_check_total{error_type="invalid_error",policy="broken",policy_binding="b2"} 1');
  });
});
