import { HarnessError } from '../../lib/errors';
import type { JsonObject } from '../../lib/kube/json';
import type { FieldError } from '../../lib/kube/status';
import {
  customResourceValidation,
  prepareCustomResourceValidation,
  structuralSchema,
  validateCustomResource,
  type StructuralSchema,
} from '../../lib/registry/crd';

const typeMeta = { apiVersion: 'example.com/v1', kind: 'Widget' };
const text = (errors: FieldError[]) => errors.map((e) => `${e.field}: ${e.body}`);

async function prepared(openAPIV3Schema: JsonObject): Promise<StructuralSchema> {
  const schema = structuralSchema(openAPIV3Schema);
  expect(await prepareCustomResourceValidation(schema)).toEqual([]);
  return schema;
}

/** A schema whose `spec` has `properties` and the rules `rules`. */
function specSchema(properties: JsonObject, rules: JsonObject[]): JsonObject {
  return { type: 'object', properties: { spec: { type: 'object', properties, 'x-kubernetes-validations': rules } } };
}

const widget = (spec: JsonObject, metadata: JsonObject = { name: 'w' }): JsonObject => ({ ...typeMeta, metadata, spec });

const replicas = { replicas: { type: 'integer' }, maxReplicas: { type: 'integer' } };

describe('x-kubernetes-validations', () => {
  // First in this file: Jest gives each test file its own modules, so CEL is not loaded yet here.
  it('needs CEL prepared before validating, and says how', () => {
    const schema = structuralSchema(specSchema(replicas, [{ rule: 'self.replicas >= 0' }]));
    expect(() => validateCustomResource(schema, widget({ replicas: 1 }), null)).toThrow(HarnessError);
    expect(() => validateCustomResource(schema, widget({ replicas: 1 }), null)).toThrow('await prepareCustomResourceValidation(schema)');
  });

  it('reports a failed rule at its node with the schema type as value and its message', async () => {
    const schema = await prepared(specSchema(replicas, [{ rule: 'self.replicas <= self.maxReplicas', message: 'replicas must be at most maxReplicas' }]));
    expect(text(validateCustomResource(schema, widget({ replicas: 5, maxReplicas: 3 }), null))).toEqual([
      'spec: Invalid value: "object": replicas must be at most maxReplicas',
    ]);
    expect(validateCustomResource(schema, widget({ replicas: 2, maxReplicas: 3 }), null)).toEqual([]);
  });

  it('says `failed rule: <rule>` without a message', async () => {
    const schema = await prepared(specSchema(replicas, [{ rule: '  self.replicas <= self.maxReplicas ' }]));
    expect(text(validateCustomResource(schema, widget({ replicas: 5, maxReplicas: 3 }), null))).toEqual([
      'spec: Invalid value: "object": failed rule: self.replicas <= self.maxReplicas',
    ]);
  });

  it('uses messageExpression, and falls back to the message when it does not evaluate', async () => {
    const schema = await prepared(
      specSchema(replicas, [
        // format() rather than `'…' + string(self.replicas)`: kube's estimate knows no bound on string()'s
        // result, so it refuses that concatenation at create (see test/cel/cost-estimate.test.ts).
        { rule: 'self.replicas <= self.maxReplicas', messageExpression: "'replicas %d exceeds %d'.format([self.replicas, self.maxReplicas])" },
        { rule: 'self.replicas > 1', message: 'static', messageExpression: 'self.missing' },
      ]),
    );
    expect(text(validateCustomResource(schema, widget({ replicas: 5, maxReplicas: 3 }), null))).toEqual([
      'spec: Invalid value: "object": replicas 5 exceeds 3',
    ]);
    expect(text(validateCustomResource(schema, widget({ replicas: 1, maxReplicas: 3 }), null))).toEqual(['spec: Invalid value: "object": static']);
  });

  it('reports at fieldPath, with the reason picking the error type', async () => {
    const schema = await prepared(
      specSchema(replicas, [
        { rule: 'self.replicas >= 0', message: 'must not be negative', fieldPath: '.replicas', reason: 'FieldValueForbidden' },
        { rule: 'has(self.maxReplicas)', message: 'maxReplicas is required', fieldPath: "['maxReplicas']", reason: 'FieldValueRequired' },
        { rule: 'self.replicas != 7', reason: 'FieldValueDuplicate' },
      ]),
    );
    expect(text(validateCustomResource(schema, widget({ replicas: -1 }), null))).toEqual([
      'spec.replicas: Forbidden: must not be negative',
      'spec.maxReplicas: Required value: maxReplicas is required',
    ]);
    expect(text(validateCustomResource(schema, widget({ replicas: 7, maxReplicas: 9 }), null))).toEqual(['spec: Duplicate value: "object"']);
  });

  it('reports a rule of the root at <nil>, and exposes apiVersion, kind, metadata.name and generateName there', async () => {
    const schema = await prepared({
      type: 'object',
      'x-kubernetes-validations': [{ rule: "self.metadata.name.startsWith('w-') && self.kind == 'Widget'", message: 'name must start with w-' }],
      properties: { spec: { type: 'object' } },
    });
    expect(text(validateCustomResource(schema, widget({}, { name: 'x' }), null))).toEqual(['<nil>: Invalid value: "object": name must start with w-']);
    expect(validateCustomResource(schema, widget({}, { name: 'w-1' }), null)).toEqual([]);
  });

  it('runs the rules of list items and map values at their paths', async () => {
    const schema = await prepared({
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            ports: { type: 'array', items: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self > 0 && self < 65536', message: 'must be a port' }] } },
            labels: { type: 'object', additionalProperties: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self.size() <= 3' }] } },
          },
        },
      },
    });
    expect(text(validateCustomResource(schema, widget({ ports: [80, 0], labels: { app: 'webapp' } }), null))).toEqual([
      'spec.ports[1]: Invalid value: "integer": must be a port',
      'spec.labels[app]: Invalid value: "string": failed rule: self.size() <= 3',
    ]);
  });

  it('runs transition rules on update only, with oldSelf', async () => {
    const schema = await prepared(
      specSchema({ name: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'name is immutable' }] } }, []),
    );
    const old = widget({ name: 'a' });
    expect(validateCustomResource(schema, widget({ name: 'b' }), null)).toEqual([]);
    expect(text(validateCustomResource(schema, widget({ name: 'b' }), old))).toEqual(['spec.name: Invalid value: "string": name is immutable']);
    expect(validateCustomResource(schema, widget({ name: 'a' }), old)).toEqual([]);
  });

  it('makes oldSelf an optional with optionalOldSelf, evaluated on create too', async () => {
    const schema = await prepared(
      specSchema(
        {
          name: {
            type: 'string',
            'x-kubernetes-validations': [{ rule: "oldSelf.hasValue() || self == 'initial'", message: 'must start as initial', optionalOldSelf: true }],
          },
        },
        [],
      ),
    );
    expect(text(validateCustomResource(schema, widget({ name: 'b' }), null))).toEqual(['spec.name: Invalid value: "string": must start as initial']);
    expect(validateCustomResource(schema, widget({ name: 'b' }), widget({ name: 'initial' }))).toEqual([]);
  });

  it('reports evaluation errors with cel-go texts', async () => {
    const schema = await prepared({
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: { replicas: { type: 'integer' }, value: { 'x-kubernetes-int-or-string': true } },
          'x-kubernetes-validations': [{ rule: 'self.replicas > 0' }, { rule: "self.value + 'x' != ''", message: 'value' }],
        },
      },
    });
    expect(text(validateCustomResource(schema, widget({ value: 1 }), null))).toEqual([
      'spec: Invalid value: "object": no such key: replicas evaluating rule: self.replicas > 0',
      'spec: Invalid value: "object": \'no such overload\': call arguments did not match a supported operator, function or macro signature for rule: value',
    ]);
  });

  it('sees date-time strings as timestamps and durations as durations', async () => {
    const schema = await prepared(
      specSchema(
        { start: { type: 'string', format: 'date-time' }, end: { type: 'string', format: 'date-time' }, window: { type: 'string', format: 'duration' } },
        [{ rule: 'self.end - self.start <= self.window', message: 'window too short' }],
      ),
    );
    expect(text(validateCustomResource(schema, widget({ start: '2026-01-01T00:00:00Z', end: '2026-01-01T02:00:00Z', window: '1h' }), null))).toEqual([
      'spec: Invalid value: "object": window too short',
    ]);
    expect(validateCustomResource(schema, widget({ start: '2026-01-01T00:00:00Z', end: '2026-01-01T00:30:00Z', window: '1h' }), null)).toEqual([]);
  });

  it('skips the rules after a blocking schema error, saying so', async () => {
    const schema = await prepared({
      type: 'object',
      properties: { spec: { type: 'object', required: ['replicas'], properties: replicas, 'x-kubernetes-validations': [{ rule: 'false' }] } },
    });
    expect(text(validateCustomResource(schema, widget({}), null))).toEqual([
      'spec.replicas: Required value',
      '<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
    ]);
  });

  it('ratchets a failing rule that is not a transition rule on an unchanged field into a warning', async () => {
    const schema = await prepared(
      specSchema(
        { name: { type: 'string', 'x-kubernetes-validations': [{ rule: "self.startsWith('w')", message: 'must start with w' }] }, size: { type: 'integer' } },
        [],
      ),
    );
    const old = widget({ name: 'legacy', size: 1 });
    expect(customResourceValidation(schema, widget({ name: 'legacy', size: 2 }), old)).toEqual({
      errors: [],
      warnings: ['spec.name: Invalid value: "string": must start with w'],
    });
    expect(text(validateCustomResource(schema, widget({ name: 'other', size: 2 }), old))).toEqual(['spec.name: Invalid value: "string": must start with w']);
  });

  it('refuses a rule with an invalid duration or regex literal (the literal validators of kube’s base environment); a time zone in a rule reads as cel-go reads it', async () => {
    const refused = structuralSchema(
      specSchema({ ttl: { type: 'string' } }, [{ rule: "duration(self.ttl) < duration('1d')" }, { rule: "self.ttl.matches('(')" }]),
    );
    expect(text(await prepareCustomResourceValidation(refused, 'spec.versions[0].schema.openAPIV3Schema'))).toEqual([
      `spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Invalid value: {"rule":"duration(self.ttl) \\u003c duration('1d')"}: compilation failed: ERROR: <input>:1:31: invalid duration argument\n | duration(self.ttl) < duration('1d')\n | ..............................^`,
      `spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[1].rule: Invalid value: {"rule":"self.ttl.matches('(')"}: compilation failed: ERROR: <input>:1:18: invalid matches argument\n | self.ttl.matches('(')\n | .................^`,
    ]);
    const schema = await prepared(
      specSchema({ at: { type: 'string', format: 'date-time' } }, [{ rule: "self.at.getHours('-08:00') == 23", message: 'not 23h at -08:00' }]),
    );
    expect(text(validateCustomResource(schema, widget({ at: '2024-03-10T07:30:15Z' }), null))).toEqual([]);
    expect(text(validateCustomResource(schema, widget({ at: '2024-03-10T09:30:15Z' }), null))).toEqual(['spec: Invalid value: "object": not 23h at -08:00']);
  });

  it('refuses a rule with every independent issue of its check, as cel-go’s checker reports them', async () => {
    const refused = structuralSchema(specSchema({ ttl: { type: 'string' } }, [{ rule: "self.ttl == 1 + 'a' || size('a', 2) == 0" }]));
    expect(text(await prepareCustomResourceValidation(refused, 'spec.versions[0].schema.openAPIV3Schema'))).toEqual([
      `spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Invalid value: {"rule":"self.ttl == 1 + 'a' || size('a', 2) == 0"}: compilation failed: ERROR: <input>:1:15: found no matching overload for '_+_' applied to '(int, string)'\n | self.ttl == 1 + 'a' || size('a', 2) == 0\n | ..............^\nERROR: <input>:1:28: found no matching overload for 'size' applied to '(string, int)'\n | self.ttl == 1 + 'a' || size('a', 2) == 0\n | ...........................^`,
    ]);
  });

  it('a date-time field keeps the offset it was written with, as strfmt.ParseDateTime reads it', async () => {
    const schema = await prepared(
      specSchema({ at: { type: 'string', format: 'date-time' } }, [{ rule: "string(self.at) == '2024-03-10T07:30:15+02:00'", message: 'offset lost' }]),
    );
    expect(text(validateCustomResource(schema, widget({ at: '2024-03-10T07:30:15+02:00' }), null))).toEqual([]);
    expect(text(validateCustomResource(schema, widget({ at: '2024-03-10T05:30:15Z' }), null))).toEqual(['spec: Invalid value: "object": offset lost']);
  });

  it('refuses a rule or messageExpression whose literal regex pattern the program cannot compile (compilation.go `compileRule`)', async () => {
    const refused = structuralSchema(
      specSchema({ name: { type: 'string' } }, [
        { rule: "self.name.find('(') == ''" },
        { rule: 'true', messageExpression: "self.name.findAll('[z-a]').join(',')" },
        { rule: "self.name.find('(') == ''", messageExpression: '1' },
      ]),
    );
    expect(text(await prepareCustomResourceValidation(refused, 'spec.versions[0].schema.openAPIV3Schema'))).toEqual([
      `spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Invalid value: {"rule":"self.name.find('(') == ''"}: program instantiation failed: error parsing regexp: missing closing ): \`(\``,
      `spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[1].messageExpression: Invalid value: {"rule":"true","messageExpression":"self.name.findAll('[z-a]').join(',')"}: messageExpression instantiation failed: error parsing regexp: invalid character class range: \`z-a\``,
      // kube stops at the rule's own error: its messageExpression is not compiled.
      `spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[2].rule: Invalid value: {"rule":"self.name.find('(') == ''","messageExpression":"1"}: program instantiation failed: error parsing regexp: missing closing ): \`(\``,
    ]);
  });

  it('returns the compile errors kube would reject the CRD with', async () => {
    const schema = structuralSchema(
      specSchema(replicas, [
        { rule: 'self.replicas >' },
        { rule: "'x'", message: 'm' },
        { rule: 'true', messageExpression: '1' },
        { rule: 'true', fieldPath: '.nope' },
      ]),
    );
    expect(text(await prepareCustomResourceValidation(schema, 'spec.versions[0].schema.openAPIV3Schema'))).toEqual([
      // json.Marshal escapes `>` (HTML-safe); the parse error's own words are cel-js's (see lib/cel/errors.ts).
      expect.stringMatching(
        /^spec\.versions\[0\]\.schema\.openAPIV3Schema\.properties\[spec\]\.x-kubernetes-validations\[0\]\.rule: Invalid value: \{"rule":"self\.replicas \\u003e"\}: compilation failed: ERROR: <input>:1:16: /,
      ),
      'spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[1].rule: Invalid value: {"rule":"\'x\'","message":"m"}: cel expression must evaluate to a bool',
      'spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[2].messageExpression: Invalid value: {"rule":"true","messageExpression":"1"}: messageExpression must evaluate to a string',
      'spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[3].fieldPath: Invalid value: ".nope": fieldPath must be a valid path: does not refer to a valid field',
    ]);
    // A rule that did not compile fails every object it applies to, as kube reports stale rules.
    expect(text(validateCustomResource(schema, widget({ replicas: 1 }), null))[0]).toMatch(
      /^spec: Invalid value: "object": rule compile error: compilation failed: ERROR: <input>:1:/,
    );
  });

  it('KNOWN DIVERGENCE: a rule naming a field the schema lacks compiles (self is dyn here) and fails when it runs', async () => {
    // kube-apiserver types self from the schema and rejects the CRD: `undefined field 'nope'`.
    const schema = await prepared(specSchema(replicas, [{ rule: 'self.nope > 0' }]));
    expect(text(validateCustomResource(schema, widget({ replicas: 1 }), null))).toEqual([
      'spec: Invalid value: "object": no such key: nope evaluating rule: self.nope > 0',
    ]);
  });

  it("a rule past the per-call cost limit stops validation with kube's text (apiextensions-apiserver schema/cel validation.go)", async () => {
    // Three nested all() over 120 items: about 120 × 120 × 120 × 3 cost units, past PerCallLimit (1,000,000).
    // maxItems 120 keeps the static estimate (about 5,270,000) under the 10,000,000 kube allows at create.
    const rule = 'self.items.all(a, self.items.all(b, self.items.all(c, true)))';
    const schema = await prepared(
      specSchema({ items: { type: 'array', maxItems: 120, items: { type: 'integer' } } }, [{ rule }, { rule: 'false', message: 'never reached' }]),
    );
    const items = Array.from({ length: 120 }, (_, i) => i);
    expect(text(validateCustomResource(schema, widget({ items }), null))).toEqual([
      `spec: Invalid value: "object": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: ${rule}`,
    ]);
    // Ten items cost about 3 300: the rule holds and the next one runs.
    expect(text(validateCustomResource(schema, widget({ items: items.slice(0, 10) }), null))).toEqual(['spec: Invalid value: "object": never reached']);
  });

  it("rules of one object share RuntimeCELCostBudget (10,000,000): past it, kube's text and no further rule runs", async () => {
    // Each rule costs about 900 000 (a 36-character pattern over 1,000,000 characters), under the per-call limit.
    const rules = Array.from({ length: 12 }, (_, i) => ({ rule: `!self.big.matches('^(a|b|c|d|e|f|g|h|i|j|k|l|m|n)+z${i}$')` }));
    const schema = await prepared(specSchema({ big: { type: 'string' } }, rules));
    expect(text(validateCustomResource(schema, widget({ big: 'a'.repeat(1_000_000) }), null))).toEqual([
      'spec: Invalid value: "object": validation failed due to running out of cost budget, no further validation rules will be run',
    ]);
  });
});
