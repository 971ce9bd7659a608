// kube-apiserver's type check of ValidatingAdmissionPolicy expressions (apiserver
// plugin/policy/validating/typechecking.go): warnings for status.typeChecking.expressionWarnings,
// with the texts kube writes there.
import { loadCel } from '../../../lib/cel';
import type { ValidatingAdmissionPolicy, ValidatingAdmissionPolicySpec } from '../../../lib/kube/admission-policy';
import { ResourceCatalog } from '../../../lib/kube/catalog';
import { catalogKindResolver, catalogSchemaResolver, typeCheckPolicy, type ExpressionWarning } from '../../../lib/policy/type-check';

beforeAll(() => loadCel());

type Rule = { apiGroups: string[]; apiVersions: string[]; resources: string[] };
const PODS: Rule = { apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] };
const DEPLOYMENTS: Rule = { apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] };
const WIDGETS: Rule = { apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['widgets'] };

function policy(rules: Rule[], spec: Partial<ValidatingAdmissionPolicySpec>): ValidatingAdmissionPolicy {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'type-checked.example.com' },
    spec: { matchConstraints: { resourceRules: rules.map((rule) => ({ ...rule, operations: ['CREATE', 'UPDATE'] })) }, ...spec },
  };
}

const widgetsCrd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
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
                properties: {
                  size: { type: 'integer' },
                  color: { type: 'string' },
                  ratio: { type: 'number' },
                  port: { 'x-kubernetes-int-or-string': true },
                  tags: { type: 'array', items: { type: 'string' } },
                  limits: { type: 'object', additionalProperties: { type: 'integer' } },
                  expires: { type: 'string', format: 'date-time' },
                  'max-size': { type: 'integer' },
                  extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                  template: {
                    type: 'object',
                    'x-kubernetes-embedded-resource': true,
                    'x-kubernetes-preserve-unknown-fields': true,
                    properties: { spec: { type: 'object', properties: { image: { type: 'string' } } } },
                  },
                },
              },
            },
          },
        },
      },
    ],
  },
};

const catalog = new ResourceCatalog();
catalog.registerCustomResourceDefinition(widgetsCrd);
const check = (p: ValidatingAdmissionPolicy): ExpressionWarning[] => typeCheckPolicy(p, catalogKindResolver(catalog), catalogSchemaResolver(catalog));
const validate = (rules: Rule[], ...expressions: string[]) => check(policy(rules, { validations: expressions.map((expression) => ({ expression })) }));

describe('warnings in kube’s words', () => {
  it('a misspelt Pod field is warned against the Pod kind, with cel-go’s issue and snippet', () => {
    expect(validate([PODS], 'object.spec.containerz.size() > 0')).toEqual([
      {
        fieldRef: 'spec.validations[0].expression',
        warning: "/v1, Kind=Pod: ERROR: <input>:1:12: undefined field 'containerz'\n | object.spec.containerz.size() > 0\n | ...........^\n",
      },
    ]);
  });

  it('expressions that check against the schema are not warned', () => {
    const correct = [
      'object.spec.containers.all(c, c.image.startsWith("registry.example.com/"))',
      "object.metadata.labels['app'] == 'web' && 'team' in object.metadata.labels",
      'has(object.spec.securityContext) && object.spec.securityContext.runAsNonRoot == true',
      'object.spec.containers.all(c, c.?securityContext.?privileged.orValue(false) == false)',
      'oldObject == null || object.spec.nodeName == oldObject.spec.nodeName',
      'object.spec.containers.all(c, c.ports.all(p, p.containerPort > 1024 && p.protocol in ["TCP", "UDP"]))',
      'authorizer.group("").resource("pods").check("create").allowed()',
      'request.operation == "CREATE"',
    ];
    expect(validate([PODS], ...correct)).toEqual([]);
  });

  it('a Deployment policy is checked against apps/v1 Deployment (the kube documentation’s example)', () => {
    expect(validate([DEPLOYMENTS], 'object.replicas > 1', 'object.spec.replicas > 1')).toEqual([
      {
        fieldRef: 'spec.validations[0].expression',
        warning: "apps/v1, Kind=Deployment: ERROR: <input>:1:7: undefined field 'replicas'\n | object.replicas > 1\n | ......^\n",
      },
    ]);
  });

  it('an int compared with a string has no matching overload', () => {
    expect(validate([DEPLOYMENTS], "object.spec.replicas == 'x'")).toEqual([
      {
        fieldRef: 'spec.validations[0].expression',
        warning:
          "apps/v1, Kind=Deployment: ERROR: <input>:1:22: found no matching overload for '_==_' applied to '(int, string)'\n | object.spec.replicas == 'x'\n | .....................^\n",
      },
    ]);
  });

  it('every kind a rule matches is checked, each with its own section of the warning', () => {
    const rule = { apiGroups: ['apps'], apiVersions: ['v1'], resources: ['replicasets', 'deployments', 'statefulsets'] };
    const section = (kind: string) => `apps/v1, Kind=${kind}: ERROR: <input>:1:7: undefined field 'replicas'\n | object.replicas > 1\n | ......^\n`;
    expect(validate([rule], 'object.replicas > 1')).toEqual([
      { fieldRef: 'spec.validations[0].expression', warning: [section('Deployment'), section('ReplicaSet'), section('StatefulSet')].join('\n') },
    ]);
  });

  it('only the kinds an expression fails for are named', () => {
    const [warning] = validate([PODS, DEPLOYMENTS], 'object.spec.containers.size() > 0');
    expect(warning?.warning).toBe(
      "apps/v1, Kind=Deployment: ERROR: <input>:1:12: undefined field 'containers'\n | object.spec.containers.size() > 0\n | ...........^\n",
    );
  });

  it('a messageExpression is checked too, under its own fieldRef', () => {
    const warnings = check(
      policy([DEPLOYMENTS], { validations: [{ expression: 'object.spec.replicas < 10', messageExpression: "'too many: ' + object.spec.replicas" }] }),
    );
    expect(warnings).toEqual([
      {
        fieldRef: 'spec.validations[0].messageExpression',
        warning:
          "apps/v1, Kind=Deployment: ERROR: <input>:1:14: found no matching overload for '_+_' applied to '(string, int)'\n | 'too many: ' + object.spec.replicas\n | .............^\n",
      },
    ]);
  });

  it('a policy without resolvable kinds is not checked', () => {
    const wildcard = { apiGroups: ['*'], apiVersions: ['v1'], resources: ['pods'] };
    const unknown = { apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['gadgets'] };
    expect(validate([wildcard, unknown], 'object.nothing.here')).toEqual([]);
  });
});

describe('list and map element types', () => {
  it('the elements of a list of objects have the element’s fields', () => {
    expect(validate([PODS], "object.spec.containers.all(c, c.imag == '')")).toEqual([
      {
        fieldRef: 'spec.validations[0].expression',
        warning:
          "/v1, Kind=Pod: ERROR: <input>:1:32: undefined field 'imag'\n | object.spec.containers.all(c, c.imag == '')\n | ...............................^\n",
      },
    ]);
  });

  it('nested lists keep their element types', () => {
    const [warning] = validate([PODS], "object.spec.containers.all(c, c.ports.all(p, p.containerPort == '80'))");
    expect(warning?.warning).toContain("found no matching overload for '_==_' applied to '(int, string)'");
  });

  it('map values and keys have the map’s types', () => {
    const warnings = validate(
      [PODS],
      "object.metadata.labels['app'] == 1",
      'object.metadata.annotations.all(k, k > 1)',
      "object.spec.nodeSelector['zone'] == 'a'",
    );
    expect(warnings.map((w) => [w.fieldRef, /found no matching overload for '(.*?)' applied to '(.*?)'/.exec(w.warning)?.slice(1)])).toEqual([
      ['spec.validations[0].expression', ['_==_', '(string, int)']],
      ['spec.validations[1].expression', ['_>_', '(string, int)']],
    ]);
  });
});

describe('how built-in schemas become CEL types (common/schemas.go SchemaDeclType)', () => {
  it('Quantity has no type in the OpenAPI definitions, so resources.limits is not a field (as kube reports)', () => {
    const [warning] = validate([PODS], "object.spec.containers.all(c, c.resources.limits['memory'] != '')");
    expect(warning?.warning).toBe(
      "/v1, Kind=Pod: ERROR: <input>:1:42: undefined field 'limits'\n | object.spec.containers.all(c, c.resources.limits['memory'] != '')\n | .........................................^\n",
    );
  });

  it('IntOrString is dyn: compared with an int or a string', () => {
    expect(validate([DEPLOYMENTS], 'object.spec.strategy.rollingUpdate.maxSurge == 1', "object.spec.strategy.rollingUpdate.maxSurge == '25%'")).toEqual([]);
  });

  it('Time is a timestamp', () => {
    const warnings = validate([DEPLOYMENTS], 'object.metadata.creationTimestamp < timestamp("2030-01-01T00:00:00Z")', 'object.metadata.creationTimestamp > 5');
    expect(warnings.map((w) => w.fieldRef)).toEqual(['spec.validations[1].expression']);
    expect(warnings[0]?.warning).toContain("found no matching overload for '_>_' applied to '(timestamp, int)'");
  });

  it('objects and timestamps compare with null (cel-go’s legacy nullability); ints and maps do not', () => {
    const warnings = validate(
      [DEPLOYMENTS],
      'object.spec.template.spec.securityContext != null',
      'object.metadata.deletionTimestamp == null',
      'object.spec.replicas == null',
      'object.metadata.labels == null',
    );
    expect(warnings.map((w) => /applied to '(.*?)'/.exec(w.warning)?.[1])).toEqual(['(int, null)', '(map(string, string), null)']);
  });

  it('metadata.namespace is escaped to __namespace__ and still found under its own name', () => {
    expect(validate([PODS], "object.metadata.namespace == 'shop'", "object.metadata.__namespace__ == 'shop'")).toEqual([]);
  });
});

describe('custom resources, typed from the CRD’s openAPIV3Schema', () => {
  it('a misspelt field of the CRD schema is warned', () => {
    expect(validate([WIDGETS], 'object.spec.sise > 3')).toEqual([
      {
        fieldRef: 'spec.validations[0].expression',
        warning: "example.com/v1, Kind=Widget: ERROR: <input>:1:12: undefined field 'sise'\n | object.spec.sise > 3\n | ...........^\n",
      },
    ]);
  });

  it('schema types, formats, maps, int-or-string, escaped names and the ObjectMeta kube publishes for metadata', () => {
    const correct = [
      'object.spec.size > 3 && object.spec.ratio < 0.5 && object.spec.color.startsWith("r")',
      'object.spec.tags.all(t, t != "") && object.spec.limits.all(k, object.spec.limits[k] > 0)',
      'object.spec.port == 80 || object.spec.port == "http"',
      'object.spec.expires > timestamp("2030-01-01T00:00:00Z")',
      'object.spec.max__dash__size > 0',
      "object.metadata.labels['app'] == 'web' && object.metadata.creationTimestamp != null",
      "object.apiVersion == 'example.com/v1' && object.kind == 'Widget'",
      "object.spec.template.spec.image != '' && object.spec.template.metadata.name != ''",
    ];
    expect(validate([WIDGETS], ...correct)).toEqual([]);
  });

  it('types mismatching the CRD schema are warned', () => {
    const warnings = validate([WIDGETS], "object.spec.size == '3'", 'object.spec.limits["cpu"] == "1"', 'object.spec.tags[0] + 1 == 2');
    expect(warnings.map((w) => /applied to '(.*?)'/.exec(w.warning)?.[1])).toEqual(['(int, string)', '(int, string)', '(string, int)']);
  });

  it('x-kubernetes-preserve-unknown-fields does not expose the unknown fields', () => {
    const [warning] = validate([WIDGETS], 'object.spec.extra.anything == 1');
    expect(warning?.warning).toContain("undefined field 'anything'");
  });
});

describe('params, variables, namespaceObject', () => {
  it('params are typed from a known paramKind’s schema', () => {
    const spec = {
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      validations: [{ expression: "object.metadata.name == params.data['name']" }, { expression: 'params.spec.replicas > 1' }],
    };
    expect(check(policy([DEPLOYMENTS], spec)).map((w) => [w.fieldRef, /undefined field '(\w+)'/.exec(w.warning)?.[1]])).toEqual([
      ['spec.validations[1].expression', 'spec'],
    ]);
  });

  it('params are dyn when the paramKind’s schema is unknown', () => {
    const spec = {
      paramKind: { apiVersion: 'example.com/v1', kind: 'Unknown' },
      validations: [{ expression: 'params.anything.at.all == object.spec.replicas' }],
    };
    expect(check(policy([DEPLOYMENTS], spec))).toEqual([]);
  });

  it('params of the object’s own kind are typed independently of it', () => {
    const spec = {
      paramKind: { apiVersion: 'example.com/v1', kind: 'Widget' },
      validations: [{ expression: 'object.spec.size <= params.spec.size' }, { expression: 'params.spec.sise > 0' }],
    };
    expect(check(policy([WIDGETS], spec)).map((w) => w.fieldRef)).toEqual(['spec.validations[1].expression']);
  });

  it('variables have the types of their expressions; a missing one is an undefined field', () => {
    const spec = {
      variables: [
        { name: 'replicas', expression: 'object.spec.replicas' },
        { name: 'images', expression: 'object.spec.template.spec.containers.map(c, c.image)' },
      ],
      validations: [
        { expression: "variables.replicas == 'x'" },
        { expression: 'variables.images.all(i, i.size() > 0)' },
        { expression: 'variables.nonExisting' },
      ],
    };
    const warnings = check(policy([DEPLOYMENTS], spec));
    expect(warnings.map((w) => w.fieldRef)).toEqual(['spec.validations[0].expression', 'spec.validations[2].expression']);
    expect(warnings[0]?.warning).toContain("found no matching overload for '_==_' applied to '(int, string)'");
    expect(warnings[1]?.warning).toContain("undefined field 'nonExisting'");
  });

  it('a variable that fails to compile is dyn, and its own error is not reported', () => {
    const spec = { variables: [{ name: 'name', expression: "object.foo == 'str'" }], validations: [{ expression: 'variables.name == object.spec.replicas' }] };
    expect(check(policy([DEPLOYMENTS], spec))).toEqual([]);
  });

  it('namespaceObject has the fields of BuildNamespaceType', () => {
    const warnings = validate(
      [PODS],
      "namespaceObject.metadata.labels['team'] == 'shop'",
      "namespaceObject.status.phase == 'Active'",
      'namespaceObject.metadata.ownerReferences.size() == 0',
    );
    expect(warnings.map((w) => /undefined field '(\w+)'/.exec(w.warning)?.[1])).toEqual(['ownerReferences']);
  });
});

describe('has()', () => {
  it('a field tested by has() must exist, as cel-go checks it (the kube blog’s example, both issues reported)', () => {
    const expression =
      'object.spec.template.spec.containers.all(c, !has(c.securityContext) || !has(c.securityContext.Privileged) || !c.securityContext.Privileged)';
    const [warning] = validate([DEPLOYMENTS], expression);
    expect(warning?.warning).toBe(
      `apps/v1, Kind=Deployment: ERROR: <input>:1:76: undefined field 'Privileged'\n | ${expression}\n | ${'.'.repeat(75)}^\n` +
        `ERROR: <input>:1:128: undefined field 'Privileged'\n | ${expression}\n | ${'.'.repeat(127)}^\n`,
    );
  });

  it('has() on a map tests a key, which is never an error', () => {
    expect(validate([PODS], 'has(object.metadata.labels.app)', 'has(object.spec.nodeSelector.zone)')).toEqual([]);
  });
});

describe('the request variable', () => {
  it('request is typed as kubernetes.AdmissionRequest, so a mismatch through it is found', () => {
    expect(validate([DEPLOYMENTS], 'request.namespace == object.spec.replicas')).toEqual([
      { fieldRef: 'spec.validations[0].expression', warning: expect.stringContaining("found no matching overload for '_==_' applied to '(string, int)'") },
    ]);
  });
});

describe('every issue of one expression, as cel-go’s checker reports them', () => {
  // checker.go records an issue, types the node as an error and goes on; an error-typed operand matches
  // every overload, so what is built on it reports nothing more. cel-go's display orders them by position.
  const DEPLOYMENT = 'apps/v1, Kind=Deployment: ';
  const issue = (expression: string, column: number, message: string) =>
    `ERROR: <input>:1:${column}: ${message}\n | ${expression}\n | ${'.'.repeat(column - 1)}^`;
  const warned = (expression: string, ...issues: [number, string][]) =>
    `${DEPLOYMENT}${issues.map(([column, message]) => issue(expression, column, message)).join('\n')}\n`;
  const warningOf = (expression: string) => validate([DEPLOYMENTS], expression)[0]?.warning;

  it('every independent issue of one expression is reported', () => {
    const expression = 'object.spec.replicaz > 1 && object.spec.pausd';
    expect(warningOf(expression)).toBe(warned(expression, [12, "undefined field 'replicaz'"], [40, "undefined field 'pausd'"]));
  });

  it('two independent issues of different kinds, each with its own text', () => {
    const expression = "object.spec.replicas + 'a' > 1 && object.spec.pausd";
    expect(warningOf(expression)).toBe(
      warned(expression, [22, "found no matching overload for '_+_' applied to '(int, string)'"], [46, "undefined field 'pausd'"]),
    );
  });

  it('an issue nested under another operation is reported once, at the inner node', () => {
    const selected = 'object.spec.replicaz.foo > 1';
    expect(warningOf(selected)).toBe(warned(selected, [12, "undefined field 'replicaz'"]));
    const argument = 'size(object.spec.pausd) > 0 || object.spec.paused';
    expect(warningOf(argument)).toBe(warned(argument, [17, "undefined field 'pausd'"]));
    const element = '[object.spec.replicaz, 1].size() > object.metadata.namez.size()';
    expect(warningOf(element)).toBe(warned(element, [13, "undefined field 'replicaz'"], [51, "undefined field 'namez'"]));
  });

  it('issues in both branches of a ternary', () => {
    const expression = 'object.spec.paused ? object.spec.replicaz : object.spec.minReadySecondz';
    expect(warningOf(expression)).toBe(warned(expression, [33, "undefined field 'replicaz'"], [56, "undefined field 'minReadySecondz'"]));
  });

  it('issues in a macro body, and beside it', () => {
    const body = "object.spec.template.spec.containers.all(c, c.imagez != '' && c.namez != '')";
    expect(warningOf(body)).toBe(warned(body, [46, "undefined field 'imagez'"], [64, "undefined field 'namez'"]));
    const beside = 'object.spec.template.spec.containers.exists(c, c.imagez == object.spec.replicaz)';
    expect(warningOf(beside)).toBe(warned(beside, [49, "undefined field 'imagez'"], [71, "undefined field 'replicaz'"]));
  });

  it('a has() test and a later issue', () => {
    const expression = 'has(object.spec.pausd) && object.spec.replicaz > 1';
    expect(warningOf(expression)).toBe(warned(expression, [4, "undefined field 'pausd'"], [38, "undefined field 'replicaz'"]));
  });
});
