import { decodeCustomResource, pruneCustomResource, structuralSchema } from '../../lib/registry/crd';
import type { JsonObject } from '../../lib/kube/json';

const typeMeta = { apiVersion: 'tests.example.com/v1beta1', kind: 'Foo' };

function prune(schema: JsonObject, object: JsonObject) {
  return pruneCustomResource(structuralSchema(schema), object);
}

// The examples of KEP 20180731-crd-pruning (kubernetes/enhancements keps/sig-api-machinery).
describe('pruneCustomResource: the pruning KEP examples', () => {
  it('prunes everything a bare object schema does not specify, keeping TypeMeta and known ObjectMeta', () => {
    const { object, pruned } = prune({ type: 'object' }, { ...typeMeta, metadata: { name: 'example', garbage: 43 }, foo: 42, json: { bar: 43 } });
    expect(object).toEqual({ ...typeMeta, metadata: { name: 'example' } });
    expect(pruned).toEqual(['metadata.garbage', 'foo', 'json']);
  });

  it('prunes below specified properties', () => {
    const schema = { type: 'object', properties: { foo: { type: 'object', properties: { bar: { type: 'object' } } } } };
    const { object, pruned } = prune(schema, { foo: { bar: { abc: 42 }, def: 43 }, json: { ghi: 44 } });
    expect(object).toEqual({ foo: { bar: {} } });
    expect(pruned).toEqual(['foo.bar.abc', 'foo.def', 'json']);
  });

  it('keeps every key of additionalProperties (a schema or false) and prunes inside them', () => {
    for (const additionalProperties of [{ type: 'object' }, false]) {
      const schema = { type: 'object', properties: { foo: { type: 'object', additionalProperties } } };
      expect(prune(schema, { foo: { abc: { x: 42 }, def: { y: 43 } }, json: { ghi: 44 } }).object).toEqual({ foo: { abc: {}, def: {} } });
    }
  });

  it('keeps arbitrary JSON under x-kubernetes-preserve-unknown-fields', () => {
    const schema = { type: 'object', properties: { json: { 'x-kubernetes-preserve-unknown-fields': true, nullable: true } } };
    expect(prune(schema, { foo: 42, json: { bar: 43 } }).object).toEqual({ json: { bar: 43 } });
  });

  // The KEP's example 7 keeps `bar`'s content too, but pruning/algorithm.go (skipPrune → prune) prunes
  // again under every declared property, which is what kube-apiserver does.
  it('keeps unknown fields at a preserving level, and prunes again under its declared properties', () => {
    const schema = {
      type: 'object',
      properties: { json: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { bar: { type: 'object' } } } },
    };
    const object = { foo: 42, json: { bar: { abc: 43 }, def: 44 } };
    expect(prune(schema, object)).toEqual({ object: { json: { bar: {}, def: 44 } }, pruned: ['foo', 'json.bar.abc'] });
  });

  it('prunes again below a property that declares properties of its own', () => {
    const schema = {
      type: 'object',
      properties: {
        json: {
          type: 'object',
          'x-kubernetes-preserve-unknown-fields': true,
          properties: { bar: { type: 'object', properties: { inner: { type: 'integer' } } } },
        },
      },
    };
    const { object, pruned } = prune(schema, { foo: 42, json: { bar: { inner: 43, abc: 44 }, def: 45 } });
    expect(object).toEqual({ json: { bar: { inner: 43 }, def: 45 } });
    expect(pruned).toEqual(['foo', 'json.bar.abc']);
  });

  it('prunes only the metadata of an embedded resource that preserves unknown fields', () => {
    const schema = {
      type: 'object',
      properties: { object: { type: 'object', nullable: true, 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } },
    };
    const { object, pruned } = prune(schema, { foo: 42, object: { bar: 43, abc: 44, metadata: { name: 'example', garbage: 45 } } });
    expect(object).toEqual({ object: { bar: 43, abc: 44, metadata: { name: 'example' } } });
    expect(pruned).toEqual(['foo', 'object.metadata.garbage']);
  });
});

// The schemas of apiextensions-apiserver test/integration/pruning_test.go.
describe('pruneCustomResource: the pruning integration tests', () => {
  const preserving = structuralSchema({
    type: 'object',
    'x-kubernetes-preserve-unknown-fields': true,
    properties: {
      alpha: { type: 'string' },
      beta: { type: 'number' },
      preserving: {
        type: 'object',
        'x-kubernetes-preserve-unknown-fields': true,
        properties: { preserving: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }, pruning: { type: 'object' } },
      },
      pruning: {
        type: 'object',
        properties: { preserving: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }, pruning: { type: 'object' } },
      },
    },
  });

  it('keeps unknown fields under preserving subtrees and prunes under pruning ones', () => {
    const unknown = { unspecified: 'bar' };
    const { object } = pruneCustomResource(preserving, {
      ...typeMeta,
      metadata: { name: 'foo', unspecified: 'bar' },
      unspecified: 'bar',
      alpha: 'abc',
      beta: 42,
      preserving: { ...unknown, preserving: { ...unknown }, pruning: { ...unknown } },
      pruning: { ...unknown, preserving: { ...unknown }, pruning: { ...unknown } },
    });
    expect(object).toEqual({
      ...typeMeta,
      metadata: { name: 'foo' },
      unspecified: 'bar',
      alpha: 'abc',
      beta: 42,
      preserving: { unspecified: 'bar', preserving: { unspecified: 'bar' }, pruning: {} },
      pruning: { preserving: { unspecified: 'bar' }, pruning: {} },
    });
  });

  it('prunes embedded resources by their schema and their metadata always', () => {
    const schema = structuralSchema({
      type: 'object',
      properties: {
        embeddedPruning: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { specified: { type: 'string' } } },
        embeddedPreserving: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
      },
    });
    const embedded = { apiVersion: 'foo/v1', kind: 'Foo', metadata: { name: 'foo', unspecified: 'bar' }, unspecified: 'bar' };
    const { object, pruned } = pruneCustomResource(schema, {
      ...typeMeta,
      metadata: { name: 'foo' },
      embeddedPruning: { ...embedded, specified: 'bar' },
      embeddedPreserving: embedded,
    });
    expect(object).toEqual({
      ...typeMeta,
      metadata: { name: 'foo' },
      embeddedPruning: { apiVersion: 'foo/v1', kind: 'Foo', metadata: { name: 'foo' }, specified: 'bar' },
      embeddedPreserving: { apiVersion: 'foo/v1', kind: 'Foo', metadata: { name: 'foo' }, unspecified: 'bar' },
    });
    expect(pruned).toEqual(['embeddedPruning.unspecified', 'embeddedPreserving.metadata.unspecified', 'embeddedPruning.metadata.unspecified']);
  });

  it('does not change the object it is given', () => {
    const input = { ...typeMeta, metadata: { name: 'x' }, extra: 1 };
    pruneCustomResource(structuralSchema({ type: 'object' }), input);
    expect(input).toEqual({ ...typeMeta, metadata: { name: 'x' }, extra: 1 });
  });
});

describe('metadata as the decoder types it', () => {
  const schema = structuralSchema({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true });

  it('drops empty members and rewrites timestamps in UTC, as SetObjectMeta writes ObjectMeta back', () => {
    const { object } = pruneCustomResource(schema, {
      ...typeMeta,
      metadata: {
        name: 'w',
        namespace: '',
        labels: {},
        annotations: { a: 'b' },
        creationTimestamp: '2026-11-21T23:41:08.123+01:00',
        generation: 0,
        finalizers: [],
      },
    });
    expect(object.metadata).toEqual({ name: 'w', creationTimestamp: '2026-11-21T22:41:08Z', annotations: { a: 'b' } });
  });

  it('drops a creationTimestamp that is null, as the recorded webhook requests show none', () => {
    expect(pruneCustomResource(schema, { ...typeMeta, metadata: { name: 'w', creationTimestamp: null } }).object.metadata).toEqual({ name: 'w' });
  });

  it('fails a request body whose metadata member has the wrong type, with encoding/json text', () => {
    expect(decodeCustomResource(schema, { ...typeMeta, metadata: { name: 'w', labels: 'x' } })).toEqual({
      error: 'json: cannot unmarshal string into Go struct field ObjectMeta.labels of type map[string]string',
    });
    expect(decodeCustomResource(schema, { ...typeMeta, metadata: { name: 'w', labels: { a: 1 } } })).toEqual({
      error: 'json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string',
    });
    expect(decodeCustomResource(schema, { ...typeMeta, metadata: { generation: 1.5 } })).toEqual({
      error: 'json: cannot unmarshal number 1.5 into Go struct field ObjectMeta.generation of type int64',
    });
    expect(decodeCustomResource(schema, { ...typeMeta, metadata: { ownerReferences: [{ name: 3 }] } })).toEqual({
      error: 'json: cannot unmarshal number into Go struct field OwnerReference.ownerReferences.name of type string',
    });
  });

  it('drops malformed metadata members of objects read back from storage instead', () => {
    const { object } = pruneCustomResource(schema, { ...typeMeta, metadata: { name: 'w', labels: 'x', uid: 'u' } });
    expect(object.metadata).toEqual({ name: 'w', uid: 'u' });
  });

  it('fails a kind that is not a string, with the unstructured accessor text', () => {
    expect(decodeCustomResource(schema, { apiVersion: 'a/v1', kind: 5 })).toEqual({ error: '.kind accessor error: 5 is of the type int64, expected string' });
  });

  it('fails an embedded resource whose apiVersion is not a string', () => {
    const embedded = structuralSchema({
      type: 'object',
      properties: { template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } },
    });
    expect(decodeCustomResource(embedded, { ...typeMeta, template: { apiVersion: 1, kind: 'Pod' } })).toEqual({
      error: 'template.apiVersion: Invalid value: 1: must be a string',
    });
  });
});

describe('decodeCustomResource', () => {
  it('prunes, drops non-nullable nulls without a default, and defaults, as the request decoder does', () => {
    const schema = structuralSchema({
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            replicas: { type: 'integer', default: 1 },
            color: { type: 'string' },
            note: { type: 'string', nullable: true },
          },
        },
      },
    });
    const decoded = decodeCustomResource(schema, { ...typeMeta, metadata: { name: 'w' }, spec: { replicas: null, color: null, note: null, extra: true } });
    expect(decoded).toEqual({ object: { ...typeMeta, metadata: { name: 'w' }, spec: { replicas: 1, note: null } }, pruned: ['spec.extra'] });
  });
});
