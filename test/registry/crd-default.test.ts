import { defaultCustomResource, structuralSchema } from '../../lib/registry/crd';

describe('defaultCustomResource (structural defaulting)', () => {
  const schema = structuralSchema({
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        default: {},
        properties: {
          replicas: { type: 'integer', default: 1 },
          strategy: {
            type: 'object',
            // A default that is itself defaulted: its `type` gets the default of the property below.
            default: { maxSurge: 2, unknown: true },
            properties: { type: { type: 'string', default: 'Rolling' }, maxSurge: { type: 'integer' } },
          },
          note: { type: 'string', nullable: true, default: 'n' },
          color: { type: 'string', default: 'red' },
          labels: { type: 'object', additionalProperties: { type: 'string', default: 'v' } },
          ports: {
            type: 'array',
            items: { type: 'object', default: { port: 80 }, properties: { port: { type: 'integer' }, protocol: { type: 'string', default: 'TCP' } } },
          },
        },
      },
    },
  });

  it('fills missing fields, defaults inside defaults, and drops what the schema does not know from defaults', () => {
    expect(defaultCustomResource(schema, { apiVersion: 'a/v1', kind: 'A' })).toEqual({
      apiVersion: 'a/v1',
      kind: 'A',
      spec: { replicas: 1, strategy: { maxSurge: 2, type: 'Rolling' }, note: 'n', color: 'red' },
    });
  });

  it('keeps a null where the schema is nullable, and replaces it where it is not', () => {
    const defaulted = defaultCustomResource(schema, { spec: { note: null, color: null, replicas: 3 } });
    expect(defaulted.spec).toEqual({ note: null, color: 'red', replicas: 3, strategy: { maxSurge: 2, type: 'Rolling' } });
  });

  it('defaults null map values and list items with the additionalProperties and items defaults, then inside them', () => {
    const defaulted = defaultCustomResource(schema, { spec: { labels: { a: null, b: 'x' }, ports: [null, { port: 443 }] } });
    expect(defaulted.spec).toMatchObject({
      labels: { a: 'v', b: 'x' },
      ports: [
        { port: 80, protocol: 'TCP' },
        { port: 443, protocol: 'TCP' },
      ],
    });
  });

  it('does not change the object it is given', () => {
    const input = { spec: {} };
    defaultCustomResource(schema, input);
    expect(input).toEqual({ spec: {} });
  });

  it('leaves objects of a schema without defaults as they are', () => {
    const plain = structuralSchema({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true });
    expect(defaultCustomResource(plain, { spec: { replicas: 1 } })).toEqual({ spec: { replicas: 1 } });
  });
});
