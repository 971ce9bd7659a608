// ValidatingAdmissionPolicy semantics beyond the recordings (apiserver plugin/policy/validating,
// k8s.io/kubernetes/pkg/kubeapiserver/options/plugins.go): failure policies, messages, reasons, variables, matchConditions, matching, params,
// audit annotations and the order against validating webhooks.
import { createHarness, objects, review, stub, type Harness, type HarnessOptions } from '../../lib';
import type { KubeObject } from '../../lib/kube/admission';
import { validating } from '../dispatch/helpers';

type Json = Record<string, unknown>;

const policy = (name: string, spec: Json): KubeObject => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicy',
  metadata: { name },
  spec: { matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['pods'] }] }, ...spec },
});
const binding = (name: string, spec: Json): KubeObject => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicyBinding',
  metadata: { name },
  spec: { validationActions: ['Deny'], ...spec },
});
const pod = (images: string[] = ['nginx:1.27'], labels: Record<string, string> = { app: 'web' }) =>
  objects.pod({ name: 'web-1', namespace: 'shop', images, labels }, { seed: 3 });

const harnesses: Harness[] = [];
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((h) => h.close()));
});
async function harness(manifests: KubeObject[], options: Partial<HarnessOptions> = {}): Promise<Harness> {
  const h = await createHarness({ seed: 9, namespaces: [{ name: 'shop', labels: { team: 'shop' } }], manifests: manifests as never[], ...options });
  harnesses.push(h);
  return h;
}

describe('decisions and their texts', () => {
  it('a runtime error under failurePolicy Fail denies with the expression quoted; under Ignore it admits', async () => {
    const failing = { validations: [{ expression: 'object.spec.missing == 1' }] };
    const fail = await harness([policy('p', failing), binding('b', { policyName: 'p' })]);
    const denied = await fail.admit(review.create(pod()));
    expect(denied.status).toMatchObject({
      code: 422,
      reason: 'Invalid',
      message: `pods "web-1" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: expression 'object.spec.missing == 1' resulted in error: no such key: missing`,
    });
    const ignore = await harness([policy('p', { ...failing, failurePolicy: 'Ignore' }), binding('b', { policyName: 'p' })]);
    expect(await ignore.admit(review.create(pod()))).toBeAllowed();
  });

  it('message, then messageExpression, then the expression: the first non-empty one is the message', async () => {
    const h = await harness([
      policy('p', {
        validations: [
          { expression: 'false', message: '  plain message  ' },
          { expression: 'false', message: 'ignored', messageExpression: "'from ' + object.metadata.name" },
          { expression: 'false', messageExpression: "''" },
        ],
      }),
      binding('b', { policyName: 'p', validationActions: ['Warn'] }),
    ]);
    const result = await h.admit(review.create(pod()));
    expect(result).toBeAllowed();
    expect(result.warnings).toEqual([
      "Validation failed for ValidatingAdmissionPolicy 'p' with binding 'b': plain message",
      "Validation failed for ValidatingAdmissionPolicy 'p' with binding 'b': from web-1",
      "Validation failed for ValidatingAdmissionPolicy 'p' with binding 'b': failed expression: false",
    ]);
  });

  it('every denied, warned or audited validation is counted in apiserver_validating_admission_policy_check_total', async () => {
    const h = await harness([
      policy('p', { validations: [{ expression: 'false', message: 'no' }] }),
      binding('deny', { policyName: 'p' }),
      binding('warn', { policyName: 'p', validationActions: ['Warn', 'Audit'] }),
      policy('q', { failurePolicy: 'Ignore', validations: [{ expression: 'object.nothing == 1' }] }),
      binding('q', { policyName: 'q' }),
    ]);
    await h.admit(review.create(pod()));
    const metrics = h.metrics();
    expect(metrics).toContain(
      'apiserver_validating_admission_policy_check_total{enforcement_action="deny",error_type="no_error",policy="p",policy_binding="deny"} 1',
    );
    expect(metrics).toContain(
      'apiserver_validating_admission_policy_check_total{enforcement_action="warn",error_type="no_error",policy="p",policy_binding="warn"} 1',
    );
    expect(metrics).toContain(
      'apiserver_validating_admission_policy_check_total{enforcement_action="audit",error_type="no_error",policy="p",policy_binding="warn"} 1',
    );
    expect(metrics).toContain(
      'apiserver_validating_admission_policy_check_total{enforcement_action="allow",error_type="invalid_error",policy="q",policy_binding="q"} 1',
    );
    expect(metrics).toMatch(
      /apiserver_validating_admission_policy_check_duration_seconds_count\{enforcement_action="deny",error_type="no_error",policy="p",policy_binding="deny"\} 1/,
    );
  });

  it("a validation's reason picks the status code: Forbidden is a 403", async () => {
    const h = await harness([policy('p', { validations: [{ expression: 'false', message: 'no', reason: 'Forbidden' }] }), binding('b', { policyName: 'p' })]);
    const result = await h.admit(review.create(pod()));
    expect(result.status).toMatchObject({
      code: 403,
      reason: 'Forbidden',
      details: { name: 'web-1', kind: 'pods', causes: [{ message: "ValidatingAdmissionPolicy 'p' with binding 'b' denied request: no" }] },
    });
  });

  it('the first denial of the policies in name order is the request’s', async () => {
    const h = await harness([
      policy('zeta', { validations: [{ expression: 'false', message: 'from zeta' }] }),
      policy('alpha', { validations: [{ expression: 'false', message: 'from alpha' }] }),
      binding('bz', { policyName: 'zeta' }),
      binding('ba', { policyName: 'alpha' }),
    ]);
    expect((await h.admit(review.create(pod()))).status?.message).toBe(
      "pods \"web-1\" is forbidden: ValidatingAdmissionPolicy 'alpha' with binding 'ba' denied request: from alpha",
    );
  });
});

describe('variables, matchConditions and audit annotations', () => {
  it('variables are read by name, later ones reading earlier ones; an error surfaces where the variable is read', async () => {
    const h = await harness([
      policy('p', {
        variables: [
          { name: 'images', expression: 'object.spec.containers.map(c, c.image)' },
          { name: 'latest', expression: "variables.images.exists(i, i.endsWith(':latest'))" },
          { name: 'broken', expression: 'object.spec.nothing' },
        ],
        validations: [{ expression: '!variables.latest', messageExpression: "'latest in ' + variables.images.join(', ')" }],
      }),
      binding('b', { policyName: 'p' }),
    ]);
    expect(await h.admit(review.create(pod(['nginx:1.27'])))).toBeAllowed();
    expect((await h.admit(review.create(pod(['nginx:latest', 'envoy:1'])))).status?.message).toBe(
      "pods \"web-1\" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: latest in nginx:latest, envoy:1",
    );

    const reading = await harness([
      policy('p', { variables: [{ name: 'broken', expression: 'object.spec.nothing' }], validations: [{ expression: 'variables.broken == 1' }] }),
      binding('b', { policyName: 'p' }),
    ]);
    expect((await reading.admit(review.create(pod()))).status?.message).toBe(
      `pods "web-1" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: expression 'variables.broken == 1' resulted in error: composited variable "broken" fails to evaluate: no such key: nothing`,
    );
  });

  it('a false matchCondition skips the policy; an erroring one meets the failurePolicy', async () => {
    const h = await harness([
      policy('p', {
        matchConditions: [{ name: 'only-web', expression: "object.metadata.labels['app'] == 'web'" }],
        validations: [{ expression: 'false', message: 'denied' }],
      }),
      binding('b', { policyName: 'p' }),
    ]);
    expect((await h.admit(review.create(pod()))).status?.message).toContain('denied request: denied');
    expect(await h.admit(review.create(pod(['nginx:1.27'], { app: 'db' })))).toBeAllowed();
    const failing = await harness([
      policy('p', { matchConditions: [{ name: 'broken', expression: 'object.nothing == 1' }], validations: [{ expression: 'false' }] }),
      binding('b', { policyName: 'p' }),
    ]);
    expect((await failing.admit(review.create(pod()))).status?.message).toBe(
      `pods "web-1" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: expression 'object.nothing == 1' resulted in error: no such key: nothing`,
    );
  });

  it('auditAnnotations are published as <policy>/<key>; empty and null values are left out', async () => {
    const h = await harness([
      policy('p', {
        auditAnnotations: [
          { key: 'images', valueExpression: "object.spec.containers.map(c, c.image).join(',')" },
          { key: 'empty', valueExpression: "'  '" },
          { key: 'none', valueExpression: 'null' },
        ],
      }),
      binding('b', { policyName: 'p', validationActions: ['Audit'] }),
    ]);
    const result = await h.admit(review.create(pod(['a:1', 'b:2'])));
    expect(result).toBeAllowed();
    expect(result.auditAnnotations['p/images']).toBe('a:1,b:2');
    expect(Object.keys(result.auditAnnotations).filter((key) => key.startsWith('p/'))).toEqual(['p/images']);
  });
});

describe('matching and params', () => {
  it('excludeResourceRules, resourceNames and the binding’s own matchResources narrow what a policy sees', async () => {
    const deny = { validations: [{ expression: 'false', message: 'no' }] };
    const h = await harness([
      {
        ...policy('named', deny),
        spec: {
          ...deny,
          matchConstraints: {
            resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'], resourceNames: ['web-1'] }],
          },
        },
      },
      binding('b-named', { policyName: 'named' }),
      {
        ...policy('excluding', deny),
        spec: {
          ...deny,
          matchConstraints: {
            resourceRules: [{ apiGroups: ['*'], apiVersions: ['*'], operations: ['*'], resources: ['*'] }],
            excludeResourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['*'], resources: ['configmaps'] }],
          },
        },
      },
      binding('b-excluding', { policyName: 'excluding', matchResources: { namespaceSelector: { matchLabels: { team: 'other' } } } }),
    ]);
    expect((await h.admit(review.create(pod()))).status?.message).toContain("ValidatingAdmissionPolicy 'named' with binding 'b-named'");
    const other = objects.pod({ name: 'web-2', namespace: 'shop' }, { seed: 3 });
    expect(await h.admit(review.create(other))).toBeAllowed();
  });

  it('paramRef by selector evaluates once per param; parameterNotFoundAction Allow leaves the binding out', async () => {
    const config = (name: string, max: string) => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace: 'shop', labels: { limits: 'true' } },
      data: { max },
    });
    const spec = {
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      validations: [{ expression: 'object.spec.containers.size() <= int(params.data.max)', messageExpression: "'at most ' + params.data.max" }],
    };
    const selecting = binding('b', {
      policyName: 'p',
      validationActions: ['Warn'],
      paramRef: { selector: { matchLabels: { limits: 'true' } }, parameterNotFoundAction: 'Deny' },
    });
    const h = await harness([policy('p', spec), selecting], { objects: [config('one', '1'), config('two', '2'), config('three', '3')] });
    const result = await h.admit(review.create(pod(['a:1', 'b:1'])));
    expect(result.warnings).toEqual(["Validation failed for ValidatingAdmissionPolicy 'p' with binding 'b': at most 1"]);

    const allowing = await harness([policy('p', spec), binding('b', { policyName: 'p', paramRef: { name: 'absent', parameterNotFoundAction: 'Allow' } })]);
    const allowed = await allowing.admit(review.create(pod(['a:1', 'b:1'])));
    expect(allowed).toBeAllowed();
    expect(String(allowed.trace)).toContain('no params found and parameterNotFoundAction Allow');
  });

  it('namespaceObject is the request’s Namespace; a paramKind the cluster does not serve fails the policy', async () => {
    const h = await harness([
      policy('p', { validations: [{ expression: "namespaceObject.metadata.labels['team'] == 'shop'", message: 'wrong team' }] }),
      binding('b', { policyName: 'p' }),
    ]);
    expect(await h.admit(review.create(pod()))).toBeAllowed();

    const unknown = await harness([
      policy('p', { paramKind: { apiVersion: 'example.com/v1', kind: 'Limits' }, validations: [{ expression: 'true' }] }),
      binding('b', { policyName: 'p', paramRef: { name: 'x', parameterNotFoundAction: 'Deny' } }),
    ]);
    expect((await unknown.admit(review.create(pod()))).status?.message).toBe(
      "pods \"web-1\" is forbidden: ValidatingAdmissionPolicy 'p' denied request: failed to configure policy: failed to find resource referenced by paramKind: 'example.com/v1, Kind=Limits'",
    );
  });
});

describe('in the chain', () => {
  it('a policy denial comes before the validating webhooks, which are then not called', async () => {
    const h = await harness(
      [
        policy('p', { validations: [{ expression: "!object.spec.containers.exists(c, c.image.endsWith(':latest'))", message: 'no latest tags' }] }),
        binding('b', { policyName: 'p' }),
        validating('v', { name: 'v.example.com' }),
      ],
      {
        stubs: { 'v.example.com': stub.allow() },
      },
    );
    const result = await h.admit(review.create(pod(['nginx:latest'])));
    expect(result.status?.code).toBe(422);
    expect(h.stub('v.example.com').received).toHaveLength(0);
    expect(String(result.trace)).toContain('ValidatingAdmissionPolicy p with binding b: failed validation [0]: no latest tags (validationActions Deny)');
    await h.admit(review.create(pod()));
    expect(h.stub('v.example.com').received).toHaveLength(1);
  });

  it('a binding that names no policy and a policy without a binding do nothing', async () => {
    const h = await harness([policy('lonely', { validations: [{ expression: 'false' }] }), binding('orphan', { policyName: 'absent' })]);
    expect(await h.admit(review.create(pod()))).toBeAllowed();
  });
});

describe('loading, as the API validates policies on create', () => {
  it.each([
    [
      'an unknown field, with the nearest known one',
      policy('p', { validations: [{ expresion: 'true' }] }),
      'spec.validations[0].expresion: unknown field "expresion" (did you mean "expression"?)',
    ],
    [
      'no validations and no audit annotations',
      policy('p', {}),
      'spec.validations: Required value: validations or auditAnnotations must contain at least one item',
    ],
    [
      'an unsupported reason',
      policy('p', { validations: [{ expression: 'true', reason: 'Teapot' }] }),
      'spec.validations[0].reason: Unsupported value: "Teapot": supported values: "Forbidden", "Invalid", "RequestEntityTooLarge", "Unauthorized"',
    ],
    [
      'a message with a line break',
      policy('p', { validations: [{ expression: 'true', message: 'a\nb' }] }),
      'spec.validations[0].message: Invalid value: "a\\nb": message must not contain line breaks',
    ],
    [
      'Deny with Warn',
      binding('b', { policyName: 'p', validationActions: ['Deny', 'Warn'] }),
      'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
    ],
    [
      'no validation action',
      binding('b', { policyName: 'p', validationActions: [] }),
      'spec.validationActions: Required value: at least one validation action is required',
    ],
    [
      'a paramRef without name or selector',
      binding('b', { policyName: 'p', paramRef: { parameterNotFoundAction: 'Deny' } }),
      'spec.paramRef: Required value: one of name or selector must be specified',
    ],
    [
      'a paramRef without parameterNotFoundAction',
      binding('b', { policyName: 'p', paramRef: { name: 'x' } }),
      'spec.paramRef.parameterNotFoundAction: Required value',
    ],
  ])('%s', async (_what, manifest, message) => {
    await expect(harness([manifest])).rejects.toThrow(message);
  });

  it('an expression that does not compile, or gives the wrong type, names the field', async () => {
    await expect(harness([policy('p', { validations: [{ expression: 'object.spec.containers.size() >' }] })])).rejects.toThrow(
      /spec\.validations\[0\]\.expression: Invalid value: "object\.spec\.containers\.size\(\) >": compilation failed: ERROR: <input>:1:/,
    );
    await expect(harness([policy('p', { validations: [{ expression: "'text'" }] })])).rejects.toThrow(
      `spec.validations[0].expression: Invalid value: "'text'": must evaluate to bool but got string`,
    );
    await expect(harness([policy('p', { validations: [{ expression: 'true', messageExpression: '1' }] })])).rejects.toThrow(
      'spec.validations[0].messageExpression: Invalid value: "1": must evaluate to string but got int',
    );
    await expect(harness([policy('p', { validations: [{ expression: 'params.x == 1' }] })])).rejects.toThrow("undeclared reference to 'params'");
    // regex.go FindRegexOptimization compiles a literal pattern when the program is built.
    await expect(harness([policy('p', { validations: [{ expression: "object.metadata.name.find('(') == ''" }] })])).rejects.toThrow(
      `spec.validations[0].expression: Invalid value: "object.metadata.name.find('(') == ''": program instantiation failed: error parsing regexp: missing closing ): \`(\``,
    );
  });
});

describe('h.policy(name): one policy alone', () => {
  it('evaluates the policy with its bindings, reads like h.admit for the matchers, and lists evaluation errors', async () => {
    const h = await harness([
      policy('no-latest', { validations: [{ expression: "!object.spec.containers.exists(c, c.image.endsWith(':latest'))", message: 'no latest tags' }] }),
      binding('b', { policyName: 'no-latest' }),
      policy('fragile', { failurePolicy: 'Ignore', validations: [{ expression: "object.metadata.annotations['owner'] != ''" }] }),
      binding('f', { policyName: 'fragile' }),
    ]);
    const denied = await h.policy('no-latest').evaluate(review.create(pod(['nginx:latest'])));
    expect(denied).toBeDenied({
      code: 422,
      reason: 'Invalid',
      message: "pods \"web-1\" is forbidden: ValidatingAdmissionPolicy 'no-latest' with binding 'b' denied request: no latest tags",
    });
    expect(denied.matched).toBe(true);
    expect(await h.policy('no-latest').evaluate(review.create(pod()))).toBeAllowed();
    const configMap = await h.policy('no-latest').evaluate(review.create(objects.configMap({ namespace: 'shop' }, { seed: 3 })));
    expect(configMap).toMatchObject({ matched: false, allowed: true, errors: [] });

    const fragile = await h.policy('fragile').evaluate(review.create(pod()));
    expect(fragile).toBeAllowed();
    expect(fragile.errors).toEqual(["expression 'object.metadata.annotations['owner'] != ''' resulted in error: no such key: annotations"]);
    expect(() => h.policy('nope')).toThrow('no ValidatingAdmissionPolicy or MutatingAdmissionPolicy named "nope"; known: fragile, no-latest');
  });
});

describe('h.explain: policies in their place in the chain', () => {
  it('lists each policy and binding between the mutating and the validating webhooks, with why', async () => {
    const h = await harness(
      [
        policy('p', { validations: [{ expression: 'true' }] }),
        binding('all', { policyName: 'p' }),
        binding('elsewhere', { policyName: 'p', matchResources: { namespaceSelector: { matchLabels: { team: 'other' } } } }),
        {
          ...policy('configmaps-only', { validations: [{ expression: 'true' }] }),
          spec: {
            validations: [{ expression: 'true' }],
            matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['*'], resources: ['configmaps'] }] },
          },
        },
        validating('v', { name: 'v.example.com' }),
      ],
      { stubs: { 'v.example.com': stub.allow() } },
    );
    const text = String(h.explain(review.create(pod())));
    expect(text).toContain('├─ validating admission policies');
    expect(text).toContain('ValidatingAdmissionPolicy configmaps-only: skipped — no rule matched CREATE v1 pods or any equivalent resource');
    expect(text).toContain('ValidatingAdmissionPolicy p with binding all: evaluated — rules[0] matched CREATE v1 pods; validationActions Deny');
    expect(text).toMatch(
      /ValidatingAdmissionPolicy p with binding elsewhere: skipped — binding: namespaceSelector \{team=other\} did not match namespace "shop"/,
    );
    expect(text.indexOf('validating admission policies')).toBeGreaterThan(0);
    expect(text.indexOf('validating admission policies')).toBeLessThan(text.indexOf('─ validating\n'));
  });
});
