// Conformance table of the policy examples on kubernetes.io:
//   VAP = docs/reference/access-authn-authz/validating-admission-policy/ ("Validating Admission Policy")
//   MAP = docs/reference/access-authn-authz/mutating-admission-policy/ ("Mutating Admission Policy")
//   TUT = docs/reference/access-authn-authz/admission-policy-tutorial/ ("Validating and Mutating Admission Policies")
// Each example's YAML is kept as the kubernetes/website repository has it (content/en/examples/… or the
// page's inline block); where the page gives no request, no binding or no outcome, the test says so and
// asserts what kube-apiserver v1.36 does. The harness serves admissionregistration.k8s.io/v1 policies only
// (their beta versions are off by default in 1.36), so an example stored with an older apiVersion is
// loaded with v1 and says so.
import { createHarness, objects, review, stub, users, type Harness, type HarnessOptions } from '../../lib';
import { parseManifestText } from '../../lib/config/parse';
import { mutating } from '../dispatch/helpers';
import type { KubeObject } from '../../lib/kube/admission';

type Json = Record<string, unknown>;

/** The documents of a YAML text, parsed as the harness parses manifest files. */
const docs = (text: string, file = 'documentation-example.yaml'): KubeObject[] => parseManifestText(text, file).map((d) => d.value as KubeObject);
const one = (text: string, file?: string): KubeObject => docs(text, file)[0]!;

const harnesses: Harness[] = [];
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((h) => h.close()));
});
async function harness(manifests: KubeObject[], options: Partial<HarnessOptions> = {}): Promise<Harness> {
  const h = await createHarness({ seed: 11, manifests: manifests as never[], ...options });
  harnesses.push(h);
  return h;
}

/** The Deployment `kubectl create deployment NAME --image=IMAGE --replicas=N -n NAMESPACE` sends. */
function kubectlCreateDeployment(name: string, image: string, replicas: number, namespace = 'default', labels: Record<string, string> = {}): KubeObject {
  return objects.fromYaml({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace, labels: { app: name, ...labels } },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: image.split('/').pop()!.split(':')[0], image }] } },
    },
  });
}

// The ReplicaLimit CRD the VAP page leaves to the policy author ("Parameter resources"): namespaced, since
// the bindings name a paramRef namespace.
const REPLICA_LIMIT_CRD = one(`
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: replicalimits.rules.example.com
spec:
  group: rules.example.com
  scope: Namespaced
  names: {plural: replicalimits, singular: replicalimit, kind: ReplicaLimit, listKind: ReplicaLimitList}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          maxReplicas: {type: integer}
          optionalNumber: {type: integer}
`);

// ---------------------------------------------------------------------------------------------------
// VAP page
// ---------------------------------------------------------------------------------------------------

// validatingadmissionpolicy/basic-example-policy.yaml
const BASIC_POLICY = `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: "demo-policy.example.com"
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
    - apiGroups:   ["apps"]
      apiVersions: ["v1"]
      operations:  ["CREATE", "UPDATE"]
      resources:   ["deployments"]
  validations:
    - expression: "object.spec.replicas <= 5"
`;
// validatingadmissionpolicy/basic-example-binding.yaml
const BASIC_BINDING = `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: "demo-binding-test.example.com"
spec:
  policyName: "demo-policy.example.com"
  validationActions: [Deny]
  matchResources:
    namespaceSelector:
      matchLabels:
        environment: test
`;

describe('VAP page, "Getting Started" › "Creating a ValidatingAdmissionPolicy"', () => {
  // VAP › Creating a ValidatingAdmissionPolicy: basic-example-policy.yaml + basic-example-binding.yaml.
  // Documented outcome: over 5 replicas is refused, with the error message asserted below.
  it('denies a Deployment of 6 replicas in a namespace labelled environment=test, with the documented message', async () => {
    const h = await harness([...docs(BASIC_POLICY), ...docs(BASIC_BINDING)], { namespaces: [{ name: 'default', labels: { environment: 'test' } }] });
    const result = await h.admit(review.create(kubectlCreateDeployment('nginx', 'nginx', 6)));
    expect(result).toBeDenied({ code: 422, reason: 'Invalid' });
    expect(result.status?.message).toContain(
      "ValidatingAdmissionPolicy 'demo-policy.example.com' with binding 'demo-binding-test.example.com' denied request: failed expression: object.spec.replicas <= 5",
    );
    expect(result.status?.message).toBe(
      `deployments.apps "nginx" is forbidden: ValidatingAdmissionPolicy 'demo-policy.example.com' with binding 'demo-binding-test.example.com' denied request: failed expression: object.spec.replicas <= 5`,
    );
  });

  // VAP › Creating a ValidatingAdmissionPolicy. Not stated on the page, implied by the expression and the
  // binding's namespaceSelector: 5 replicas pass; a namespace without environment=test is out of scope.
  it('admits 5 replicas, and any number outside the environment=test namespaces', async () => {
    const h = await harness([...docs(BASIC_POLICY), ...docs(BASIC_BINDING)], {
      namespaces: [
        { name: 'default', labels: { environment: 'test' } },
        { name: 'prod', labels: { environment: 'prod' } },
      ],
    });
    expect(await h.admit(review.create(kubectlCreateDeployment('nginx', 'nginx', 5)))).toBeAllowed();
    expect(await h.admit(review.create(kubectlCreateDeployment('nginx', 'nginx', 50, 'prod')))).toBeAllowed();
  });

  // VAP › Creating a ValidatingAdmissionPolicy: the rule also matches UPDATE. Not stated on the page: scaling
  // the Deployment to 6 with a replace is denied with the same message.
  it('denies an UPDATE that scales the Deployment to 6', async () => {
    const h = await harness([...docs(BASIC_POLICY), ...docs(BASIC_BINDING)], { namespaces: [{ name: 'default', labels: { environment: 'test' } }] });
    const stored = objects.stored(kubectlCreateDeployment('nginx', 'nginx', 3), { seed: 1 });
    const scaled = { ...stored, spec: { ...(stored as KubeObject & { spec: Json }).spec, replicas: 6 } } as KubeObject;
    expect((await h.admit(review.update(stored, scaled))).status?.message).toBe(
      `deployments.apps "nginx" is forbidden: ValidatingAdmissionPolicy 'demo-policy.example.com' with binding 'demo-binding-test.example.com' denied request: failed expression: object.spec.replicas <= 5`,
    );
  });
});

describe('VAP page, "Validation actions"', () => {
  // VAP › Validation actions: `validationActions: [Warn, Audit]` on the basic example's binding. Documented:
  // the failure is returned as a warning and written to the audit event; the request is not denied.
  it('[Warn, Audit] admits, warns once and records validation_failure', async () => {
    const binding = one(BASIC_BINDING) as KubeObject & { spec: Json };
    binding.spec.validationActions = (one('validationActions: [Warn, Audit]') as unknown as Json).validationActions;
    const h = await harness([...docs(BASIC_POLICY), binding], { namespaces: [{ name: 'default', labels: { environment: 'test' } }] });
    const result = await h.admit(review.create(kubectlCreateDeployment('nginx', 'nginx', 6)));
    expect(result).toBeAllowed();
    expect(result.warnings).toEqual([
      "Validation failed for ValidatingAdmissionPolicy 'demo-policy.example.com' with binding 'demo-binding-test.example.com': failed expression: object.spec.replicas <= 5",
    ]);
    expect(JSON.parse(result.auditAnnotations['validation.policy.admission.k8s.io/validation_failure']!)).toEqual([
      {
        message: 'failed expression: object.spec.replicas <= 5',
        policy: 'demo-policy.example.com',
        binding: 'demo-binding-test.example.com',
        expressionIndex: 0,
        validationActions: ['Warn', 'Audit'],
      },
    ]);
  });

  // VAP › Validation actions: Deny with Warn is not allowed; kube refuses such a binding on create.
  it('a binding with [Deny, Warn] is refused when it is loaded', async () => {
    const binding = one(BASIC_BINDING) as KubeObject & { spec: Json };
    binding.spec.validationActions = ['Deny', 'Warn'];
    await expect(harness([...docs(BASIC_POLICY), binding])).rejects.toThrow('must not contain both Deny and Warn');
  });

  // VAP › Validation actions: with failurePolicy Fail, an evaluation error is enforced by the actions like
  // a false validation: [Warn, Audit] warns and audits it instead of denying. No YAML on the page: the
  // basic policy with an expression that errors.
  it('with failurePolicy Fail, an evaluation error under [Warn, Audit] is warned and audited, not denied', async () => {
    const policy = one(BASIC_POLICY) as KubeObject & { spec: Json };
    policy.spec.validations = [{ expression: 'object.spec.nothing <= 5' }];
    const binding = one(BASIC_BINDING) as KubeObject & { spec: Json };
    binding.spec.validationActions = ['Warn', 'Audit'];
    const h = await harness([policy, binding], { namespaces: [{ name: 'default', labels: { environment: 'test' } }] });
    const result = await h.admit(review.create(kubectlCreateDeployment('nginx', 'nginx', 6)));
    expect(result).toBeAllowed();
    expect(result.warnings).toEqual([
      "Validation failed for ValidatingAdmissionPolicy 'demo-policy.example.com' with binding 'demo-binding-test.example.com': expression 'object.spec.nothing <= 5' resulted in error: no such key: nothing",
    ]);
    expect(result.auditAnnotations['validation.policy.admission.k8s.io/validation_failure']).toContain('no such key: nothing');
  });

  // VAP › Validation actions: errors of a policy with failurePolicy Ignore are not enforced by the actions.
  // No YAML on the page: the basic policy with failurePolicy Ignore and an expression that errors.
  it('with failurePolicy Ignore, an evaluation error is neither warned nor audited', async () => {
    const policy = one(BASIC_POLICY) as KubeObject & { spec: Json };
    policy.spec.failurePolicy = 'Ignore';
    policy.spec.validations = [{ expression: 'object.spec.nothing <= 5' }];
    const binding = one(BASIC_BINDING) as KubeObject & { spec: Json };
    binding.spec.validationActions = ['Warn', 'Audit'];
    const h = await harness([policy, binding], { namespaces: [{ name: 'default', labels: { environment: 'test' } }] });
    const result = await h.admit(review.create(kubectlCreateDeployment('nginx', 'nginx', 6)));
    expect(result).toBeAllowed();
    expect(result.warnings).toEqual([]);
    expect(result.auditAnnotations['validation.policy.admission.k8s.io/validation_failure']).toBeUndefined();
  });
});

// validatingadmissionpolicy/policy-with-param.yaml
const PARAM_POLICY = `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: "replicalimit-policy.example.com"
spec:
  failurePolicy: Fail
  paramKind:
    apiVersion: rules.example.com/v1
    kind: ReplicaLimit
  matchConstraints:
    resourceRules:
    - apiGroups:   ["apps"]
      apiVersions: ["v1"]
      operations:  ["CREATE", "UPDATE"]
      resources:   ["deployments"]
  validations:
    - expression: "object.spec.replicas <= params.maxReplicas"
      reason: Invalid
`;
// validatingadmissionpolicy/binding-with-param.yaml (the repository's copy with parameterNotFoundAction: Deny;
// release-1.30's copy has none, which the v1 API refuses: see binding-with-param-prod.yaml below)
const PARAM_BINDING_TEST = `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: "replicalimit-binding-test.example.com"
spec:
  policyName: "replicalimit-policy.example.com"
  validationActions: [Deny]
  paramRef:
    name: "replica-limit-test.example.com"
    namespace: "default"
    parameterNotFoundAction: Deny
  matchResources:
    namespaceSelector:
      matchLabels:
        environment: test
`;
// validatingadmissionpolicy/replicalimit-param.yaml (its "namesapce" typo included)
const PARAM_TEST = `
apiVersion: rules.example.com/v1
kind: ReplicaLimit
metadata:
  name: "replica-limit-test.example.com"
  namesapce: "default"
maxReplicas: 3
`;
// validatingadmissionpolicy/binding-with-param-prod.yaml
const PARAM_BINDING_PROD = `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: "replicalimit-binding-nontest"
spec:
  policyName: "replicalimit-policy.example.com"
  validationActions: [Deny]
  paramRef:
    name: "replica-limit-prod.example.com"
    namespace: "default"
  matchResources:
    namespaceSelector:
      matchExpressions:
      - key: environment
        operator: NotIn
        values:
        - test
`;
// validatingadmissionpolicy/replicalimit-param-prod.yaml
const PARAM_PROD = `
apiVersion: rules.example.com/v1
kind: ReplicaLimit
metadata:
  name: "replica-limit-prod.example.com"
maxReplicas: 100
`;

/** A param as `kubectl apply -f` in the default namespace creates it (kubectl fills in the namespace; the misspelt metadata field is not one). */
function appliedInDefault(text: string): KubeObject {
  const object = one(text);
  const { namesapce: _typo, ...metadata } = object.metadata as Json;
  return { ...object, metadata: { ...metadata, namespace: 'default' } } as KubeObject;
}

/** The prod binding with the parameterNotFoundAction the v1 API requires (the page's copy omits it). */
function prodBindingDeny(): KubeObject {
  const binding = one(PARAM_BINDING_PROD) as KubeObject & { spec: { paramRef: Json } };
  binding.spec.paramRef.parameterNotFoundAction = 'Deny';
  return binding;
}

describe('VAP page, "Parameter resources"', () => {
  const namespaces = [
    { name: 'default', labels: { environment: 'test' } },
    { name: 'staging', labels: { environment: 'staging' } },
  ];

  // VAP › Parameter resources: policy-with-param.yaml, binding-with-param.yaml, replicalimit-param.yaml.
  // Documented outcome: at most 3 replicas in the test environment. The page gives no message; kube's for a
  // validation without one names the failed expression.
  it('limits Deployments in environment=test to the 3 replicas of replica-limit-test.example.com', async () => {
    const h = await harness([REPLICA_LIMIT_CRD, ...docs(PARAM_POLICY), ...docs(PARAM_BINDING_TEST)], { namespaces, objects: [appliedInDefault(PARAM_TEST)] });
    expect(await h.admit(review.create(kubectlCreateDeployment('nginx', 'nginx', 3)))).toBeAllowed();
    const denied = await h.admit(review.create(kubectlCreateDeployment('nginx', 'nginx', 4)));
    expect(denied).toBeDenied({ code: 422, reason: 'Invalid' });
    expect(denied.status?.message).toBe(
      `deployments.apps "nginx" is forbidden: ValidatingAdmissionPolicy 'replicalimit-policy.example.com' with binding 'replicalimit-binding-test.example.com' denied request: failed expression: object.spec.replicas <= params.maxReplicas`,
    );
  });

  // VAP › Parameter resources: binding-with-param-prod.yaml as the page has it. The v1 API requires
  // paramRef.parameterNotFoundAction (no default in v1): kube-apiserver refuses this binding on create.
  it('binding-with-param-prod.yaml as written lacks parameterNotFoundAction, which the v1 API requires', async () => {
    await expect(harness([REPLICA_LIMIT_CRD, ...docs(PARAM_POLICY), ...docs(PARAM_BINDING_PROD)])).rejects.toThrow(
      'spec.paramRef.parameterNotFoundAction: Required value',
    );
  });

  // VAP › Parameter resources: the second binding gives every other environment a limit of 100 (the prod
  // binding, with parameterNotFoundAction added, and replicalimit-param-prod.yaml). A request must pass each
  // matching (binding, param).
  it('limits Deployments in every other environment to 100, and each binding to its own param', async () => {
    const h = await harness([REPLICA_LIMIT_CRD, ...docs(PARAM_POLICY), ...docs(PARAM_BINDING_TEST), prodBindingDeny()], {
      namespaces,
      objects: [appliedInDefault(PARAM_TEST), appliedInDefault(PARAM_PROD)],
    });
    expect(await h.admit(review.create(kubectlCreateDeployment('nginx', 'nginx', 100, 'staging')))).toBeAllowed();
    const denied = await h.admit(review.create(kubectlCreateDeployment('nginx', 'nginx', 101, 'staging')));
    expect(denied.status?.message).toBe(
      `deployments.apps "nginx" is forbidden: ValidatingAdmissionPolicy 'replicalimit-policy.example.com' with binding 'replicalimit-binding-nontest' denied request: failed expression: object.spec.replicas <= params.maxReplicas`,
    );
    expect((await h.admit(review.create(kubectlCreateDeployment('nginx', 'nginx', 4)))).status?.message).toContain(
      "with binding 'replicalimit-binding-test.example.com' denied request",
    );
  });

  // VAP › Parameter resources. Not stated on the page: before replica-limit-test.example.com exists, the
  // binding's parameterNotFoundAction Deny meets the policy's failurePolicy Fail.
  it('without its param, the test binding denies every matching request (parameterNotFoundAction Deny)', async () => {
    const h = await harness([REPLICA_LIMIT_CRD, ...docs(PARAM_POLICY), ...docs(PARAM_BINDING_TEST)], { namespaces });
    const result = await h.admit(review.create(kubectlCreateDeployment('nginx', 'nginx', 1)));
    expect(result.status?.message).toBe(
      "deployments.apps \"nginx\" is forbidden: ValidatingAdmissionPolicy 'replicalimit-policy.example.com' with binding 'replicalimit-binding-test.example.com' denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction",
    );
  });

  // VAP › Parameter resources: the page's recommended params check (YAML below), put first in
  // policy-with-param.yaml. Documented: params is null when the binding has no paramRef.
  it('the recommended "params != null" check denies with its message when the binding has no paramRef', async () => {
    const policy = one(PARAM_POLICY) as KubeObject & { spec: { validations: Json[] } };
    policy.spec.validations.unshift(
      ...(docs(`
- expression: "params != null"
  message: "params missing but required to bind to this policy"
`)[0] as unknown as Json[]),
    );
    const binding = one(PARAM_BINDING_TEST) as KubeObject & { spec: Json };
    delete binding.spec.paramRef;
    const h = await harness([REPLICA_LIMIT_CRD, policy, binding], { namespaces });
    const result = await h.admit(review.create(kubectlCreateDeployment('nginx', 'nginx', 1)));
    expect(result.status?.message).toBe(
      "deployments.apps \"nginx\" is forbidden: ValidatingAdmissionPolicy 'replicalimit-policy.example.com' with binding 'replicalimit-binding-test.example.com' denied request: params missing but required to bind to this policy",
    );
  });

  // VAP › Parameter resources › Optional parameters: the expression
  // `!has(params.optionalNumber) || (params.optionalNumber >= 5 && params.optionalNumber <= 10)`, in
  // policy-with-param.yaml's place. Documented: true without optionalNumber; otherwise 5..10 passes.
  it.each([
    [undefined, true],
    [5, true],
    [10, true],
    [4, false],
    [11, false],
  ])('optional parameter optionalNumber=%p: passes=%p', async (optionalNumber, passes) => {
    const policy = one(PARAM_POLICY) as KubeObject & { spec: Json };
    policy.spec.validations = [{ expression: '!has(params.optionalNumber) || (params.optionalNumber >= 5 && params.optionalNumber <= 10)' }];
    const param = appliedInDefault(PARAM_TEST) as KubeObject & Json;
    if (optionalNumber !== undefined) param.optionalNumber = optionalNumber;
    const h = await harness([REPLICA_LIMIT_CRD, policy, ...docs(PARAM_BINDING_TEST)], { namespaces, objects: [param] });
    const result = await h.admit(review.create(kubectlCreateDeployment('nginx', 'nginx', 1)));
    expect(result.allowed).toBe(passes);
  });

  // VAP › Parameter resources › Per-namespace Parameters: no YAML on the page. Its example: a binding whose
  // paramRef has no namespace reads the param from the namespace of the request (a ConfigMap in `default`).
  it('per-namespace parameters: a paramRef without namespace reads the ConfigMap of the request’s namespace', async () => {
    const policy = one(PARAM_POLICY) as KubeObject & { spec: Json };
    policy.spec.paramKind = { apiVersion: 'v1', kind: 'ConfigMap' };
    policy.spec.validations = [{ expression: 'object.spec.replicas <= int(params.data.maxReplicas)' }];
    const binding = one(PARAM_BINDING_TEST) as KubeObject & { spec: Json };
    binding.spec.paramRef = { name: 'replica-limit', parameterNotFoundAction: 'Deny' };
    delete binding.spec.matchResources;
    const limit = (namespace: string, max: string) => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'replica-limit', namespace },
      data: { maxReplicas: max },
    });
    const h = await harness([policy, binding], { namespaces, objects: [limit('default', '3'), limit('staging', '10')] });
    expect((await h.admit(review.create(kubectlCreateDeployment('nginx', 'nginx', 4)))).allowed).toBe(false);
    expect(await h.admit(review.create(kubectlCreateDeployment('nginx', 'nginx', 4, 'staging')))).toBeAllowed();
    expect((await h.admit(review.create(kubectlCreateDeployment('nginx', 'nginx', 11, 'staging')))).allowed).toBe(false);
  });

  // VAP › Parameter resources › Parameter selector: no YAML on the page. Documented: the policy runs once per
  // selected param, and all of them must pass.
  it('parameter selector: each selected param is evaluated and all must pass', async () => {
    const policy = one(PARAM_POLICY);
    const binding = one(PARAM_BINDING_TEST) as KubeObject & { spec: Json };
    binding.spec.paramRef = { selector: { matchLabels: { tier: 'limits' } }, namespace: 'default', parameterNotFoundAction: 'Deny' };
    const limit = (name: string, maxReplicas: number, labels: Record<string, string>) => ({
      apiVersion: 'rules.example.com/v1',
      kind: 'ReplicaLimit',
      metadata: { name, namespace: 'default', labels },
      maxReplicas,
    });
    const h = await harness([REPLICA_LIMIT_CRD, policy, binding], {
      namespaces,
      objects: [limit('loose', 10, { tier: 'limits' }), limit('strict', 3, { tier: 'limits' }), limit('unselected', 1, { tier: 'other' })],
    });
    expect(await h.admit(review.create(kubectlCreateDeployment('nginx', 'nginx', 3)))).toBeAllowed();
    expect((await h.admit(review.create(kubectlCreateDeployment('nginx', 'nginx', 4)))).allowed).toBe(false);
  });
});

describe('VAP page, "Failure Policy"', () => {
  // VAP › Failure Policy: validatingadmissionpolicy/failure-policy-ignore.yaml is a fragment (its "..."
  // elides the rest of the spec, and to a YAML parser it ends the document). Completed here with a ConfigMap
  // paramKind and a binding; the expression errors on a Pod (no spec.xyz). Documented outcome: Ignore
  // admits, Fail (the default) rejects.
  const FRAGMENT = `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
spec:
...
failurePolicy: Ignore # The default is "Fail"
validations:
- expression: "object.spec.xyz == params.x"
`;
  function completed(failurePolicy?: string): KubeObject[] {
    const [head, rest] = docs(FRAGMENT) as [KubeObject, Json];
    const spec: Json = {
      ...(failurePolicy ? { failurePolicy } : {}),
      validations: rest.validations,
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] }] },
    };
    return [
      { ...head, metadata: { name: 'xyz.example.com' }, spec } as KubeObject,
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingAdmissionPolicyBinding',
        metadata: { name: 'xyz-binding' },
        spec: { policyName: 'xyz.example.com', validationActions: ['Deny'], paramRef: { name: 'xyz', namespace: 'default', parameterNotFoundAction: 'Deny' } },
      },
    ];
  }
  const params = { objects: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'xyz', namespace: 'default' }, data: { x: 'y' } }] };

  // VAP › Failure Policy: failure-policy-ignore.yaml as written.
  it('the fragment parses into two documents: the "..." ends the first', () => {
    const [head, rest] = docs(FRAGMENT) as [Json, Json];
    expect(head).toEqual({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', spec: null });
    expect(rest).toEqual({ failurePolicy: 'Ignore', validations: [{ expression: 'object.spec.xyz == params.x' }] });
  });

  // VAP › Failure Policy: the fragment completed, with its failurePolicy Ignore.
  it('failurePolicy Ignore: the evaluation error is ignored and the Pod admitted', async () => {
    const h = await harness(completed((docs(FRAGMENT)[1] as unknown as Json).failurePolicy as string), params);
    expect(await h.admit(review.create(objects.pod({ name: 'web', namespace: 'default' }, { seed: 1 })))).toBeAllowed();
  });

  // VAP › Failure Policy: the fragment completed, failurePolicy left to its default.
  it('failurePolicy left out (Fail): the evaluation error rejects the Pod', async () => {
    const h = await harness(completed(), params);
    const result = await h.admit(review.create(objects.pod({ name: 'web', namespace: 'default' }, { seed: 1 })));
    expect(result.status?.message).toBe(
      `pods "web" is forbidden: ValidatingAdmissionPolicy 'xyz.example.com' with binding 'xyz-binding' denied request: expression 'object.spec.xyz == params.x' resulted in error: no such key: xyz`,
    );
  });
});

// A custom resource with the fields the VAP page's "Validation expression examples" table reads.
const WIDGET_CRD = one(`
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          minReplicas: {type: integer}
          replicas: {type: integer}
          maxReplicas: {type: integer}
          stateCounts: {type: object, additionalProperties: {type: integer}}
          list1: {type: array, items: {type: string}}
          list2: {type: array, items: {type: string}}
          map1: {type: object, additionalProperties: {type: string}}
          envars:
            type: array
            x-kubernetes-list-type: map
            x-kubernetes-list-map-keys: [name]
            items: {type: object, required: [name], properties: {name: {type: string}, value: {type: string}}}
          created: {type: string, format: date-time}
          ttl: {type: string, format: duration}
          expired: {type: string, format: date-time}
          health: {type: string}
          widgets:
            type: array
            x-kubernetes-list-type: map
            x-kubernetes-list-map-keys: [key]
            items: {type: object, required: [key], properties: {key: {type: string}, foo: {type: integer}}}
          prefix: {type: string}
          set1: {type: array, x-kubernetes-list-type: set, items: {type: string}}
          set2: {type: array, x-kubernetes-list-type: set, items: {type: string}}
          names: {type: array, x-kubernetes-list-type: set, items: {type: string}}
          details: {type: object, additionalProperties: {type: string}}
          clusters:
            type: array
            x-kubernetes-list-type: map
            x-kubernetes-list-map-keys: [name]
            items: {type: object, required: [name], properties: {name: {type: string}, region: {type: string}}}
          clusters2:
            type: array
            x-kubernetes-list-type: map
            x-kubernetes-list-map-keys: [name]
            items: {type: object, required: [name], properties: {name: {type: string}, region: {type: string}}}
          primary: {type: string}
`);

const widget = (fields: Json, name = 'web-1'): KubeObject =>
  ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name, namespace: 'default' }, ...fields }) as KubeObject;

/** One policy per expression of the table, each bound alone, run with h.policy(name). */
function tablePolicy(name: string, expression: string): KubeObject[] {
  return [
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name },
      spec: {
        matchConstraints: { resourceRules: [{ apiGroups: ['example.com'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['widgets'] }] },
        validations: [{ expression }],
      },
    },
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name },
      spec: { policyName: name, validationActions: ['Deny'] },
    },
  ] as KubeObject[];
}

describe('VAP page, "Validation Expression" › "Validation expression examples"', () => {
  // VAP › Validation expression examples: the table's expressions, each on a Widget that meets its stated
  // purpose and one that does not. The page states purposes, not requests: the Widgets are made here.
  const rows: [string, Json, Json][] = [
    [
      'object.minReplicas <= object.replicas && object.replicas <= object.maxReplicas',
      { minReplicas: 1, replicas: 2, maxReplicas: 3 },
      { minReplicas: 1, replicas: 4, maxReplicas: 3 },
    ],
    ["'Available' in object.stateCounts", { stateCounts: { Available: 1 } }, { stateCounts: { Pending: 1 } }],
    ['(size(object.list1) == 0) != (size(object.list2) == 0)', { list1: ['a'], list2: [] }, { list1: ['a'], list2: ['b'] }],
    ["object.health.startsWith('ok')", { health: 'ok: serving' }, { health: 'degraded' }],
    [
      "object.widgets.exists(w, w.key == 'x' && w.foo < 10)",
      { widgets: [{ key: 'x', foo: 9 }] },
      {
        widgets: [
          { key: 'x', foo: 10 },
          { key: 'y', foo: 1 },
        ],
      },
    ],
    ['object.metadata.name.startsWith(object.prefix)', { prefix: 'web' }, { prefix: 'db' }],
    ['object.set1.all(e, !(e in object.set2))', { set1: ['a', 'b'], set2: ['c'] }, { set1: ['a', 'b'], set2: ['b'] }],
    [
      'size(object.names) == size(object.details) && object.names.all(n, n in object.details)',
      { names: ['a', 'b'], details: { a: '1', b: '2' } },
      { names: ['a', 'b'], details: { a: '1', c: '2' } },
    ],
    [
      'size(object.clusters.filter(c, c.name == object.primary)) == 1',
      { clusters: [{ name: 'a' }, { name: 'b' }], primary: 'a' },
      { clusters: [{ name: 'a' }, { name: 'b' }], primary: 'z' },
    ],
  ];

  // VAP › Validation expression examples: the rows that run as written.
  it.each(rows)('%s', async (expression, passing, failing) => {
    const h = await harness([WIDGET_CRD, ...tablePolicy('row.example.com', expression)]);
    expect(await h.policy('row.example.com').evaluate(review.create(widget(passing), { catalog: h.catalog }))).toBeAllowed();
    const denied = await h.policy('row.example.com').evaluate(review.create(widget(failing), { catalog: h.catalog }));
    expect(denied.status?.message).toBe(
      `widgets.example.com "web-1" is forbidden: ValidatingAdmissionPolicy 'row.example.com' with binding 'row.example.com' denied request: failed expression: ${expression}`,
    );
  });

  // The row <code>!('MY_KEY' in object.map1) || object['MY_KEY'].matches('^[a-zA-Z]*$')</code> reads
  // MY_KEY from the object's root, not from map1: true without MY_KEY in map1, an error ("no such key")
  // with it, whatever its value. That is what kube does with the expression as written.
  // VAP › Validation expression examples: the map1/MY_KEY row.
  it("the MY_KEY row as written reads object['MY_KEY'], which a Widget does not have", async () => {
    const expression = "!('MY_KEY' in object.map1) || object['MY_KEY'].matches('^[a-zA-Z]*$')";
    const h = await harness([WIDGET_CRD, ...tablePolicy('row.example.com', expression)]);
    expect(await h.policy('row.example.com').evaluate(review.create(widget({ map1: { OTHER: '1' } }), { catalog: h.catalog }))).toBeAllowed();
    const result = await h.policy('row.example.com').evaluate(review.create(widget({ map1: { MY_KEY: 'abc' } }), { catalog: h.catalog }));
    expect(result.status?.message).toBe(
      `widgets.example.com "web-1" is forbidden: ValidatingAdmissionPolicy 'row.example.com' with binding 'row.example.com' denied request: expression '${expression}' resulted in error: no such key: MY_KEY`,
    );
  });

  // The listMap row `object.envars.filter(e, e.name == 'MY_ENV').all(e, e.value.matches('^[a-zA-Z]*$')` is
  // missing its last ")": kube refuses the policy on create (compilation failed).
  // VAP › Validation expression examples: the envars (listMap) row.
  it('the envars row as written does not compile: the policy is refused when it is loaded', async () => {
    const expression = "object.envars.filter(e, e.name == 'MY_ENV').all(e, e.value.matches('^[a-zA-Z]*$')";
    await expect(harness([WIDGET_CRD, ...tablePolicy('row.example.com', expression)])).rejects.toThrow(
      /spec\.validations\[0\]\.expression: Invalid value: .*compilation failed: ERROR: <input>:1:/,
    );
    const closed = `${expression})`;
    const h = await harness([WIDGET_CRD, ...tablePolicy('row.example.com', closed)]);
    expect(
      await h.policy('row.example.com').evaluate(
        review.create(
          widget({
            envars: [
              { name: 'MY_ENV', value: 'abc' },
              { name: 'OTHER', value: '1' },
            ],
          }),
          { catalog: h.catalog },
        ),
      ),
    ).toBeAllowed();
    expect(
      (await h.policy('row.example.com').evaluate(review.create(widget({ envars: [{ name: 'MY_ENV', value: 'a1' }] }), { catalog: h.catalog }))).allowed,
    ).toBe(false);
  });

  // The int-or-string row `type(object) == string ? object == '100%' : object == 1000` is written for a
  // CRD validation rule's `self`; in a policy `object` is the whole object, a map: the result is false.
  // VAP › Validation expression examples: the int-or-string row.
  it('the int-or-string row on a whole object is always false', async () => {
    const expression = "type(object) == string ? object == '100%' : object == 1000";
    const h = await harness([WIDGET_CRD, ...tablePolicy('row.example.com', expression)]);
    expect((await h.policy('row.example.com').evaluate(review.create(widget({}), { catalog: h.catalog }))).status?.message).toContain(
      `denied request: failed expression: ${expression}`,
    );
  });

  // The rows and statements below describe schema-typed values (timestamps, durations, list types), as CRD
  // validation rules have them. In a policy, `object` is dynamically typed: kube's admission CEL filter
  // (plugin/cel/filter.go objectToResolveVal) hands CEL the object as plain unstructured JSON, and the
  // CEL reference page (docs/reference/using-api/cel/, "Type checking") says the same. What kube does:

  // `has(object.expired) && object.created + object.ttl < object.expired`: strings, so `+` concatenates and
  // `<` compares text. 00:00 + 1h is after 00:30, yet "2024-01-01T00:00:00Z1h" < "2024-01-01T00:30:00Z".
  // VAP › Validation expression examples: the expired/created/ttl row.
  it('created + ttl < expired compares strings in a policy: 00:00 + 1h "before" 00:30 passes', async () => {
    const expression = 'has(object.expired) && object.created + object.ttl < object.expired';
    const h = await harness([WIDGET_CRD, ...tablePolicy('row.example.com', expression)]);
    const early = widget({ created: '2024-01-01T00:00:00Z', ttl: '1h', expired: '2024-01-01T00:30:00Z' });
    expect(await h.policy('row.example.com').evaluate(review.create(early, { catalog: h.catalog }))).toBeAllowed();
    expect(
      (await h.policy('row.example.com').evaluate(review.create(widget({ created: '2024-01-01T00:00:00Z', ttl: '1h' }), { catalog: h.catalog }))).allowed,
    ).toBe(false);
  });

  // VAP › Validation Expression: the page says equality of set- or map-typed lists ignores order. In a
  // policy, two listType=set lists in another order are not equal.
  it('listType=set lists in another order are not equal in a policy (plain CEL lists)', async () => {
    const h = await harness([WIDGET_CRD, ...tablePolicy('row.example.com', 'object.set1 == object.set2')]);
    expect((await h.policy('row.example.com').evaluate(review.create(widget({ set1: ['a', 'b'], set2: ['b', 'a'] }), { catalog: h.catalog }))).allowed).toBe(
      false,
    );
    expect(await h.policy('row.example.com').evaluate(review.create(widget({ set1: ['a', 'b'], set2: ['a', 'b'] }), { catalog: h.catalog }))).toBeAllowed();
  });

  // VAP › Validation Expression: the page says `+` unions set-typed lists and merges map-typed lists by
  // key. In a policy, `+` appends: ['a', 'b'] + ['b', 'c'] has four elements, and two map lists sharing a
  // key keep both entries.
  it('listType=set and listType=map concatenations append in a policy', async () => {
    const h = await harness([
      WIDGET_CRD,
      ...tablePolicy('set.example.com', "object.set1 + object.set2 == ['a', 'b', 'b', 'c']"),
      ...tablePolicy('map.example.com', 'size(object.clusters + object.clusters2) == 3'),
    ]);
    expect(await h.policy('set.example.com').evaluate(review.create(widget({ set1: ['a', 'b'], set2: ['b', 'c'] }), { catalog: h.catalog }))).toBeAllowed();
    const merged = widget({ clusters: [{ name: 'a', region: 'us' }, { name: 'b' }], clusters2: [{ name: 'a', region: 'eu' }] });
    expect(await h.policy('map.example.com').evaluate(review.create(merged, { catalog: h.catalog }))).toBeAllowed();
  });

  // VAP › Validation Expression (reason): without a reason, kube uses Invalid, and the reason picks the status
  // code. The basic example sets none: 422 Invalid.
  it('a validation without reason denies with reason Invalid (422)', async () => {
    const h = await harness([...docs(BASIC_POLICY), ...docs(BASIC_BINDING)], { namespaces: [{ name: 'default', labels: { environment: 'test' } }] });
    expect((await h.admit(review.create(kubectlCreateDeployment('nginx', 'nginx', 9)))).status).toMatchObject({ code: 422, reason: 'Invalid' });
  });
});

// access/validating-admission-policy-match-conditions.yaml
const MATCH_CONDITIONS_POLICY = `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: "demo-policy.example.com"
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
      - apiGroups:   ["*"]
        apiVersions: ["*"]
        operations:  ["CREATE", "UPDATE"]
        resources:   ["*"]
  matchConditions:
    - name: 'exclude-leases' # Each match condition must have a unique name
      expression: '!(request.resource.group == "coordination.k8s.io" && request.resource.resource == "leases")' # Match non-lease resources.
    - name: 'exclude-kubelet-requests'
      expression: '!("system:nodes" in request.userInfo.groups)' # Match requests made by non-node users.
    - name: 'rbac' # Skip RBAC requests.
      expression: 'request.resource.group != "rbac.authorization.k8s.io"'
  validations:
    - expression: "!object.metadata.name.contains('demo') || object.metadata.namespace == 'demo'"
`;
// The page gives this policy no binding: one binding, all requests.
const DEMO_BINDING = `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: "demo-binding"
spec:
  policyName: "demo-policy.example.com"
  validationActions: [Deny]
`;

describe('VAP page, "Matching requests: matchConditions"', () => {
  // VAP › Matching requests: matchConditions. The page states no request; per the conditions' comments:
  // leases, requests of nodes and RBAC requests skip the policy, which otherwise refuses a "demo" name
  // outside the demo namespace.
  const EXPRESSION = "!object.metadata.name.contains('demo') || object.metadata.namespace == 'demo'";
  const lease = (name: string) =>
    objects.fromYaml({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name, namespace: 'default' }, spec: { holderIdentity: 'node-1' } });
  const event = (name: string) =>
    objects.fromYaml({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name, namespace: 'default' },
      involvedObject: { kind: 'Pod', name: 'web', namespace: 'default' },
      reason: 'Pulled',
      message: 'pulled',
      type: 'Normal',
    });

  // VAP › Matching requests: matchConditions: the validation, for requests no condition excludes.
  it('denies a "demo" ConfigMap outside the demo namespace, and admits it inside', async () => {
    const h = await harness([...docs(MATCH_CONDITIONS_POLICY), ...docs(DEMO_BINDING)], { namespaces: [{ name: 'demo' }] });
    const denied = await h.admit(review.create(objects.configMap({ metadata: { name: 'demo-settings', namespace: 'default' } }, { seed: 1 })));
    expect(denied).toBeDenied({ code: 422, reason: 'Invalid' });
    expect(denied.status?.message).toBe(
      `configmaps "demo-settings" is forbidden: ValidatingAdmissionPolicy 'demo-policy.example.com' with binding 'demo-binding' denied request: failed expression: ${EXPRESSION}`,
    );
    expect(await h.admit(review.create(objects.configMap({ metadata: { name: 'demo-settings', namespace: 'demo' } }, { seed: 1 })))).toBeAllowed();
    expect(await h.admit(review.create(objects.configMap({ metadata: { name: 'settings', namespace: 'default' } }, { seed: 1 })))).toBeAllowed();
  });

  // VAP › Matching requests: matchConditions: the exclude-leases condition.
  it('exclude-leases: a Lease named demo is not evaluated', async () => {
    const h = await harness([...docs(MATCH_CONDITIONS_POLICY), ...docs(DEMO_BINDING)]);
    expect(await h.admit(review.create(lease('demo-lease')))).toBeAllowed();
  });

  // VAP › Matching requests: matchConditions: the exclude-kubelet-requests condition.
  it('exclude-kubelet-requests: an Event named demo is refused for an admin, not for a node', async () => {
    const h = await harness([...docs(MATCH_CONDITIONS_POLICY), ...docs(DEMO_BINDING)]);
    expect((await h.admit(review.create(event('demo.17a3f')))).allowed).toBe(false);
    expect(await h.admit(review.create(event('demo.17a3f'), { userInfo: users.node('node-1') }))).toBeAllowed();
  });

  // VAP › Matching requests: matchConditions: the rbac condition.
  it('rbac: a Role named demo is not evaluated', async () => {
    const h = await harness([...docs(MATCH_CONDITIONS_POLICY), ...docs(DEMO_BINDING)]);
    expect(await h.admit(review.create(objects.role({ metadata: { name: 'demo-reader', namespace: 'default' } }, { seed: 1 })))).toBeAllowed();
  });

  // VAP › Matching requests: matchConditions, the rules for errors: any false condition skips the policy
  // even when another errors; otherwise an error meets failurePolicy (Fail: rejected, Ignore: skipped).
  // No YAML on the page: the example's conditions with one that errors on objects without labels.
  it('an erroring condition: skipped when another is false, else failurePolicy decides', async () => {
    const policy = one(MATCH_CONDITIONS_POLICY) as KubeObject & { spec: { matchConditions: Json[] } };
    policy.spec.matchConditions.push({ name: 'labelled', expression: "object.metadata.labels['tier'] != 'ignored'" });
    const h = await harness([policy, ...docs(DEMO_BINDING)]);
    const unlabelled = objects.fromYaml({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'demo-x', namespace: 'default' } });
    expect(await h.admit(review.create(lease('demo-lease')))).toBeAllowed();
    expect((await h.admit(review.create(unlabelled))).status?.message).toBe(
      `configmaps "demo-x" is forbidden: ValidatingAdmissionPolicy 'demo-policy.example.com' with binding 'demo-binding' denied request: expression 'object.metadata.labels['tier'] != 'ignored'' resulted in error: no such key: labels`,
    );
    const ignoring = one(MATCH_CONDITIONS_POLICY) as KubeObject & { spec: { matchConditions: Json[]; failurePolicy: string } };
    ignoring.spec.matchConditions.push({ name: 'labelled', expression: "object.metadata.labels['tier'] != 'ignored'" });
    ignoring.spec.failurePolicy = 'Ignore';
    const h2 = await harness([ignoring, ...docs(DEMO_BINDING)]);
    expect(await h2.admit(review.create(unlabelled))).toBeAllowed();
  });
});

// access/validating-admission-policy-audit-annotation.yaml
const AUDIT_POLICY = `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: "demo-policy.example.com"
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
    - apiGroups:   ["apps"]
      apiVersions: ["v1"]
      operations:  ["CREATE", "UPDATE"]
      resources:   ["deployments"]
  validations:
    - expression: "object.spec.replicas > 50"
      messageExpression: "'Deployment spec.replicas set to ' + string(object.spec.replicas)"
  auditAnnotations:
    - key: "high-replica-count"
      valueExpression: "'Deployment spec.replicas set to ' + string(object.spec.replicas)"
`;

describe('VAP page, "Audit annotations"', () => {
  // VAP › Audit annotations: the page gives no binding for this policy; its name is the basic example's,
  // so basic-example-binding.yaml binds it. Documented outcome: the audit event's annotation asserted below.
  it('a Deployment of 128 replicas is admitted with the documented audit annotation', async () => {
    const h = await harness([...docs(AUDIT_POLICY), ...docs(BASIC_BINDING)], { namespaces: [{ name: 'default', labels: { environment: 'test' } }] });
    const result = await h.admit(review.create(kubectlCreateDeployment('nginx', 'nginx', 128)));
    expect(result).toBeAllowed();
    expect(result.auditAnnotations['demo-policy.example.com/high-replica-count']).toBe('Deployment spec.replicas set to 128');
  });

  // VAP › Audit annotations: the page says the annotation is left out at 50 replicas or fewer, its
  // expression then being null. As written, the valueExpression is never null, and the validation
  // `object.spec.replicas > 50` fails: kube denies the request with the messageExpression's text and still
  // publishes the annotation (validating/dispatcher.go publishes before it denies).
  it('as written, 3 replicas are denied by the validation and the annotation is still published', async () => {
    const h = await harness([...docs(AUDIT_POLICY), ...docs(BASIC_BINDING)], { namespaces: [{ name: 'default', labels: { environment: 'test' } }] });
    const result = await h.admit(review.create(kubectlCreateDeployment('nginx', 'nginx', 3)));
    expect(result.status?.message).toBe(
      `deployments.apps "nginx" is forbidden: ValidatingAdmissionPolicy 'demo-policy.example.com' with binding 'demo-binding-test.example.com' denied request: Deployment spec.replicas set to 3`,
    );
    expect(result.auditAnnotations['demo-policy.example.com/high-replica-count']).toBe('Deployment spec.replicas set to 3');
  });

  // VAP › Audit annotations: the behaviour the page describes needs a valueExpression with nothing to say
  // at 50 or fewer (kube leaves out an empty or null value); with it (and no validation), only the large
  // Deployment is annotated.
  it('with a valueExpression that is empty at 50 replicas or fewer, only larger Deployments are annotated', async () => {
    const policy = one(AUDIT_POLICY) as KubeObject & { spec: Json };
    delete policy.spec.validations;
    policy.spec.auditAnnotations = [
      { key: 'high-replica-count', valueExpression: "object.spec.replicas > 50 ? 'Deployment spec.replicas set to ' + string(object.spec.replicas) : ''" },
    ];
    const h = await harness([policy, ...docs(BASIC_BINDING)], { namespaces: [{ name: 'default', labels: { environment: 'test' } }] });
    expect((await h.admit(review.create(kubectlCreateDeployment('nginx', 'nginx', 128)))).auditAnnotations['demo-policy.example.com/high-replica-count']).toBe(
      'Deployment spec.replicas set to 128',
    );
    const small = await h.admit(review.create(kubectlCreateDeployment('nginx', 'nginx', 3)));
    expect(small).toBeAllowed();
    expect(small.auditAnnotations['demo-policy.example.com/high-replica-count']).toBeUndefined();
  });
});

// access/deployment-replicas-policy.yaml
const REPLICAS_MESSAGE_POLICY = `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: "deploy-replica-policy.example.com"
spec:
  paramKind:
    apiVersion: rules.example.com/v1
    kind: ReplicaLimit
  matchConstraints:
    resourceRules:
    - apiGroups:   ["apps"]
      apiVersions: ["v1"]
      operations:  ["CREATE", "UPDATE"]
      resources:   ["deployments"]
  validations:
  - expression: "object.spec.replicas <= params.maxReplicas"
    messageExpression: "'object.spec.replicas must be no greater than ' + string(params.maxReplicas)"
    reason: Invalid
`;

describe('VAP page, "Message expression"', () => {
  // VAP › Message expression: deployment-replicas-policy.yaml with a limit of 3 (replicalimit-param.yaml)
  // and a binding the page does not show (its message names demo-binding-test.example.com; the paramRef is
  // binding-with-param.yaml's). Documented outcome for `kubectl create deploy --image=nginx nginx
  // --replicas=5`: the message asserted below.
  it('denies 5 replicas with the documented message', async () => {
    const binding = one(BASIC_BINDING) as KubeObject & { spec: Json };
    binding.spec.policyName = 'deploy-replica-policy.example.com';
    binding.spec.paramRef = (one(PARAM_BINDING_TEST) as KubeObject & { spec: Json }).spec.paramRef;
    const h = await harness([REPLICA_LIMIT_CRD, ...docs(REPLICAS_MESSAGE_POLICY), binding], {
      namespaces: [{ name: 'default', labels: { environment: 'test' } }],
      objects: [appliedInDefault(PARAM_TEST)],
    });
    const result = await h.admit(review.create(kubectlCreateDeployment('nginx', 'nginx', 5)));
    expect(result).toBeDenied({ code: 422, reason: 'Invalid' });
    expect(result.status?.message).toBe(
      `deployments.apps "nginx" is forbidden: ValidatingAdmissionPolicy 'deploy-replica-policy.example.com' with binding 'demo-binding-test.example.com' denied request: object.spec.replicas must be no greater than 3`,
    );
  });

  // VAP › Message expression: the page says the static message replaces a messageExpression that fails to
  // evaluate or yields several lines. No YAML on the page: the example's validation with a static message
  // added and a messageExpression that errors, then one with a line break.
  async function withStaticMessage(messageExpression: string) {
    const policy = one(REPLICAS_MESSAGE_POLICY) as KubeObject & { spec: { validations: Json[] } };
    policy.spec.validations[0] = { ...policy.spec.validations[0], messageExpression, message: 'too many replicas' };
    const binding = one(BASIC_BINDING) as KubeObject & { spec: Json };
    binding.spec.policyName = 'deploy-replica-policy.example.com';
    binding.spec.paramRef = (one(PARAM_BINDING_TEST) as KubeObject & { spec: Json }).spec.paramRef;
    const h = await harness([REPLICA_LIMIT_CRD, policy, binding], {
      namespaces: [{ name: 'default', labels: { environment: 'test' } }],
      objects: [appliedInDefault(PARAM_TEST)],
    });
    return h.admit(review.create(kubectlCreateDeployment('nginx', 'nginx', 5)));
  }
  const STATIC = `deployments.apps "nginx" is forbidden: ValidatingAdmissionPolicy 'deploy-replica-policy.example.com' with binding 'demo-binding-test.example.com' denied request: too many replicas`;

  // VAP › Message expression: a messageExpression that errors.
  it('a messageExpression that fails to evaluate falls back to the static message', async () => {
    expect((await withStaticMessage("'limit: ' + string(params.noSuchField)")).status?.message).toBe(STATIC);
  });

  // VAP › Message expression: a messageExpression with a line break. kube's validator.go drops a result
  // that contains "\n" (or is longer than 5 KiB) and falls back to the static message.
  it('a messageExpression that evaluates to a multi-line string falls back to the static message', async () => {
    expect((await withStaticMessage("'object.spec.replicas must be no greater than\\n' + string(params.maxReplicas)")).status?.message).toBe(STATIC);
  });

  it('so does one longer than 5 KiB', async () => {
    const long = `[${"'xxxxxxxxxx', ".repeat(600)}'x'].join('')`; // 6 001 characters
    expect((await withStaticMessage(long)).status?.message).toBe(STATIC);
  });
});

// validatingadmissionpolicy/typechecking.yaml
const TYPECHECKING_POLICY = `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: "deploy-replica-policy.example.com"
spec:
  matchConstraints:
    resourceRules:
    - apiGroups:   ["apps"]
      apiVersions: ["v1"]
      operations:  ["CREATE", "UPDATE"]
      resources:   ["deployments"]
  validations:
  - expression: "object.replicas > 1" # should be "object.spec.replicas > 1"
    message: "must be replicated"
    reason: Invalid
`;
// validatingadmissionpolicy/typechecking-multiple-match.yaml
const TYPECHECKING_MULTIPLE_POLICY = `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: "replica-policy.example.com"
spec:
  matchConstraints:
    resourceRules:
    - apiGroups:   ["apps"]
      apiVersions: ["v1"]
      operations:  ["CREATE", "UPDATE"]
      resources:   ["deployments","replicasets"]
  validations:
  - expression: "object.replicas > 1" # should be "object.spec.replicas > 1"
    message: "must be replicated"
    reason: Invalid
`;

describe('VAP page, "Type checking"', () => {
  // VAP › Type checking: typechecking.yaml. Documented outcome: the status.typeChecking warning asserted
  // below, for spec.validations[0].expression. kube's text (typechecking.go TypeCheckingResult.String)
  // ends each kind's part with "\n", which the page's `|-` block does not show.
  it('typechecking.yaml: h.lint() reports the documented warning for Deployments', async () => {
    const h = await harness(docs(TYPECHECKING_POLICY));
    const findings = h.lint().filter((f) => f.id === 'policy-type-check');
    expect(findings).toMatchObject([{ configuration: 'deploy-replica-policy.example.com', webhook: 'spec.validations[0].expression' }]);
    expect(findings[0]!.message).toBe("apps/v1, Kind=Deployment: ERROR: <input>:1:7: undefined field 'replicas'\n | object.replicas > 1\n | ......^\n");
  });

  // VAP › Type checking: typechecking-multiple-match.yaml. Documented: one warning with a part for
  // Deployment and one for ReplicaSet (kube joins the "\n"-terminated parts with "\n").
  it('typechecking-multiple-match.yaml: one warning naming Deployment and ReplicaSet', async () => {
    const h = await harness(docs(TYPECHECKING_MULTIPLE_POLICY));
    const findings = h.lint().filter((f) => f.id === 'policy-type-check');
    expect(findings).toHaveLength(1);
    expect(findings[0]!.message).toBe(
      "apps/v1, Kind=Deployment: ERROR: <input>:1:7: undefined field 'replicas'\n | object.replicas > 1\n | ......^\n\napps/v1, Kind=ReplicaSet: ERROR: <input>:1:7: undefined field 'replicas'\n | object.replicas > 1\n | ......^\n",
    );
  });

  // VAP › Type checking: documented, a type-checking warning changes nothing at run time, where the failure
  // policy handles the error. The page gives no binding: one for all requests.
  it('typechecking.yaml still loads and runs: the expression errors and failurePolicy Fail denies', async () => {
    const binding = one(DEMO_BINDING) as KubeObject & { spec: Json };
    binding.spec.policyName = 'deploy-replica-policy.example.com';
    const h = await harness([...docs(TYPECHECKING_POLICY), binding]);
    const result = await h.admit(review.create(kubectlCreateDeployment('nginx', 'nginx', 3)));
    expect(result.status?.message).toBe(
      `deployments.apps "nginx" is forbidden: ValidatingAdmissionPolicy 'deploy-replica-policy.example.com' with binding 'demo-binding' denied request: expression 'object.replicas > 1' resulted in error: no such key: replicas`,
    );
  });
});

// access/image-matches-namespace-environment.policy.yaml
const IMAGE_POLICY = `
# This policy enforces that all containers of a deployment has the image repo match the environment label of its namespace.
# Except for "exempt" deployments, or any containers that do not belong to the "example.com" organization (e.g. common sidecars).
# For example, if the namespace has a label of {"environment": "staging"}, all container images must be either staging.example.com/*
# or do not contain "example.com" at all, unless the deployment has {"exempt": "true"} label.
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: "image-matches-namespace-environment.policy.example.com"
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
    - apiGroups:   ["apps"]
      apiVersions: ["v1"]
      operations:  ["CREATE", "UPDATE"]
      resources:   ["deployments"]
  variables:
  - name: environment
    expression: "'environment' in namespaceObject.metadata.labels ? namespaceObject.metadata.labels['environment'] : 'prod'"
  - name: exempt
    expression: "'exempt' in object.metadata.labels && object.metadata.labels['exempt'] == 'true'"
  - name: containers
    expression: "object.spec.template.spec.containers"
  - name: containersToCheck
    expression: "variables.containers.filter(c, c.image.contains('example.com/'))"
  validations:
  - expression: "variables.exempt || variables.containersToCheck.all(c, c.image.startsWith(variables.environment + '.'))"
    messageExpression: "'only ' + variables.environment + ' images are allowed in namespace ' + namespaceObject.metadata.name"
`;

describe('VAP page, "Variable composition"', () => {
  // VAP › Variable composition: the inline example. It is a spec fragment (no matchConstraints): completed
  // for Deployments, with a binding. `object.spec.metadata` does not exist on a Deployment (its template's
  // metadata is spec.template.metadata): the variable errors where variables.foo is read.
  it('the inline variables.foo example errors on a Deployment, reported where it is read', async () => {
    const fragment = one(`
spec:
  variables:
    - name: foo
      expression: "'foo' in object.spec.metadata.labels ? object.spec.metadata.labels['foo'] : 'default'"
  validations:
    - expression: variables.foo == 'bar'
`) as unknown as { spec: Json };
    const policy = one(BASIC_POLICY) as KubeObject & { spec: Json };
    policy.spec = { ...policy.spec, ...fragment.spec };
    const h = await harness([
      policy,
      ...docs(DEMO_BINDING).map((b) => ({ ...b, spec: { ...(b as KubeObject & { spec: Json }).spec, policyName: 'demo-policy.example.com' } }) as KubeObject),
    ]);
    const result = await h.admit(review.create(kubectlCreateDeployment('nginx', 'nginx', 1)));
    expect(result.status?.message).toBe(
      `deployments.apps "nginx" is forbidden: ValidatingAdmissionPolicy 'demo-policy.example.com' with binding 'demo-binding' denied request: expression 'variables.foo == 'bar'' resulted in error: composited variable "foo" fails to evaluate: no such key: metadata`,
    );
  });

  /** A binding of the image policy selecting namespace default (the page shows none). */
  const imageBinding = (): KubeObject => {
    const binding = one(BASIC_BINDING) as KubeObject & { spec: Json };
    binding.spec.policyName = 'image-matches-namespace-environment.policy.example.com';
    binding.spec.matchResources = { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'default' } } };
    return binding;
  };

  // VAP › Variable composition: image-matches-namespace-environment.policy.yaml bound to namespace default,
  // labelled environment=prod (the page shows no binding; its message names demo-binding-test.example.com:
  // one of that name, selecting that namespace). Documented outcome for `kubectl create deploy
  // --image=dev.example.com/nginx invalid`: the message asserted below.
  it('denies dev.example.com/nginx in the prod namespace default with the documented message', async () => {
    const h = await harness([...docs(IMAGE_POLICY), imageBinding()], { namespaces: [{ name: 'default', labels: { environment: 'prod' } }] });
    const result = await h.admit(review.create(kubectlCreateDeployment('invalid', 'dev.example.com/nginx', 1)));
    expect(result).toBeDenied({ code: 422, reason: 'Invalid' });
    expect(result.status?.message).toBe(
      `deployments.apps "invalid" is forbidden: ValidatingAdmissionPolicy 'image-matches-namespace-environment.policy.example.com' with binding 'demo-binding-test.example.com' denied request: only prod images are allowed in namespace default`,
    );
  });

  // VAP › Variable composition: the file's comments state the rest: prod.example.com images pass, images
  // outside example.com are not checked, exempt=true Deployments pass, a namespace without the label is prod.
  it('admits prod images, images outside example.com, exempt Deployments; an unlabelled namespace counts as prod', async () => {
    const h = await harness([...docs(IMAGE_POLICY), imageBinding()], { namespaces: [{ name: 'default', labels: { environment: 'prod' } }] });
    expect(await h.admit(review.create(kubectlCreateDeployment('web', 'prod.example.com/nginx', 1)))).toBeAllowed();
    expect(await h.admit(review.create(kubectlCreateDeployment('web', 'nginx', 1)))).toBeAllowed();
    expect(await h.admit(review.create(kubectlCreateDeployment('web', 'dev.example.com/nginx', 1, 'default', { exempt: 'true' })))).toBeAllowed();
    const unlabelled = await harness([...docs(IMAGE_POLICY), imageBinding()]);
    expect((await unlabelled.admit(review.create(kubectlCreateDeployment('web', 'staging.example.com/nginx', 1)))).status?.message).toContain(
      'denied request: only prod images are allowed in namespace default',
    );
    const staging = await harness([...docs(IMAGE_POLICY), imageBinding()], { namespaces: [{ name: 'default', labels: { environment: 'staging' } }] });
    expect(await staging.admit(review.create(kubectlCreateDeployment('web', 'staging.example.com/nginx', 1)))).toBeAllowed();
  });
});

// ---------------------------------------------------------------------------------------------------
// MAP page
// ---------------------------------------------------------------------------------------------------

// mutatingadmissionpolicy/applyconfiguration-example.yaml (the main branch's copy: apiVersion v1)
const SIDECAR_APPLY_POLICY = `
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata:
  name: "sidecar-policy.example.com"
spec:
  paramKind:
    kind: Sidecar
    apiVersion: mutations.example.com/v1
  matchConstraints:
    resourceRules:
    - apiGroups:   [""]
      apiVersions: ["v1"]
      operations:  ["CREATE"]
      resources:   ["pods"]
  matchConditions:
    - name: does-not-already-have-sidecar
      expression: "!object.spec.initContainers.exists(ic, ic.name == \\"mesh-proxy\\")"
  failurePolicy: Fail
  reinvocationPolicy: IfNeeded
  mutations:
    - patchType: "ApplyConfiguration"
      applyConfiguration:
        expression: >
          Object{
            spec: Object.spec{
              initContainers: [
                Object.spec.initContainers{
                  name: "mesh-proxy",
                  image: "mesh/proxy:v1.0.0",
                  args: ["proxy", "sidecar"],
                  restartPolicy: "Always"
                }
              ]
            }
          }
`;
// mutatingadmissionpolicy/applyconfiguration-example-binding.yaml
const SIDECAR_BINDING = `
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata:
  name: "sidecar-policy.example.com"
spec:
  matchResources:
    namespaceSelector: {}
  policyName: "sidecar-policy.example.com"
`;
// mutatingadmissionpolicy/json-patch-example.yaml (apiVersion v1 here; the stored copy says v1beta1)
const SIDECAR_JSONPATCH_POLICY = `
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata:
  name: "sidecar-policy.example.com"
spec:
  paramKind:
    kind: Sidecar
    apiVersion: mutations.example.com/v1
  matchConstraints:
    resourceRules:
    - apiGroups:   [""]
      apiVersions: ["v1"]
      operations:  ["CREATE"]
      resources:   ["pods"]
  matchConditions:
    - name: does-not-already-have-sidecar
      expression: "!object.spec.initContainers.exists(ic, ic.name == \\"mesh-proxy\\")"
  failurePolicy: Fail
  reinvocationPolicy: IfNeeded
  mutations:
    - patchType: "JSONPatch"
      jsonPatch:
        expression: >
          [
            JSONPatch{
              op: "add", path: "/spec/initContainers/-",
              value: Object.spec.initContainers{
                name: "mesh-proxy",
                image: "mesh-proxy/v1.0.0",
                restartPolicy: "Always"
              }
            }
          ]
`;
// The Sidecar kind the example's paramKind names; the page does not define it (the binding has no
// paramRef, so no Sidecar object is read: params is null).
const SIDECAR_CRD = one(`
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: sidecars.mutations.example.com
spec:
  group: mutations.example.com
  scope: Namespaced
  names: {plural: sidecars, singular: sidecar, kind: Sidecar, listKind: SidecarList}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
`);

/** The Pod the page shows: myapp in default, with its own init container (its containers are "..."). */
const myapp = (initContainers: Json[] = [{ name: 'myapp-initializer', image: 'example/initializer:v1.0.0' }]) =>
  objects.fromYaml({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'myapp', namespace: 'default' },
    spec: { initContainers, containers: [{ name: 'myapp', image: 'example/myapp:v1.0.0' }] },
  });
/** A Pod of one container, as written in a manifest. */
const plainPod = (name: string, labels?: Record<string, string>) =>
  objects.fromYaml({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', ...(labels ? { labels } : {}) },
    spec: { containers: [{ name: 'app', image: 'example/app:v1' }] },
  });
const initContainersOf = (object: KubeObject | null) => (object as { spec: { initContainers: Json[] } }).spec.initContainers;

describe('MAP page, "Getting Started" › "Create a MutatingAdmissionPolicy"', () => {
  // MAP › Create a MutatingAdmissionPolicy: applyconfiguration-example.yaml with its binding, as written.
  // Documented: creating the Pod adds the mesh-proxy initContainer. Its paramKind names a Sidecar kind the
  // page never defines: kube's policy source fails to resolve it, and the matching request meets
  // failurePolicy Fail (generic policy_dispatcher.go: "failed to configure policy: …").
  it('as written, without a Sidecar kind in the cluster, the Pod is refused: the paramKind is not found', async () => {
    const h = await harness([...docs(SIDECAR_APPLY_POLICY), ...docs(SIDECAR_BINDING)]);
    const result = await h.admit(review.create(myapp()));
    expect(result.allowed).toBe(false);
    expect(result.status).toMatchObject({
      code: 403,
      message: `policy "sidecar-policy.example.com" denied request: failed to configure policy: failed to find resource referenced by paramKind: 'mutations.example.com/v1, Kind=Sidecar'`,
    });
  });

  // MAP › Create a MutatingAdmissionPolicy, and › ApplyConfiguration (which rules out atomic structs, maps
  // and lists). The example sets `args`, an atomic list of a container: with the
  // Sidecar kind served, kube's patch/smd.go refuses the apply configuration, so the documented Pod is not
  // reached (the same as kyverno/kyverno#15094 reports for this example).
  it('with a Sidecar kind served, the example is refused: args is an atomic list', async () => {
    const h = await harness([SIDECAR_CRD, ...docs(SIDECAR_APPLY_POLICY), ...docs(SIDECAR_BINDING)]);
    const result = await h.admit(review.create(myapp()));
    expect(result.status).toMatchObject({
      code: 403,
      reason: 'Invalid',
      message:
        "policy 'sidecar-policy.example.com' with binding 'sidecar-policy.example.com' denied request: error applying patch: invalid ApplyConfiguration: may not mutate atomic arrays, maps or structs: .spec.initContainers[0].args",
    });
  });

  // MAP › Create a MutatingAdmissionPolicy: the documented Pod (mesh-proxy with image mesh/proxy:v1.0.0 and
  // restartPolicy Always beside myapp-initializer), from the example without `args`. The page lists
  // mesh-proxy first; server-side apply's merge keeps the Pod's own entries first and appends new keys.
  it('without args, the ApplyConfiguration adds the mesh-proxy init container to the documented Pod', async () => {
    const policy = one(SIDECAR_APPLY_POLICY) as KubeObject & { spec: { mutations: { applyConfiguration: { expression: string } }[] } };
    policy.spec.mutations[0]!.applyConfiguration.expression = policy.spec.mutations[0]!.applyConfiguration.expression.replace(
      'args: ["proxy", "sidecar"],',
      '',
    );
    const h = await harness([SIDECAR_CRD, policy, ...docs(SIDECAR_BINDING)]);
    const result = await h.admit(review.create(myapp()));
    expect(result).toBeAllowed();
    const init = initContainersOf(result.object);
    expect(init.map((c) => c.name)).toEqual(['myapp-initializer', 'mesh-proxy']);
    expect(init[1]).toMatchObject({ name: 'mesh-proxy', image: 'mesh/proxy:v1.0.0', restartPolicy: 'Always' });
    expect(init[0]).toMatchObject({ name: 'myapp-initializer', image: 'example/initializer:v1.0.0' });
  });

  // MAP › Create a MutatingAdmissionPolicy: the matchCondition reads object.spec.initContainers, which a
  // Pod without init containers does not have: the condition errors ("no such key") and failurePolicy Fail
  // refuses the Pod. Not stated on the page; it is what kube does with the condition as written.
  it('a Pod without init containers makes the matchCondition error: refused under failurePolicy Fail', async () => {
    const h = await harness([SIDECAR_CRD, ...docs(SIDECAR_JSONPATCH_POLICY), ...docs(SIDECAR_BINDING)]);
    const result = await h.admit(review.create(plainPod('plain')));
    expect(result.status?.message).toBe(
      `policy 'sidecar-policy.example.com' with binding 'sidecar-policy.example.com' denied request: expression '!object.spec.initContainers.exists(ic, ic.name == "mesh-proxy")' resulted in error: no such key: initContainers`,
    );
  });

  // MAP › Create a MutatingAdmissionPolicy: a Pod that already has mesh-proxy does not match
  // (does-not-already-have-sidecar) and is left as it is.
  it('a Pod that already has mesh-proxy is left unchanged', async () => {
    const h = await harness([SIDECAR_CRD, ...docs(SIDECAR_JSONPATCH_POLICY), ...docs(SIDECAR_BINDING)]);
    const pod = myapp([{ name: 'mesh-proxy', image: 'mesh-proxy/v0.9.0', restartPolicy: 'Always' }]);
    const result = await h.admit(review.create(pod));
    expect(initContainersOf(result.object).map((c) => [c.name, c.image])).toEqual([['mesh-proxy', 'mesh-proxy/v0.9.0']]);
  });
});

describe('MAP page, "Create a MutatingAdmissionPolicy": what the page states of policies and bindings', () => {
  // MAP › Create a MutatingAdmissionPolicy: documented, a policy acts only through a binding naming it.
  it('json-patch-example.yaml without its binding changes nothing', async () => {
    const h = await harness([SIDECAR_CRD, ...docs(SIDECAR_JSONPATCH_POLICY)]);
    const result = await h.admit(review.create(myapp()));
    expect(initContainersOf(result.object).map((c) => c.name)).toEqual(['myapp-initializer']);
  });

  // MAP › Create a MutatingAdmissionPolicy: documented, the mutations list may not be empty.
  it('a policy with an empty mutations list is refused when it is loaded', async () => {
    const policy = one(SIDECAR_JSONPATCH_POLICY) as KubeObject & { spec: Json };
    policy.spec.mutations = [];
    await expect(harness([SIDECAR_CRD, policy])).rejects.toThrow('spec.mutations: Required value: mutations must contain at least one item');
  });
});

describe('MAP page, "JSONPatch"', () => {
  // MAP › JSONPatch: json-patch-example.yaml, the same mutation as a JSON Patch. It has no args, so the
  // documented init container is added (image mesh-proxy/v1.0.0 as the file has it: no tag, so the API
  // defaults imagePullPolicy to Always).
  it('json-patch-example.yaml appends mesh-proxy to the init containers', async () => {
    const h = await harness([SIDECAR_CRD, ...docs(SIDECAR_JSONPATCH_POLICY), ...docs(SIDECAR_BINDING)]);
    const result = await h.admit(review.create(myapp()));
    expect(result).toBeAllowed();
    const init = initContainersOf(result.object);
    expect(init.map((c) => c.name)).toEqual(['myapp-initializer', 'mesh-proxy']);
    expect(init[1]).toMatchObject({
      name: 'mesh-proxy',
      image: 'mesh-proxy/v1.0.0',
      restartPolicy: 'Always',
      imagePullPolicy: 'Always',
      terminationMessagePath: '/dev/termination-log',
    });
  });

  // MAP › JSONPatch, with reinvocationPolicy: IfNeeded (the example's): a mutating webhook after the policy
  // changes the Pod, so kube re-runs the policy; the matchCondition now sees mesh-proxy and skips it, and
  // the Pod keeps a single mesh-proxy. Not stated on the page; it is why the example has the condition.
  it('re-run after a later webhook change (IfNeeded), the policy adds nothing twice', async () => {
    const h = await harness(
      [
        SIDECAR_CRD,
        ...docs(SIDECAR_JSONPATCH_POLICY),
        ...docs(SIDECAR_BINDING),
        mutating('labeler', { name: 'labeler.example.com', reinvocationPolicy: 'Never' }) as KubeObject,
      ],
      { stubs: { 'labeler.example.com': stub.patch([{ op: 'add', path: '/metadata/labels', value: { labelled: 'yes' } }]) } },
    );
    const result = await h.admit(review.create(myapp()));
    expect(result).toBeAllowed();
    expect(result.object?.metadata?.labels).toEqual({ labelled: 'yes' });
    expect(initContainersOf(result.object).map((c) => c.name)).toEqual(['myapp-initializer', 'mesh-proxy']);
    const trace = String(result.trace);
    expect(trace).toContain('mutating round 1');
    expect(trace).toContain(
      'MutatingAdmissionPolicy sidecar-policy.example.com with binding sidecar-policy.example.com: skipped — matchConditions "does-not-already-have-sidecar" evaluated to false',
    );
  });
});

// A custom resource for the JSONPatch section's expressions on /spec/example and /spec/selector.
const GADGET_CRD = one(`
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: gadgets, singular: gadget, kind: Gadget, listKind: GadgetList}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              example: {type: string}
              selector:
                type: object
                properties:
                  matchLabels: {type: object, additionalProperties: {type: string}}
`);

/** A MutatingAdmissionPolicy of one JSONPatch expression on `resources` of `group`, with a binding. */
function jsonPatchPolicy(expression: string, group: string, resources: string): KubeObject[] {
  return [
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingAdmissionPolicy',
      metadata: { name: 'patch.example.com' },
      spec: {
        matchConstraints: { resourceRules: [{ apiGroups: [group], apiVersions: ['v1'], operations: ['CREATE'], resources: [resources] }] },
        reinvocationPolicy: 'Never',
        mutations: [{ patchType: 'JSONPatch', jsonPatch: { expression } }],
      },
    },
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingAdmissionPolicyBinding',
      metadata: { name: 'patch.example.com' },
      spec: { policyName: 'patch.example.com' },
    },
  ] as KubeObject[];
}
const gadget = (spec: Json) => ({ apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'g', namespace: 'default' }, spec }) as KubeObject;

describe('MAP page, "JSONPatch" › the inline expressions', () => {
  // MAP › JSONPatch: the conditional modification (test, then replace). kube (patch/json_patch.go): a
  // failed test operation leaves the object as it was, with no error.
  const CONDITIONAL = `
  [
    JSONPatch{op: "test", path: "/spec/example", value: "Red"},
    JSONPatch{op: "replace", path: "/spec/example", value: "Green"}
  ]
`;
  // MAP › JSONPatch: the test/replace expression.
  it('test + replace: Red becomes Green; any other value is left as it is, and the request admitted', async () => {
    const h = await harness([GADGET_CRD, ...jsonPatchPolicy(CONDITIONAL, 'example.com', 'gadgets')]);
    expect((await h.admit(review.create(gadget({ example: 'Red' }), { catalog: h.catalog }))).object).toMatchObject({ spec: { example: 'Green' } });
    const blue = await h.admit(review.create(gadget({ example: 'Blue' }), { catalog: h.catalog }));
    expect(blue).toBeAllowed();
    expect(blue.object).toMatchObject({ spec: { example: 'Blue' } });
  });

  // MAP › JSONPatch: an object value written with a CEL Object type.
  it('add /spec/selector with an Object.spec.selector value', async () => {
    const expression = `
  [
    JSONPatch{
      op: "add",
      path: "/spec/selector",
      value: Object.spec.selector{matchLabels: {"environment": "test"}}
    }
  ]
`;
    const h = await harness([GADGET_CRD, ...jsonPatchPolicy(expression, 'example.com', 'gadgets')]);
    expect((await h.admit(review.create(gadget({ example: 'Red' }), { catalog: h.catalog }))).object).toMatchObject({
      spec: { example: 'Red', selector: { matchLabels: { environment: 'test' } } },
    });
  });

  // MAP › JSONPatch: a path key with '/' escaped by jsonpatch.escapeKey() (the example's list ends with a
  // trailing comma, which CEL allows).
  it('jsonpatch.escapeKey("example.com/environment") adds that label', async () => {
    const expression = `
  [
    JSONPatch{
      op: "add",
      path: "/metadata/labels/" + jsonpatch.escapeKey("example.com/environment"),
      value: "test"
    },
  ]
`;
    const h = await harness(jsonPatchPolicy(expression, '', 'pods'));
    const result = await h.admit(review.create(plainPod('web', { app: 'web' })));
    expect(result.object?.metadata?.labels).toEqual({ app: 'web', 'example.com/environment': 'test' });
  });
});

describe('MAP page, "API kinds exempt from mutating admission"', () => {
  // MAP › API kinds exempt from mutating admission: among the listed kinds, both policy kinds and both
  // binding kinds (the review kinds are not tried here). No YAML on the page: a policy labelling everything.
  const everything = (): KubeObject[] =>
    [
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'MutatingAdmissionPolicy',
        metadata: { name: 'label-everything' },
        spec: {
          matchConstraints: { resourceRules: [{ apiGroups: ['*'], apiVersions: ['*'], operations: ['CREATE'], resources: ['*'] }] },
          mutations: [{ patchType: 'ApplyConfiguration', applyConfiguration: { expression: 'Object{metadata: Object.metadata{labels: {"mutated": "yes"}}}' } }],
        },
      },
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'MutatingAdmissionPolicyBinding',
        metadata: { name: 'label-everything' },
        spec: { policyName: 'label-everything' },
      },
    ] as KubeObject[];

  // MAP › API kinds exempt from mutating admission.
  it('a ConfigMap is labelled, while policies and bindings are not', async () => {
    const h = await harness(everything());
    const settings = objects.fromYaml({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'default' }, data: { a: '1' } });
    expect((await h.admit(review.create(settings))).object?.metadata?.labels).toEqual({ mutated: 'yes' });
    for (const exempt of [...docs(BASIC_POLICY), ...docs(BASIC_BINDING), ...docs(SIDECAR_JSONPATCH_POLICY), ...docs(SIDECAR_BINDING)]) {
      const result = await h.admit(review.create(exempt));
      expect([exempt.kind, result.allowed, result.object?.metadata?.labels]).toEqual([exempt.kind, true, undefined]);
    }
  });
});

// ---------------------------------------------------------------------------------------------------
// TUT page (content/en/docs/reference/access-authn-authz/admission-policy-tutorial.md)
// ---------------------------------------------------------------------------------------------------

describe('TUT page, "Getting Started with Declarative Admission Policies"', () => {
  // TUT › Validating Admission Policy: the replica limit (<= 5) and demo-binding-test.example.com.
  const TUT_POLICY = `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: "replica-limit-prod.example.com"
spec:
  matchConstraints:
    resourceRules:
    - apiGroups:   ["apps"]
      apiVersions: ["v1"]
      operations:  ["CREATE", "UPDATE"]
      resources:   ["deployments"]
  validations:
    - expression: "object.spec.replicas <= 5"
`;
  const TUT_BINDING = `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: "demo-binding-test.example.com"
spec:
  policyName: "replica-limit-prod.example.com"
  validationActions: [Deny]
  matchResources:
    namespaceSelector:
      matchLabels:
        environment: test
`;
  // TUT › Mutating Admission Policy (Beta): set-default-owner and its binding, as on the page (v1beta1).
  const TUT_MAP = `
apiVersion: admissionregistration.k8s.io/v1beta1
kind: MutatingAdmissionPolicy
metadata:
  name: "set-default-owner"
spec:
  reinvocationPolicy: Never
  matchConstraints:
    resourceRules:
    - apiGroups:   [""]
      apiVersions: ["v1"]
      operations:  ["CREATE"]
      resources:   ["pods"]
  mutations:
    - patchType: "ApplyConfiguration"
      applyConfiguration:
        expression: "Object{metadata: Object.metadata{labels: {'owner': 'champbreed'}}}"
`;
  const TUT_MAP_BINDING = `
apiVersion: admissionregistration.k8s.io/v1beta1
kind: MutatingAdmissionPolicyBinding
metadata:
  name: "set-default-owner-binding"
spec:
  policyName: "set-default-owner"
`;
  const asV1 = (object: KubeObject): KubeObject => ({ ...object, apiVersion: 'admissionregistration.k8s.io/v1' });

  // TUT › Validating Admission Policy: no outcome on the page; the expression denies over 5 replicas in
  // environment=test.
  it('the tutorial’s ValidatingAdmissionPolicy denies 6 replicas in environment=test', async () => {
    const h = await harness([...docs(TUT_POLICY), ...docs(TUT_BINDING)], { namespaces: [{ name: 'default', labels: { environment: 'test' } }] });
    expect((await h.admit(review.create(kubectlCreateDeployment('nginx', 'nginx', 6)))).status?.message).toBe(
      `deployments.apps "nginx" is forbidden: ValidatingAdmissionPolicy 'replica-limit-prod.example.com' with binding 'demo-binding-test.example.com' denied request: failed expression: object.spec.replicas <= 5`,
    );
    expect(await h.admit(review.create(kubectlCreateDeployment('nginx', 'nginx', 5)))).toBeAllowed();
  });

  // TUT › Mutating Admission Policy (Beta): v1beta1 is off by default in kube-apiserver v1.36 (the
  // tutorial enables it with --runtime-config); the harness serves v1 only and refuses it.
  it('set-default-owner as written (v1beta1) is refused: v1.36 serves MutatingAdmissionPolicy at v1', async () => {
    await expect(harness([...docs(TUT_MAP), ...docs(TUT_MAP_BINDING)])).rejects.toThrow(
      'apiVersion: Unsupported value: "admissionregistration.k8s.io/v1beta1"',
    );
  });

  // TUT › Mutating Admission Policy (Beta): documented, every created Pod gets the owner label.
  it('set-default-owner at v1 gives every created Pod owner=champbreed', async () => {
    const h = await harness([...docs(TUT_MAP).map(asV1), ...docs(TUT_MAP_BINDING).map(asV1)]);
    const result = await h.admit(review.create(plainPod('web', { app: 'web' })));
    expect(result.object?.metadata?.labels).toEqual({ app: 'web', owner: 'champbreed' });
  });

  // TUT › Policy actions: the page lists mutationActions (Apply) for MutatingAdmissionPolicyBinding. The v1
  // MutatingAdmissionPolicyBinding has no such field: kube's strict field validation (kubectl's default)
  // refuses it as an unknown field.
  it('a binding with mutationActions: [Apply] is refused: the field does not exist', async () => {
    const binding = asV1(one(TUT_MAP_BINDING)) as KubeObject & { spec: Json };
    binding.spec.mutationActions = ['Apply'];
    await expect(harness([...docs(TUT_MAP).map(asV1), binding])).rejects.toThrow('spec.mutationActions: unknown field "mutationActions"');
  });
});

describe('VAP page, "Validation Expression": the authorizer variables', () => {
  // VAP › Validation Expression: the `authorizer` and `authorizer.requestResource` variables. The examples
  // are on the CEL reference page it links (docs/reference/using-api/cel/, "Kubernetes authorizer
  // library"): its three rows, each the validation of a policy on ConfigMaps. The authorizer here lets
  // alice create pods in default and get /healthz, and the service account default/myserviceaccount
  // delete deployments; bob may do nothing.
  const alice = { username: 'alice', groups: ['system:authenticated'] };
  const bob = { username: 'bob', groups: ['system:authenticated'] };
  const rows = ["authorizer.group('').resource('pods').namespace('default').check('create').allowed()", "authorizer.path('/healthz').check('get').allowed()"];
  const SERVICE_ACCOUNT_ROW = "authorizer.serviceAccount('default', 'myserviceaccount').resource('deployments').check('delete').allowed()";
  const authorizer: HarnessOptions['authorizer'] = (a) => {
    if (a.user.username === 'alice' && a.verb === 'create' && a.resource === 'pods' && a.namespace === 'default') return { decision: 'allow' };
    if (a.user.username === 'alice' && a.path === '/healthz' && a.verb === 'get') return { decision: 'allow' };
    if (a.user.username === 'system:serviceaccount:default:myserviceaccount' && a.verb === 'delete' && a.group === 'apps' && a.resource === 'deployments')
      return { decision: 'allow' };
    if (a.user.username === 'alice' && a.resource === 'configmaps' && a.verb === 'create') return { decision: 'allow' };
    return { decision: 'noOpinion' };
  };
  const onConfigMaps = (name: string, expression: string): KubeObject[] =>
    [
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingAdmissionPolicy',
        metadata: { name },
        spec: {
          matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }] },
          validations: [{ expression }],
        },
      },
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingAdmissionPolicyBinding',
        metadata: { name },
        spec: { policyName: name, validationActions: ['Deny'] },
      },
    ] as KubeObject[];
  const settings = () => objects.fromYaml({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'default' }, data: { a: '1' } });

  // VAP › Validation Expression (authorizer): the CEL page's first two rows.
  it.each(rows)('%s: true for alice, false for bob', async (expression) => {
    const h = await harness(onConfigMaps('authz.example.com', expression), { authorizer });
    expect(await h.admit(review.create(settings(), { userInfo: alice }))).toBeAllowed();
    const denied = await h.admit(review.create(settings(), { userInfo: bob }));
    expect(denied.status?.message).toBe(
      `configmaps "settings" is forbidden: ValidatingAdmissionPolicy 'authz.example.com' with binding 'authz.example.com' denied request: failed expression: ${expression}`,
    );
  });

  // VAP › Validation Expression (authorizer): the CEL page's service-account row.
  // The service-account row as written calls resource() on an Authorizer; kube's Authz library
  // (apiserver/pkg/cel/library/authz.go) declares resource() on GroupCheck only (after group()), so kube
  // refuses the expression when the policy is created.
  it('the service-account row as written does not compile: resource() needs group() first', async () => {
    await expect(harness(onConfigMaps('authz.example.com', SERVICE_ACCOUNT_ROW), { authorizer })).rejects.toThrow(
      "compilation failed: ERROR: <input>:1:66: found no matching overload for 'resource' applied to 'kubernetes.authorization.Authorizer.(string)'",
    );
  });

  // VAP › Validation Expression (authorizer): the service-account row, corrected.
  // With group('apps') added, the row checks the named service account, whoever makes the request.
  it("with group('apps'), the service-account row checks that account whoever the requester is", async () => {
    const h = await harness(
      onConfigMaps('authz.example.com', SERVICE_ACCOUNT_ROW.replace(".resource('deployments')", ".group('apps').resource('deployments')")),
      { authorizer },
    );
    expect(await h.admit(review.create(settings(), { userInfo: bob }))).toBeAllowed();
    const other = await harness(
      onConfigMaps(
        'authz.example.com',
        SERVICE_ACCOUNT_ROW.replace('myserviceaccount', 'other').replace(".resource('deployments')", ".group('apps').resource('deployments')"),
      ),
      { authorizer },
    );
    expect((await other.admit(review.create(settings(), { userInfo: alice }))).allowed).toBe(false);
  });

  // VAP › Validation Expression (authorizer): `authorizer.requestResource`, the check on the request's own
  // resource, namespace and name.
  it("authorizer.requestResource.check('create') is the requester's right to create this ConfigMap", async () => {
    const h = await harness(onConfigMaps('authz.example.com', "authorizer.requestResource.check('create').allowed()"), { authorizer });
    expect(await h.admit(review.create(settings(), { userInfo: alice }))).toBeAllowed();
    expect((await h.admit(review.create(settings(), { userInfo: bob }))).allowed).toBe(false);
  });
});
