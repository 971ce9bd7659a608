// CRD x-kubernetes-validations refused on create for their static cost estimate, as a real
// kube-apiserver v1.36.2 answered (test/fixtures/apiserver-cel-cost/static-cost-estimate.json): the
// recorded 422's causes reproduced field for field, the same rule refused when a harness loads the
// CRD, and ValidatingAdmissionPolicies of huge estimated cost accepted (kube does not refuse them).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createHarness, HarnessError } from '../../lib';
import type { JsonObject } from '../../lib/kube/json';
import { prepareCustomResourceValidation } from '../../lib/registry/crd/prepare';
import { structuralSchema } from '../../lib/registry/crd/structural';

interface Step {
  request: { path: string; body: JsonObject & { spec: { versions?: { schema: { openAPIV3Schema: JsonObject } }[] } } };
  response: { code: number; body: { details?: { causes: { reason: string; message: string; field: string }[] } } };
}
const recording = JSON.parse(readFileSync(path.join(__dirname, '../fixtures/apiserver-cel-cost/static-cost-estimate.json'), 'utf8')) as { steps: Step[] };
const policySteps = recording.steps.filter((step) => step.request.path.endsWith('/validatingadmissionpolicies'));
const crdStep = recording.steps.find((step) => step.request.path.endsWith('/customresourcedefinitions'))!;
const crdSchema = () => crdStep.request.body.spec.versions![0]!.schema.openAPIV3Schema;

/** A CRD `spec` schema holding `properties` and the rules `rules`. */
const specSchema = (properties: JsonObject, rules: JsonObject[], at: 'spec' | 'item' = 'spec'): JsonObject => ({
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties,
      ...(at === 'spec' ? { 'x-kubernetes-validations': rules } : {}),
    },
  },
});

const causes = async (schema: JsonObject) =>
  (await prepareCustomResourceValidation(structuralSchema(schema), 'spec.validation.openAPIV3Schema')).map((error) => ({
    reason: error.type,
    message: error.body,
    field: error.field,
  }));

describe('static-cost-estimate: CRD rules refused on create for their estimated cost', () => {
  it("reproduces the recorded 422's three causes, fields and texts", async () => {
    expect(crdStep.response.code).toBe(422);
    // A single-version CRD's schema is validated at spec.validation (the internal version hoists it there).
    expect(await causes(crdSchema())).toEqual(crdStep.response.body.details!.causes);
  });

  it('refuses the CRD when a harness loads it, with the same texts', async () => {
    const error = await createHarness({ seed: 3, manifests: [crdStep.request.body] }).then(
      async (h) => {
        await h.close();
        return undefined;
      },
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(HarnessError);
    expect((error as HarnessError).code).toBe('MANIFEST_INVALID');
    const message = (error as HarnessError).message;
    for (const cause of crdStep.response.body.details!.causes) expect(message).toContain(cause.message);
    expect(message).toContain('costly.cel.example.com/v1: openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost');
  });

  it('accepts the ValidatingAdmissionPolicies kube created (201) however large their estimate', async () => {
    expect(policySteps.map((step) => step.response.code)).toEqual([201, 201]);
    const h = await createHarness({ seed: 3, manifests: policySteps.map((step) => step.request.body), namespaces: [{ name: 'o4-cel' }] });
    await h.close();
  });

  it('accepts the same rule once maxItems and maxLength bound the list', async () => {
    // 100 items of maxLength 64 (256 bytes): matches ceil(257 × 0.1) × ceil(256 × 0.25) = 26 × 64 = 1,664, + x, y = 1,666;
    // inner 3 + 100 × 1,669 = 166,903; outer 3 + 100 × 166,906 = 16,690,603: still past 10,000,000 (1.7 times: %.1f from 1.5 up).
    const bounded = (maxItems: number) =>
      specSchema({ items: { type: 'array', maxItems, items: { type: 'string', maxLength: 64 } } }, [
        { rule: 'self.items.all(x, self.items.all(y, x.matches(y)))' },
      ]);
    expect(await causes(bounded(100))).toEqual([
      {
        reason: 'FieldValueForbidden',
        field: 'spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule',
        message:
          'Forbidden: estimated rule cost exceeds budget by factor of 1.7x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)',
      },
    ]);
    // 50 items: inner 3 + 50 × 1,669 = 83,453; outer 3 + 50 × 83,456 = 4,172,803: accepted.
    expect(await causes(bounded(50))).toEqual([]);
  });

  it('multiplies a rule under an unbounded list by as many of its objects as fit in a request', async () => {
    // A rule on each item: self 1 + .name 1 + matches ceil(253 × 0.1) × ceil(8 × 0.25) = 52 → 54, times
    // 3,145,728 / (2 + 1) = 1,048,576 items of at least `{}`: 56,623,104, 5.7 times the limit.
    const items = (maxItems?: number): JsonObject => ({
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            ports: {
              type: 'array',
              ...(maxItems ? { maxItems } : {}),
              items: {
                type: 'object',
                properties: { name: { type: 'string', maxLength: 63 } },
                'x-kubernetes-validations': [{ rule: "self.name.matches('^[a-z]+$')" }],
              },
            },
          },
        },
      },
    });
    expect(await causes(items())).toEqual([
      {
        reason: 'FieldValueForbidden',
        field: 'spec.validation.openAPIV3Schema.properties[spec].properties[ports].items.x-kubernetes-validations[0].rule',
        message:
          'Forbidden: estimated rule cost exceeds budget by factor of 5.7x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)',
      },
    ]);
    // maxItems 100: 54 × 100 = 5,400.
    expect(await causes(items(100))).toEqual([]);
  });

  it('refuses a messageExpression that concatenates string(int): its size is unbounded to the estimate', async () => {
    const schema = specSchema({ replicas: { type: 'integer' } }, [{ rule: 'self.replicas < 10', messageExpression: "'replicas ' + string(self.replicas)" }]);
    expect((await causes(schema)).map((cause) => `${cause.field}: ${cause.message}`)).toEqual([
      'spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].messageExpression: Forbidden: estimated messageExpression cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)',
      'spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].messageExpression: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema',
      'spec.validation.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)',
    ]);
  });
});

describe('the order of the refusals', () => {
  it("names a child's rules before its parent's, as kube checks a node's rules after its children", async () => {
    const costly = 'self.items.all(x, self.items.all(y, x.matches(y)))';
    const schema: JsonObject = {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          'x-kubernetes-validations': [{ rule: costly }],
          properties: {
            items: { type: 'array', items: { type: 'string' } },
            inner: {
              type: 'object',
              properties: { items: { type: 'array', items: { type: 'string' } } },
              'x-kubernetes-validations': [{ rule: costly }],
            },
          },
        },
      },
    };
    // Both rules saturate (2^64): the total does too, and both are among the costliest (equal costs: kube's
    // sort.Slice leaves their order open; here they stay in the order observed).
    expect((await causes(schema)).map((cause) => `${cause.field}: ${cause.message.split(' (')[0]}`)).toEqual([
      'spec.validation.openAPIV3Schema.properties[spec].properties[inner].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x',
      'spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x',
      'spec.validation.openAPIV3Schema.properties[spec].properties[inner].x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema',
      'spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema',
      'spec.validation.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x',
    ]);
  });
});
