import { compileMatchConditions, loadCel } from '../../lib/cel';
import type { MatchCondition } from '../../lib/kube/webhook-config';
import { compiled, createPod, errorOf, evaluateOne, issueOf, pod, podRequest, podTarget } from './helpers';

beforeAll(loadCel);

const repeated = (n: number): MatchCondition[] => Array.from({ length: n }, (_, i) => ({ name: `condition-${i}`, expression: 'true' }));
const errorsOf = (conditions: MatchCondition[], path?: string) => {
  const result = compileMatchConditions(conditions, path);
  return 'errors' in result ? result.errors : [];
};

const LABEL_KEY_RULE =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

describe('compile-time validation (up to 64 conditions, names qualified and unique; k8s.io/kubernetes/pkg/apis/admissionregistration/validation/validation.go validateMatchConditions)', () => {
  it.each<[string, MatchCondition[], string[]]>([
    ['64 conditions are allowed (integration: "less than 65 match conditions should pass")', repeated(64), []],
    ['65 are too many (field.TooMany)', repeated(65), ['matchConditions: Too many: 65: must have at most 64 items']],
    ['an empty expression is required (field.Required)', [{ name: 'a', expression: '' }], ['matchConditions[0].expression: Required value']],
    ['a blank expression is trimmed, then required', [{ name: 'a', expression: ' \t ' }], ['matchConditions[0].expression: Required value']],
    ['an empty name is required', [{ name: '', expression: 'true' }], ['matchConditions[0].name: Required value']],
    [
      'names are unique (field.Duplicate)',
      [
        { name: 'test1', expression: 'true' },
        { name: 'test1', expression: 'true' },
      ],
      ['matchConditions[1].name: Duplicate value: "test1"'],
    ],
    [
      'a name with a space is not a qualified name (integration: " test1")',
      [{ name: ' test1', expression: 'true' }],
      [`matchConditions[0].name: Invalid value: " test1": name part ${LABEL_KEY_RULE}`],
    ],
    ['a DNS-subdomain prefix is allowed', [{ name: 'pods-in-kube-system-exempt.kubernetes.io/Check_1.x', expression: 'true' }], []],
    ['an empty prefix is not', [{ name: '/x', expression: 'true' }], ['matchConditions[0].name: Invalid value: "/x": prefix part must be non-empty']],
    [
      'the prefix must be a lowercase DNS subdomain',
      [{ name: 'Example.com/x', expression: 'true' }],
      [
        "matchConditions[0].name: Invalid value: \"Example.com/x\": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      ],
    ],
    [
      'the name part is at most 63 bytes',
      [{ name: 'x'.repeat(64), expression: 'true' }],
      [`matchConditions[0].name: Invalid value: "${'x'.repeat(64)}": name part must be no more than 63 bytes`],
    ],
    [
      'two slashes are not a qualified name',
      [{ name: 'a/b/c', expression: 'true' }],
      [
        `matchConditions[0].name: Invalid value: "a/b/c": a valid label key ${LABEL_KEY_RULE} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
      ],
    ],
    [
      'an unknown variable does not compile (integration: "imnotafield == null")',
      [{ name: 'a', expression: 'imnotafield == null' }],
      [
        "matchConditions[0].expression: Invalid value: \"imnotafield == null\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'imnotafield' (in container '')\n | imnotafield == null\n | ^",
      ],
    ],
    [
      'request is a declared type: it has no uid (compile.go BuildRequestType)',
      [{ name: 'a', expression: "request.uid == ''" }],
      [
        "matchConditions[0].expression: Invalid value: \"request.uid == ''\": compilation failed: ERROR: <input>:1:8: undefined field 'uid'\n | request.uid == ''\n | .......^",
      ],
    ],
    [
      'mismatched operand types, reported at the operator',
      [{ name: 'a', expression: "1 == 'a'" }],
      [
        "matchConditions[0].expression: Invalid value: \"1 == 'a'\": compilation failed: ERROR: <input>:1:3: found no matching overload for '_==_' applied to '(int, string)'\n | 1 == 'a'\n | ..^",
      ],
    ],
    [
      'every independent issue is reported, in order of position (cel-go checker.go goes on after an issue)',
      [{ name: 'a', expression: "request.uid == '' || imnotafield" }],
      [
        "matchConditions[0].expression: Invalid value: \"request.uid == '' || imnotafield\": compilation failed: ERROR: <input>:1:8: undefined field 'uid'\n | request.uid == '' || imnotafield\n | .......^\nERROR: <input>:1:22: undeclared reference to 'imnotafield' (in container '')\n | request.uid == '' || imnotafield\n | .....................^",
      ],
    ],
    [
      'a timestamp, a duration and null by the names cel-go’s checker gives them (checker/format.go FormatCELType)',
      [{ name: 'a', expression: "duration('1h') > 1 || timestamp('2024-01-01T00:00:00Z') > null" }],
      [
        "matchConditions[0].expression: Invalid value: \"duration('1h') > 1 || timestamp('2024-01-01T00:00:00Z') > null\": compilation failed: ERROR: <input>:1:16: found no matching overload for '_>_' applied to '(duration, int)'\n | duration('1h') > 1 || timestamp('2024-01-01T00:00:00Z') > null\n | ...............^\nERROR: <input>:1:57: found no matching overload for '_>_' applied to '(timestamp, null)'\n | duration('1h') > 1 || timestamp('2024-01-01T00:00:00Z') > null\n | ........................................................^",
      ],
    ],
    [
      'a member function with a wrong argument, reported at its parenthesis',
      [{ name: 'a', expression: "'web'.startsWith(1)" }],
      [
        "matchConditions[0].expression: Invalid value: \"'web'.startsWith(1)\": compilation failed: ERROR: <input>:1:17: found no matching overload for 'startsWith' applied to 'string.(int)'\n | 'web'.startsWith(1)\n | ................^",
      ],
    ],
    [
      'the result must be exactly bool, not dyn (compile.go)',
      [{ name: 'a', expression: 'object.spec.paused' }],
      ['matchConditions[0].expression: Invalid value: "object.spec.paused": must evaluate to bool but got dyn'],
    ],
    ['… nor int', [{ name: 'a', expression: '1' }], ['matchConditions[0].expression: Invalid value: "1": must evaluate to bool but got int']],
    [
      '… nor a list, spelt as cel-go spells types',
      [{ name: 'a', expression: '[1, 2]' }],
      ['matchConditions[0].expression: Invalid value: "[1, 2]": must evaluate to bool but got list(int)'],
    ],
    [
      'every problem is reported, condition by condition: expression, name, duplicate',
      [
        { name: 'ok', expression: 'true' },
        { name: 'Bad Name', expression: '' },
        { name: 'ok', expression: 'true' },
      ],
      [
        'matchConditions[1].expression: Required value',
        `matchConditions[1].name: Invalid value: "Bad Name": name part ${LABEL_KEY_RULE}`,
        'matchConditions[2].name: Duplicate value: "ok"',
      ],
    ],
  ])('%s', (_label, conditions, expected) => {
    expect(errorsOf(conditions)).toEqual(expected);
  });

  it('field paths start where the caller says', () => {
    expect(errorsOf([{ name: '', expression: 'true' }], 'webhooks[2].matchConditions')).toEqual(['webhooks[2].matchConditions[0].name: Required value']);
  });

  it('compiles the valid examples of the integration test (exclude-leases, exclude-kubelet-requests, breakglass)', () => {
    const result = compileMatchConditions([
      { name: 'exclude-leases', expression: "!(request.resource.group == 'coordination.k8s.io' && request.resource.resource == 'leases')" },
      { name: 'exclude-kubelet-requests', expression: "!('system:nodes' in request.userInfo.groups)" },
      {
        name: 'breakglass',
        expression:
          "!authorizer.group('admissionregistration.k8s.io').resource('validatingwebhookconfigurations').name('my-webhook.example.com').check('breakglass').allowed()",
      },
    ]);
    expect(result).not.toHaveProperty('errors');
  });
});

const nonExistent = "object.nonExistentProperty == 'someval'";
const nonExistentError = `expression '${nonExistent}' resulted in error: no such key: nonExistentProperty`;
const conditions = (...expressions: string[]): MatchCondition[] => expressions.map((expression, i) => ({ name: `test${i + 1}`, expression }));

describe('evaluation (k8s.io/apiserver/pkg/admission/plugin/webhook/matchconditions/matcher.go, matcher_test.go; k8s.io/kubernetes/test/integration/apiserver/admissionwebhook/match_conditions_test.go)', () => {
  it.each([
    ['all true → called', conditions('true', 'true'), 'Fail', { matches: true, why: 'all 2 matchConditions evaluated to true' }],
    [
      '[error, true, false, true, error] → skipped, no error, whatever the failurePolicy',
      conditions(nonExistent, 'true', 'false', 'true', nonExistent),
      'Fail',
      { matches: false, why: 'matchConditions "test3" evaluated to false' },
    ],
    [
      'several false → the first one is named ("test multiple no match")',
      conditions('true', 'false', 'false'),
      'Fail',
      { matches: false, why: 'matchConditions "test2" evaluated to false' },
    ],
    [
      '[error, true, true, error] with Ignore → skipped without error',
      conditions(nonExistent, 'true', 'true', nonExistent),
      'Ignore',
      { matches: false, evaluationError: true, why: `matchConditions failed and failurePolicy Ignore skips the webhook: ${nonExistentError}` },
    ],
  ] as const)('%s', (_label, list, failurePolicy, verdict) => {
    expect(compiled([...list]).evaluate(createPod(), failurePolicy, podTarget())).toEqual(verdict);
  });

  it.each(['Fail', undefined] as const)('[error, true, true, error] with failurePolicy %s → 403 Forbidden; the identical errors are one', (failurePolicy) => {
    const verdict = compiled(conditions(nonExistent, 'true', 'true', nonExistent)).evaluate(createPod(), failurePolicy, podTarget());
    expect(verdict).toEqual({
      matches: false,
      evaluationError: true,
      why: `matchConditions failed with failurePolicy Fail, rejecting the request: ${nonExistentError}`,
      error: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: `pods "web-1" is forbidden: ${nonExistentError}`,
        reason: 'Forbidden',
        details: { name: 'web-1', kind: 'pods' },
        code: 403,
      },
    });
  });

  it('one error: the 403 message is the resource, the name and that error, no brackets', () => {
    expect(evaluateOne('object.metadata.labels.nonExistentProperty == "x"').error?.message).toBe(
      `pods "web-1" is forbidden: expression 'object.metadata.labels.nonExistentProperty == "x"' resulted in error: no such key: nonExistentProperty`,
    );
  });

  it('different errors are joined Go-aggregate style, in condition order (apimachinery util/errors)', () => {
    const verdict = compiled(conditions('object.metadata.labels.nonExistentProperty == "x"', 'true', 'object.spec.replicas / 0 == 1')).evaluate(
      createPod(),
      'Fail',
      podTarget(),
    );
    expect(verdict.error?.message).toBe(
      `pods "web-1" is forbidden: [expression 'object.metadata.labels.nonExistentProperty == "x"' resulted in error: no such key: nonExistentProperty, expression 'object.spec.replicas / 0 == 1' resulted in error: division by zero]`,
    );
  });

  it('the 403 names a grouped resource as resource.group (NewForbidden)', () => {
    const verdict = compiled(conditions(nonExistent)).evaluate(createPod(), 'Fail', { resource: { group: 'apps', resource: 'deployments' }, name: 'web' });
    expect(verdict.error).toMatchObject({
      code: 403,
      message: `deployments.apps "web" is forbidden: ${nonExistentError}`,
      details: { name: 'web', group: 'apps', kind: 'deployments' },
    });
  });

  it('the error quotes the expression as written, surrounding spaces included', () => {
    expect(evaluateOne(`  ${nonExistent} `).error?.message).toBe(
      `pods "web-1" is forbidden: expression '  ${nonExistent} ' resulted in error: no such key: nonExistentProperty`,
    );
  });
});

describe('variables (k8s.io/apiserver/pkg/admission/plugin/webhook/accessors.go, pkg/admission/plugin/cel/compile.go; integration match_conditions_test.go)', () => {
  const kubeSystem = createPod(pod('test1', 'kube-system'));
  const update = {
    object: pod('web-1', 'default'),
    oldObject: pod('web-1', 'default'),
    request: podRequest('UPDATE', pod('web-1', 'default'), pod('web-1', 'default')),
  };
  const deletion = { object: null, oldObject: pod('web-1', 'default'), request: podRequest('DELETE', null, pod('web-1', 'default')) };
  const unlabelled = createPod(pod('web-1', 'default', { metadata: { name: 'web-1', namespace: 'default' } }));
  const clusterScoped = {
    object: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } },
    oldObject: null,
    request: { ...podRequest('CREATE', null), namespace: undefined, name: 'team-a' },
  };

  it.each([
    ['kube-system pods are skipped (integration "pods in namespace kube-system is ignored")', "object.metadata.namespace != 'kube-system'", kubeSystem, false],
    ['… others are not', "object.metadata.namespace != 'kube-system'", createPod(), true],
    ['oldObject is null on CREATE (integration "has access to oldObject")', 'oldObject == null', createPod(), true],
    ['oldObject is the stored object on UPDATE', "oldObject != null && oldObject.metadata.name == 'web-1'", update, true],
    ['object is null on DELETE', 'object == null', deletion, true],
    ['has() and in on labels', "has(object.metadata.labels) && 'env' in object.metadata.labels", createPod(), true],
    ['has() on a missing map', "has(object.metadata.labels) && 'env' in object.metadata.labels", unlabelled, false],
    ['request.userInfo.username', "request.userInfo.username == 'system:admin'", createPod(), true],
    ['request.userInfo.groups', "'system:masters' in request.userInfo.groups", createPod(), true],
    ['request.operation in a list', "request.operation in ['CREATE', 'UPDATE']", createPod(), true],
    ['… and not in it', "request.operation in ['CREATE', 'UPDATE']", deletion, false],
    [
      'request.kind and request.resource',
      "request.kind.kind == 'Pod' && request.resource.resource == 'pods' && request.requestResource.version == 'v1'",
      createPod(),
      true,
    ],
    ['request.dryRun is always set', '!request.dryRun', createPod(), true],
    ['request.options is the operation options object', "request.options.kind == 'CreateOptions'", createPod(), true],
    ['all() over containers', "object.spec.containers.all(c, c.image.startsWith('registry.local/'))", createPod(), true],
    ['exists() over containers', "object.spec.containers.exists(c, c.name == 'sidecar')", createPod(), true],
    ['JSON integers are CEL ints', 'object.spec.replicas == 3 && object.spec.replicas + 1 == 4 && type(object.spec.replicas) == int', createPod(), true],
    ['JSON fractions are doubles, comparable with ints', 'object.spec.ratio > 0.5 && object.spec.ratio < 1', createPod(), true],
    ['optional field access', "object.?spec.?nodeName.orValue('none') == 'none'", createPod(), true],
  ])('%s: %s', (_label, expression, input, matches) => {
    expect(evaluateOne(expression, input)).toMatchObject({ matches });
    expect(evaluateOne(expression, input).error).toBeUndefined();
  });

  it.each([
    ['a missing label key', "object.metadata.labels.env2 == 'prod'", createPod(), 'no such key: env2'],
    ['a label map that is absent', "object.metadata.labels.env == 'prod'", unlabelled, 'no such key: labels'],
    ['oldObject on CREATE is null: selecting from it fails', "oldObject.metadata.name == 'web-1'", createPod(), 'no such key: metadata'],
    ['request.namespace of a cluster-scoped request is absent (omitempty)', "request.namespace == ''", clusterScoped, 'no such key: namespace'],
  ])('%s: %s', (_label, expression, input, error) => {
    expect(errorOf(expression, input)).toBe(error);
  });
});

describe('runtime errors read as cel-go writes them (cel-go interpreter/attributes.go, common/types/err.go, common/types/string.go)', () => {
  it.each([
    ['object.spec.replicas / 0 == 1', 'division by zero'],
    ['object.spec.replicas % 0 == 1', 'modulus by zero'],
    ['9223372036854775807 + object.spec.replicas > 0', 'integer overflow'],
    ["object.spec.replicas + 'a' == 'b'", 'no such overload'],
    ['object.spec.replicas.startsWith(object.metadata.name)', 'no such overload'],
    ['int(object.metadata.name) == 1', "type conversion error from 'string' to 'int'"],
    ['double(object.metadata.name) > 1.0', "type conversion error from 'string' to 'double'"],
    ["object.spec.containers[5].name == 'x'", 'index out of bounds: 5'],
  ])('%s → %s', (expression, error) => {
    expect(errorOf(expression)).toBe(error);
  });
});

describe('known divergences: issues that follow an error-typed operand', () => {
  // cel-go's error type is assignable to every parameter, but an overload of another arity still fails:
  // cel-go names the call too (checker.go `resolveOverload`, `!error!` in checker/format.go). The harness
  // leaves out every overload issue of a call on a failed operand.
  it.failing('a call of the wrong arity on an undeclared argument is a second issue', () => {
    expect(issueOf('size(imnotafield, 1) == 1')).toBe(
      [
        "ERROR: <input>:1:5: found no matching overload for 'size' applied to '(!error!, int)'",
        ' | size(imnotafield, 1) == 1',
        ' | ....^',
        "ERROR: <input>:1:6: undeclared reference to 'imnotafield' (in container '')",
        ' | size(imnotafield, 1) == 1',
        ' | .....^',
      ].join('\n'),
    );
  });

  // A cel-js member function kube's environment lacks (lib/cel/outside-kube.ts) is found after cel-js
  // typed it, so what is built on it is still checked against its cel-js type; in cel-go it is an error.
  it.failing("a cel-js-only function's result is error-typed, so a comparison on it is no second issue", () => {
    expect(issueOf("b'a'.hex() == 1")).toBe(
      ["ERROR: <input>:1:9: undeclared reference to 'hex' (in container '')", " | b'a'.hex() == 1", ' | ........^'].join('\n'),
    );
  });
});
