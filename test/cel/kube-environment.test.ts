// The libraries kube-apiserver 1.36 compiles CEL with (k8s.io/apiserver pkg/cel/environment/base.go
// `baseOpts`), and nothing more: cel-go's ext.Math, ext.Encoders and ext.Bindings are not among them,
// so kube refuses their functions as undeclared (cel-go checker/checker.go `checkCall`).
import { compileMatchConditions } from '../../lib/cel';
import { loadCel } from '../../lib/cel/runtime';
import type { JsonObject } from '../../lib/kube/json';
import { prepareCustomResourceValidation, structuralSchema, validateCustomResource } from '../../lib/registry/crd';

beforeAll(async () => {
  await loadCel();
});

function compileError(expression: string): string {
  const result = compileMatchConditions([{ name: 'c', expression }]);
  if (!('errors' in result)) throw new Error(`${expression} compiled`);
  return result.errors.join('\n');
}

describe("kube 1.36's base environment", () => {
  it('ext.Math is not enabled: math.greatest is two undeclared references, the namespace then the function', () => {
    expect(compileError('math.greatest(1, 2) == 2')).toBe(
      [
        "matchConditions[0].expression: Invalid value: \"math.greatest(1, 2) == 2\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'math' (in container '')",
        ' | math.greatest(1, 2) == 2',
        ' | ^',
        "ERROR: <input>:1:14: undeclared reference to 'greatest' (in container '')",
        ' | math.greatest(1, 2) == 2',
        ' | .............^',
      ].join('\n'),
    );
  });

  it.each(['math.ceil(1.2) == 2.0', 'math.abs(-1) == 1', 'math.bitOr(1, 2) == 3', 'math.least([1, 2]) == 1'])(
    '%s is refused as kube refuses it',
    (expression) => {
      const name = /^math\.(\w+)/.exec(expression)?.[1];
      expect(compileError(expression)).toContain(`undeclared reference to 'math' (in container '')`);
      expect(compileError(expression)).toContain(`undeclared reference to '${name}' (in container '')`);
    },
  );

  it('ext.Bindings is not enabled: cel.bind, its namespace and its variable are undeclared references', () => {
    expect(compileError("cel.bind(v, 'abc', v.size()) == 3")).toBe(
      [
        `matchConditions[0].expression: Invalid value: "cel.bind(v, 'abc', v.size()) == 3": compilation failed: ERROR: <input>:1:1: undeclared reference to 'cel' (in container '')`,
        " | cel.bind(v, 'abc', v.size()) == 3",
        ' | ^',
        "ERROR: <input>:1:9: undeclared reference to 'bind' (in container '')",
        " | cel.bind(v, 'abc', v.size()) == 3",
        ' | ........^',
        "ERROR: <input>:1:20: undeclared reference to 'v' (in container '')",
        " | cel.bind(v, 'abc', v.size()) == 3",
        ' | ...................^',
      ].join('\n'),
    );
  });

  it.each(['json', 'hex', 'base64', 'string'])("cel-js's bytes.%s() is not kube's: an undeclared reference", (name) => {
    const expression = `b'abc'.${name}() == b'abc'.${name}()`;
    expect(compileError(expression)).toContain(`ERROR: <input>:1:${7 + name.length + 1}: undeclared reference to '${name}' (in container '')`);
  });

  it("cel-js's bytes.at() is not kube's either; string(bytes) is", () => {
    expect(compileError("b'abc'.at(0) == 97")).toContain("ERROR: <input>:1:10: undeclared reference to 'at' (in container '')");
    expect(compileMatchConditions([{ name: 'c', expression: "string(b'abc') == 'abc'" }])).not.toHaveProperty('errors');
  });
});

describe('the same base environment in CRD rules (apiextensions-apiserver compiles them on it)', () => {
  const schema = (rule: string) =>
    structuralSchema({
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: { limits: { type: 'object', additionalProperties: { type: 'integer' } }, ports: { type: 'array', items: { type: 'integer' } } },
          'x-kubernetes-validations': [{ rule, message: 'refused' }],
        },
      },
    });
  const widget = (spec: JsonObject): JsonObject => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec });

  it('two-variable comprehensions, sortBy and optMap run in a rule', async () => {
    const rule = 'self.limits.all(k, v, k.size() <= 8 && v > 0) && self.ports.sortBy(p, p) == self.ports && self.?ports.optMap(p, p.size()).orValue(0) <= 3';
    const checked = schema(rule);
    expect(await prepareCustomResourceValidation(checked)).toEqual([]);
    expect(validateCustomResource(checked, widget({ limits: { cpu: 2 }, ports: [80, 443] }), null)).toEqual([]);
    expect(validateCustomResource(checked, widget({ limits: { cpu: 0 }, ports: [80, 443] }), null).map((e) => e.body)).toEqual([
      'Invalid value: "object": refused',
    ]);
    expect(validateCustomResource(checked, widget({ limits: {}, ports: [443, 80] }), null).map((e) => e.body)).toEqual(['Invalid value: "object": refused']);
  });

  it('a rule using ext.Math is refused at create, as kube refuses the CRD', async () => {
    const errors = await prepareCustomResourceValidation(schema('math.least(self.ports) > 0'), 'spec.versions[0].schema.openAPIV3Schema');
    expect(errors.map((e) => e.body)).toEqual([
      [
        `Invalid value: {"rule":"math.least(self.ports) \\u003e 0","message":"refused"}: compilation failed: ERROR: <input>:1:1: undeclared reference to 'math' (in container '')`,
        ' | math.least(self.ports) > 0',
        ' | ^',
        "ERROR: <input>:1:11: undeclared reference to 'least' (in container '')",
        ' | math.least(self.ports) > 0',
        ' | ..........^',
      ].join('\n'),
    ]);
  });
});
