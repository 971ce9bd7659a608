// Custom resources through the chain: a webhook's patch is defaulted from the CRD's schema (not pruned),
// and the object is validated against the schema and its CEL rules before validating webhooks.
import { createHarness, review, stub, type Harness } from '../../lib';
import { ResourceCatalog } from '../../lib/kube/catalog';
import { mutating, validating } from '../dispatch/helpers';

const CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'gadgets.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' },
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
                properties: { size: { type: 'integer', minimum: 1, default: 3 }, color: { type: 'string', enum: ['red', 'blue'] } },
                'x-kubernetes-validations': [{ rule: 'self.size <= 10', message: 'size must be at most 10' }],
              },
            },
          },
        },
      },
    ],
  },
};

const harnesses: Harness[] = [];
afterAll(() => Promise.all(harnesses.map((h) => h.close())));

// Each harness keeps its CRD in a catalog of its own; the reviews are built against it.
let catalog = new ResourceCatalog();
async function harness(patch: { op: 'add' | 'replace'; path: string; value: unknown }[]): Promise<Harness> {
  catalog = new ResourceCatalog();
  const h = await createHarness({
    seed: 4,
    catalog,
    manifests: [
      CRD,
      mutating('m', {
        name: 'gadget.example.com',
        rules: [{ operations: ['CREATE'], apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['gadgets'] }],
      }),
      validating('v', {
        name: 'check.example.com',
        rules: [{ operations: ['CREATE'], apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['gadgets'] }],
      }),
    ],
    stubs: { 'gadget.example.com': stub.patch(patch), 'check.example.com': stub.allow() },
  });
  harnesses.push(h);
  return h;
}

const gadget = () => ({ apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'g1', namespace: 'default' }, spec: { size: 2 } });

describe('custom resources through the chain', () => {
  it('a patch that removes a defaulted field gets the schema default back; an unknown field reaches later webhooks (no pruning after webhooks) but not storage', async () => {
    const h = await harness([{ op: 'replace', path: '/spec', value: { color: 'red', extra: true } }]);
    const result = await h.admit(review.create(gadget(), { catalog }));
    expect(result).toBeAllowed();
    expect(h.stub('check.example.com').received[0]?.request?.object).toMatchObject({ spec: { color: 'red', extra: true, size: 3 } });
    expect((result.object as { spec: unknown }).spec).toEqual({ color: 'red', size: 3 });
  });

  it('a request body is pruned to the schema before admission, as the API decodes it', async () => {
    const h = await harness([]);
    await h.admit(review.create({ ...gadget(), spec: { size: 2, unknown: 'x' } }, { catalog }));
    expect(h.stub('gadget.example.com').received[0]?.request?.object).toMatchObject({ spec: { size: 2 } });
    expect((h.stub('gadget.example.com').received[0]?.request?.object as { spec: object }).spec).not.toHaveProperty('unknown');
  });

  // An Unsupported or type error keeps the CEL rules from running, which kube-apiserver says in an error of its own.
  it('the schema and its CEL rules are the API’s validation: a 422 before any validating webhook', async () => {
    const h = await harness([{ op: 'replace', path: '/spec/size', value: 12 }]);
    const result = await h.admit(review.create(gadget(), { catalog }));
    expect(result).toBeDenied({ code: 422, message: 'Gadget.example.com "g1" is invalid: spec: Invalid value: "object": size must be at most 10' });
    expect(h.stub('check.example.com').received).toEqual([]);
    const enumerated = await harness([{ op: 'add', path: '/spec/color', value: 'green' }]);
    expect(await enumerated.admit(review.create(gadget(), { catalog }))).toBeDenied({
      code: 422,
      message:
        'Gadget.example.com "g1" is invalid: [spec.color: Unsupported value: "green": supported values: "red", "blue", <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation]',
    });
  });

  it('a value of the wrong type is a validation error for a custom resource, not a decode error', async () => {
    const h = await harness([{ op: 'replace', path: '/spec/size', value: 'three' }]);
    const result = await h.admit(review.create(gadget(), { catalog }));
    expect(result).toBeDenied({
      code: 422,
      message:
        'Gadget.example.com "g1" is invalid: [spec.size: Invalid value: "string": spec.size in body must be of type integer: "string", <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation]',
    });
  });

  it('a CRD whose rule does not compile is refused when the harness loads it', async () => {
    const bad = structuredClone(CRD);
    bad.spec.versions[0]!.schema.openAPIV3Schema.properties.spec['x-kubernetes-validations'] = [{ rule: 'self.size <=', message: 'x' }];
    await expect(createHarness({ catalog: new ResourceCatalog(), manifests: [bad] })).rejects.toThrow(
      /invalid CustomResourceDefinition:\n {2}gadgets\.example\.com\/v1: openAPIV3Schema(\.properties\[spec\])?\.x-kubernetes-validations\[0\]\.rule: Invalid value/,
    );
  });
});
