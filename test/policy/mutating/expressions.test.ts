import type { JsonObject } from '../../../lib/kube/json';
import {
  applyConfiguration,
  builtinApplySchema,
  compileMutation,
  type MutationEnvironment,
  type MutationEvaluation,
  type PatchType,
} from '../../../lib/policy/mutating';
import { rewriteObjectLiterals } from '../../../lib/policy/mutating/object-literals';
import { toJson } from '../../../lib/patch/smd/smd-values';
import { activation, policyMutationEnvironment } from './helpers';

let env: MutationEnvironment;
beforeAll(async () => {
  env = await policyMutationEnvironment();
});

const POD: JsonObject = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'ns', labels: { app: 't' } },
  spec: { containers: [{ name: 'app', image: 'app:1', env: [{ name: 'A', value: '1' }] }] },
};

function compileError(patchType: PatchType, expression: string): string {
  const compiled = compileMutation(env, patchType, expression);
  if (compiled.ok) throw new Error(`${expression} compiled`);
  return compiled.error;
}

function run(patchType: PatchType, expression: string, object: JsonObject = POD): MutationEvaluation {
  const compiled = compileMutation(env, patchType, expression);
  if (!compiled.ok) throw new Error(compiled.error);
  return compiled.evaluate(activation(object));
}

function applyConfigurationOf(expression: string, object: JsonObject = POD): JsonObject {
  const evaluated = run('ApplyConfiguration', expression, object);
  if (!evaluated.ok || evaluated.patchType !== 'ApplyConfiguration') throw new Error(JSON.stringify(evaluated));
  return toJson(evaluated.applyConfiguration) as JsonObject;
}

function operationsOf(expression: string, object: JsonObject = POD): JsonObject[] {
  const evaluated = run('JSONPatch', expression, object);
  if (!evaluated.ok || evaluated.patchType !== 'JSONPatch') throw new Error(JSON.stringify(evaluated));
  return evaluated.operations;
}

describe('message construction for cel-js', () => {
  it('rewrites constructions into the macro and keeps every other character', () => {
    const rewritten = rewriteObjectLiterals('Object{metadata: Object.metadata{?labels: x}, spec: "Object{}"} // Object{}');
    expect(rewritten.text).toBe('__k8s_object("Object", {"metadata": __k8s_object("Object.metadata", {"?labels": x}), "spec": "Object{}"}) // Object{}');
    expect(rewritten.typeNames).toEqual(['Object', 'Object.metadata']);
  });

  it('leaves map literals, selections and calls alone', () => {
    const expression = "{'a': object.spec.containers.map(c, {c.name: 1})}[x] + [a.b{}]";
    expect(rewriteObjectLiterals("{'a': object.spec.containers.map(c, {c.name: 1})}[x]").text).toBe("{'a': object.spec.containers.map(c, {c.name: 1})}[x]");
    expect(rewriteObjectLiterals(expression).typeNames).toEqual(['a.b']);
    // A name after a call or an index is a selection, not a construction (cel-go rejects it too).
    expect(rewriteObjectLiterals('f(x).y{} + x[0].y{}').typeNames).toEqual([]);
  });
});

describe('message construction inside strings and comments', () => {
  it('is left alone', () => {
    const expression = `Object{metadata: Object.metadata{labels: {
      "a": r"}Object{", // Object{ in a comment }
      "b": '''x{y}''' + string(b"{")
    }}}`;
    expect(rewriteObjectLiterals(expression).typeNames).toEqual(['Object', 'Object.metadata']);
    expect(applyConfigurationOf(expression)).toEqual({ metadata: { labels: { a: '}Object{', b: 'x{y}{' } } });
  });
});

describe('compiling', () => {
  it('accepts Object for ApplyConfiguration and list(JSONPatch) for JSONPatch', () => {
    expect(compileMutation(env, 'ApplyConfiguration', 'Object{}').ok).toBe(true);
    expect(compileMutation(env, 'JSONPatch', '[JSONPatch{op: "add", path: "/a", value: 1}]').ok).toBe(true);
    expect(compileMutation(env, 'JSONPatch', 'object.metadata.name == "x" ? [JSONPatch{op: "remove", path: "/a"}] : []').ok).toBe(true);
  });

  it('refuses other result types with kube’s text (plugin/cel compile.go)', () => {
    expect(compileError('ApplyConfiguration', 'Object.metadata{}')).toBe('must evaluate to Object but got Object.metadata');
    expect(compileError('ApplyConfiguration', 'object')).toBe('must evaluate to Object but got dyn');
    expect(compileError('ApplyConfiguration', '[JSONPatch{}]')).toBe('must evaluate to Object but got list(JSONPatch)');
    expect(compileError('JSONPatch', 'JSONPatch{op: "add"}')).toBe('must evaluate to list(JSONPatch) but got JSONPatch');
    expect(compileError('JSONPatch', '[]')).toBe('must evaluate to list(JSONPatch) but got list(dyn)');
    expect(compileError('JSONPatch', 'Object{}')).toBe('must evaluate to list(JSONPatch) but got Object');
  });

  it('refuses an invalid literal regex pattern when the program is built (plugin/cel compile.go)', () => {
    expect(compileError('JSONPatch', `[JSONPatch{op: "add", path: "/a", value: object.metadata.name.find("(")}]`)).toBe(
      'program instantiation failed: error parsing regexp: missing closing ): `(`',
    );
  });

  it('reports compile errors where the expression as written has them', () => {
    expect(compileError('JSONPatch', '[JSONPatch{op: 1}]')).toBe(
      "compilation failed: ERROR: <input>:1:14: expected type of field 'op' is 'string' but provided type is 'int'\n | [JSONPatch{op: 1}]\n | .............^",
    );
    expect(compileError('ApplyConfiguration', 'Unknown{}')).toBe(
      "compilation failed: ERROR: <input>:1:8: undeclared reference to 'Unknown' (in container '')\n | Unknown{}\n | .......^",
    );
    expect(compileError('ApplyConfiguration', 'Object{\n  metadata: Object.metadata{name: 2 + "c", labels: {"a": 1 + "b"}}\n}')).toBe(
      'compilation failed: ERROR: <input>:2:37: found no matching overload for \'_+_\' applied to \'(int, string)\'\n |   metadata: Object.metadata{name: 2 + "c", labels: {"a": 1 + "b"}}\n | ....................................^\n' +
        'ERROR: <input>:2:60: found no matching overload for \'_+_\' applied to \'(int, string)\'\n |   metadata: Object.metadata{name: 2 + "c", labels: {"a": 1 + "b"}}\n | ...........................................................^',
    );
    expect(compileError('ApplyConfiguration', 'Object{\n  metadata: Object.metadata{labels: {"a": 1 + "b"}}\n}')).toBe(
      'compilation failed: ERROR: <input>:2:45: found no matching overload for \'_+_\' applied to \'(int, string)\'\n |   metadata: Object.metadata{labels: {"a": 1 + "b"}}\n | ............................................^',
    );
  });
});

describe('ApplyConfiguration values', () => {
  it('become the apply configuration as JSON', () => {
    expect(
      applyConfigurationOf(
        'Object{metadata: Object.metadata{labels: {"a": "b"}}, spec: Object.spec{containers: [Object.spec.containers{name: "x", image: "y"}]}}',
      ),
    ).toEqual({
      metadata: { labels: { a: 'b' } },
      spec: { containers: [{ name: 'x', image: 'y' }] },
    });
  });

  it('set optional fields only when the optional has a value', () => {
    expect(applyConfigurationOf('Object{metadata: Object.metadata{?labels: optional.none(), ?annotations: optional.of({"a": "b"})}}')).toEqual({
      metadata: { annotations: { a: 'b' } },
    });
  });

  it('merge into the object', () => {
    const config = run(
      'ApplyConfiguration',
      'Object{spec: Object.spec{containers: object.spec.containers.map(c, Object.spec.containers{name: c.name, env: [Object.spec.containers.env{name: "B", value: "2"}]})}}',
    );
    if (!config.ok || config.patchType !== 'ApplyConfiguration') throw new Error(JSON.stringify(config));
    const merged = applyConfiguration(POD, config.applyConfiguration, builtinApplySchema('v1', 'Pod')!);
    expect(merged).toEqual({
      ok: true,
      object: {
        ...POD,
        spec: {
          containers: [
            {
              name: 'app',
              image: 'app:1',
              env: [
                { name: 'A', value: '1' },
                { name: 'B', value: '2' },
              ],
            },
          ],
        },
      },
    });
  });

  it('copy lists and maps of the request whole', () => {
    const config = run('ApplyConfiguration', 'Object{spec: Object.spec{containers: [object.spec.containers[0]]}}');
    if (!config.ok || config.patchType !== 'ApplyConfiguration') throw new Error(JSON.stringify(config));
    expect(applyConfiguration(POD, config.applyConfiguration, builtinApplySchema('v1', 'Pod')!)).toEqual({ ok: true, object: POD });
  });

  it('leave map literals inside list literals as CEL values smd cannot read (objects.go convertField)', () => {
    const config = run('ApplyConfiguration', 'Object{spec: Object.spec{containers: [{"name": "x"}]}}');
    if (!config.ok || config.patchType !== 'ApplyConfiguration') throw new Error(JSON.stringify(config));
    expect(applyConfiguration(POD, config.applyConfiguration, builtinApplySchema('v1', 'Pod')!)).toEqual({
      ok: false,
      error:
        'error applying patch: failed to convert patch object to typed object: .spec.containers: element 0: associative list with keys may not have non-map elements',
    });
  });

  it('turn a CEL null into structpb.NullValue', () => {
    const config = run('ApplyConfiguration', 'Object{metadata: Object.metadata{labels: {"a": null}}}');
    if (!config.ok || config.patchType !== 'ApplyConfiguration') throw new Error(JSON.stringify(config));
    expect(applyConfiguration(POD, config.applyConfiguration, builtinApplySchema('v1', 'Pod')!)).toEqual({
      ok: false,
      error: 'error applying patch: failed to convert patch object to typed object: .metadata.labels.a: expected string, got &value.valueUnstructured{Value:0}',
    });
  });

  it('must name nested objects after their field path (patch/smd.go)', () => {
    expect(run('ApplyConfiguration', 'Object{spec: Object.spec{selector: Object.spec.wrong{}}}')).toEqual({
      ok: false,
      error: 'type mismatch: unexpected type name "Object.spec.wrong", expected "Object.spec.selector", which matches field name path from root Object type',
    });
    expect(run('ApplyConfiguration', 'Object{spec: Object.spec{containers: [Object.spec.container{name: "x"}]}}')).toEqual({
      ok: false,
      error:
        'type mismatch: unexpected type name "Object.spec.container", expected "Object.spec.containers", which matches field name path from root Object type',
    });
  });

  it('report run-time errors as kube’s activation does', () => {
    expect(run('ApplyConfiguration', 'Object{metadata: Object.metadata{labels: {"a": object.spec.missing}}}')).toEqual({
      ok: false,
      error: `expression 'Object{metadata: Object.metadata{labels: {"a": object.spec.missing}}}' resulted in error: no such key: missing`,
    });
  });
});

describe('JSONPatch values', () => {
  it('become JSON patch operations; path escaping with jsonpatch.escapeKey', () => {
    expect(
      operationsOf(
        '[JSONPatch{op: "add", path: "/metadata/labels/" + jsonpatch.escapeKey("example.com/a~b"), value: "x"}, JSONPatch{op: "move", from: "/a", path: "/b"}, JSONPatch{op: "remove", path: "/c"}]',
      ),
    ).toEqual([
      { op: 'add', path: '/metadata/labels/example.com~1a~0b', value: 'x' },
      { op: 'move', path: '/b', from: '/a' },
      { op: 'remove', path: '/c' },
    ]);
  });

  it('marshal values as protobuf JSON: ints as numbers, bytes base64, timestamps RFC 3339, durations in seconds, objects as maps', () => {
    expect(
      operationsOf(
        '[JSONPatch{op: "add", path: "/x", value: [1, 2]}, JSONPatch{op: "add", path: "/b", value: b"hi"}, JSONPatch{op: "add", path: "/t", value: timestamp("2024-01-02T03:04:05.500Z")}, JSONPatch{op: "add", path: "/d", value: duration("90s")}, JSONPatch{op: "add", path: "/o", value: Object.spec.containers{name: "c", ports: [Object.spec.containers.ports{containerPort: 80}]}}]',
      ),
    ).toEqual([
      { op: 'add', path: '/x', value: [1, 2] },
      { op: 'add', path: '/b', value: 'aGk=' },
      { op: 'add', path: '/t', value: '2024-01-02T03:04:05.5Z' },
      { op: 'add', path: '/d', value: '90s' },
      { op: 'add', path: '/o', value: { name: 'c', ports: [{ containerPort: 80 }] } },
    ]);
  });

  it('take an absent op as empty and check field types at run time (mutation/jsonpatch.go)', () => {
    expect(operationsOf('[JSONPatch{path: "/x"}]')).toEqual([{ op: '', path: '/x' }]);
    expect(run('JSONPatch', '[JSONPatch{op: dyn(1), path: "/x"}]')).toEqual({
      ok: false,
      error: `expression '[JSONPatch{op: dyn(1), path: "/x"}]' resulted in error: unexpected type int64 for JSONPatchType 'op' field`,
    });
    expect(run('JSONPatch', '[JSONPatch{op: "add", path: "/x", other: 1}]')).toEqual({
      ok: false,
      error: `expression '[JSONPatch{op: "add", path: "/x", other: 1}]' resulted in error: unexpected JSONPatchType field: other`,
    });
  });
});

// cel-go checker.go `checkCreateStruct`: a `?field:` initializer takes an optional (or dyn), reported as
// `expected type 'optional_type(T)' but found 'T'` at the value; the field then gets the type it wraps.
describe('optional field initializers', () => {
  it('refuse a plain value', () => {
    expect(compileError('ApplyConfiguration', 'Object{metadata: Object.metadata{?labels: {"a": "b"}}}')).toBe(
      'compilation failed: ERROR: <input>:1:43: expected type \'optional_type(map(string, string))\' but found \'map(string, string)\'\n | Object{metadata: Object.metadata{?labels: {"a": "b"}}}\n | ..........................................^',
    );
  });

  it('take an optional, or dyn', () => {
    expect(compileMutation(env, 'ApplyConfiguration', 'Object{metadata: Object.metadata{?labels: optional.of({"a": "b"})}}').ok).toBe(true);
    expect(compileMutation(env, 'ApplyConfiguration', 'Object{metadata: Object.metadata{?labels: object.metadata.?labels}}').ok).toBe(true);
    expect(compileMutation(env, 'ApplyConfiguration', 'Object{metadata: Object.metadata{?labels: dyn({"a": "b"})}}').ok).toBe(true);
  });

  it("check the wrapped type against a JSONPatch field's", () => {
    expect(compileError('JSONPatch', '[JSONPatch{?op: optional.of(1), path: "/a"}]')?.split('\n')[0]).toBe(
      "compilation failed: ERROR: <input>:1:15: expected type of field 'op' is 'string' but provided type is 'int'",
    );
  });
});
