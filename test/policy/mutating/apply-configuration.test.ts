import type { JsonObject } from '../../../lib/kube/json';
import { applyConfiguration, builtinApplySchema, crdApplySchema, type ApplySchema } from '../../../lib/policy/mutating';
import { mergeValues } from '../../../lib/patch/smd/smd-merge';
import { NULL_VALUE } from '../../../lib/patch/smd/smd-values';
import { structuralSchema } from '../../../lib/registry/crd/structural';

function schemaOf(apiVersion: string, kind: string): ApplySchema {
  const schema = builtinApplySchema(apiVersion, kind);
  if (!schema) throw new Error(`no schema for ${apiVersion} ${kind}`);
  return schema;
}

const POD = schemaOf('v1', 'Pod');

function pod(spec: JsonObject, metadata: JsonObject = {}): JsonObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns', ...metadata }, spec };
}

function applied(object: JsonObject, config: JsonObject, schema: ApplySchema = POD): JsonObject {
  const result = applyConfiguration(object, config, schema);
  if (!result.ok) throw new Error(result.error);
  return result.object;
}

function refused(object: JsonObject, config: Parameters<typeof applyConfiguration>[1], schema: ApplySchema = POD): string {
  const result = applyConfiguration(object, config, schema);
  if (result.ok) throw new Error(`expected an error, got ${JSON.stringify(result.object)}`);
  return result.error;
}

const container = (name: string, rest: JsonObject = {}): JsonObject => ({ name, image: `${name}:1`, ...rest });

describe('granular maps merge key by key', () => {
  it('adds and overwrites labels, keeps the others', () => {
    const out = applied(pod({ containers: [container('app')] }, { labels: { app: 't', keep: 'x' } }), { metadata: { labels: { app: 'u', added: 'y' } } });
    expect(out.metadata).toEqual({ name: 'p', namespace: 'ns', labels: { app: 'u', keep: 'x', added: 'y' } });
  });

  it('creates a map the object does not have', () => {
    const out = applied(pod({ containers: [container('app')] }), { metadata: { annotations: { a: 'b' } } });
    expect(out.metadata).toEqual({ name: 'p', namespace: 'ns', annotations: { a: 'b' } });
  });

  it('merges structs field by field (a container securityContext)', () => {
    const object = pod({ containers: [container('app', { securityContext: { runAsUser: 1000, privileged: false } })] });
    const out = applied(object, { spec: { containers: [{ name: 'app', securityContext: { runAsNonRoot: true } }] } });
    expect((out.spec as JsonObject).containers).toEqual([container('app', { securityContext: { runAsUser: 1000, privileged: false, runAsNonRoot: true } })]);
  });

  it('gives the apply configuration the object’s apiVersion and kind', () => {
    const out = applied(pod({ containers: [container('app')] }), { apiVersion: 'v2', kind: 'Other', metadata: { labels: { a: 'b' } } });
    expect([out.apiVersion, out.kind]).toEqual(['v1', 'Pod']);
  });
});

describe('list-maps merge their items by key', () => {
  it('merges containers by name: fields of a matched container are kept, new containers are added', () => {
    const object = pod({ containers: [container('app', { ports: [{ containerPort: 80 }] }), container('log')] });
    const out = applied(object, {
      spec: {
        containers: [
          { name: 'log', image: 'log:2' },
          { name: 'side', image: 'side:1' },
        ],
      },
    });
    expect((out.spec as JsonObject).containers).toEqual([
      container('app', { ports: [{ containerPort: 80 }] }),
      { name: 'log', image: 'log:2' },
      { name: 'side', image: 'side:1' },
    ]);
  });

  it('merges a nested list-map: a container’s env by name', () => {
    const object = pod({
      containers: [
        container('app', {
          env: [
            { name: 'A', value: '1' },
            { name: 'B', value: '2' },
          ],
        }),
      ],
    });
    const out = applied(object, {
      spec: {
        containers: [
          {
            name: 'app',
            env: [
              { name: 'B', value: '3' },
              { name: 'C', value: '4' },
            ],
          },
        ],
      },
    });
    expect((out.spec as JsonObject).containers).toEqual([
      container('app', {
        env: [
          { name: 'A', value: '1' },
          { name: 'B', value: '3' },
          { name: 'C', value: '4' },
        ],
      }),
    ]);
  });

  it('takes the apply configuration’s order for the items it has (smd visitListItems)', () => {
    const object = pod({ containers: [container('a'), container('b'), container('c')] });
    const out = applied(object, { spec: { containers: [{ name: 'c' }, { name: 'a' }] } });
    expect(((out.spec as JsonObject).containers as JsonObject[]).map((c) => c.name)).toEqual(['b', 'c', 'a']);
  });

  it('fills an omitted key from its default: containerPort 80 matches the TCP port 80', () => {
    const object = pod({ containers: [container('app', { ports: [{ containerPort: 80, protocol: 'TCP', name: 'http' }] })] });
    const same = applied(object, { spec: { containers: [{ name: 'app', ports: [{ containerPort: 80, name: 'web' }] }] } });
    expect(((same.spec as JsonObject).containers as JsonObject[])[0]?.ports).toEqual([{ containerPort: 80, protocol: 'TCP', name: 'web' }]);
    const other = applied(object, { spec: { containers: [{ name: 'app', ports: [{ containerPort: 80, protocol: 'UDP' }] }] } });
    expect(((other.spec as JsonObject).containers as JsonObject[])[0]?.ports).toEqual([
      { containerPort: 80, protocol: 'TCP', name: 'http' },
      { containerPort: 80, protocol: 'UDP' },
    ]);
  });

  it('merges a Service’s ports by port and protocol', () => {
    const service: JsonObject = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 's' },
      spec: { ports: [{ port: 80, protocol: 'TCP', targetPort: 8080 }] },
    };
    const out = applied(service, { spec: { ports: [{ port: 80, name: 'http' }, { port: 443 }] } }, schemaOf('v1', 'Service'));
    expect((out.spec as JsonObject).ports).toEqual([{ port: 80, protocol: 'TCP', targetPort: 8080, name: 'http' }, { port: 443 }]);
  });

  it('reaches a Deployment’s pod template', () => {
    const deployment: JsonObject = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd' },
      spec: { selector: { matchLabels: { app: 'd' } }, template: { metadata: { labels: { app: 'd' } }, spec: { containers: [container('app')] } } },
    };
    const out = applied(
      deployment,
      { spec: { template: { spec: { containers: [{ name: 'app', env: [{ name: 'X', value: 'y' }] }] } } } },
      schemaOf('apps/v1', 'Deployment'),
    );
    expect(out.spec).toEqual({
      selector: { matchLabels: { app: 'd' } },
      template: { metadata: { labels: { app: 'd' } }, spec: { containers: [container('app', { env: [{ name: 'X', value: 'y' }] })] } },
    });
  });
});

describe('sets are unions', () => {
  it('adds finalizers the object lacks, in the apply configuration’s order for the shared ones', () => {
    const object = pod({ containers: [container('app')] }, { finalizers: ['a.io/x'] });
    expect(applied(object, { metadata: { finalizers: ['b.io/y', 'a.io/x'] } }).metadata).toEqual({
      name: 'p',
      namespace: 'ns',
      finalizers: ['b.io/y', 'a.io/x'],
    });
    const two = pod({ containers: [container('app')] }, { finalizers: ['a', 'c'] });
    expect((applied(two, { metadata: { finalizers: ['b'] } }).metadata as JsonObject).finalizers).toEqual(['a', 'c', 'b']);
  });
});

describe('atomic lists, maps and structs', () => {
  it('are replaced whole by the structured merge', () => {
    const type = POD.root;
    const merged = mergeValues(
      pod({ containers: [container('app', { command: ['a', 'b'] })], nodeSelector: { zone: 'a', disk: 'ssd' } }),
      pod({ containers: [{ name: 'app', command: ['c'] }], nodeSelector: { zone: 'b' } }),
      type,
    );
    expect(merged.errors).toEqual([]);
    const spec = (merged.out as JsonObject).spec as JsonObject;
    expect(spec.nodeSelector).toEqual({ zone: 'b' });
    expect((spec.containers as JsonObject[])[0]?.command).toEqual(['c']);
  });

  it('may not be set by an ApplyConfiguration (patch/smd.go validatePatch)', () => {
    const object = pod({ containers: [container('app', { command: ['a'] })] });
    expect(refused(object, { spec: { containers: [{ name: 'app', command: ['b'] }], nodeSelector: { zone: 'b' }, tolerations: [] } })).toBe(
      'error applying patch: invalid ApplyConfiguration: may not mutate atomic arrays, maps or structs: .spec.containers[0].command, .spec.nodeSelector, .spec.tolerations',
    );
  });

  it('include atomic structs: a LabelSelector, the items of ownerReferences and imagePullSecrets', () => {
    const deployment: JsonObject = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: {} };
    expect(refused(deployment, { spec: { selector: { matchLabels: { a: 'b' } } } }, schemaOf('apps/v1', 'Deployment'))).toBe(
      'error applying patch: invalid ApplyConfiguration: may not mutate atomic arrays, maps or structs: .spec.selector',
    );
    expect(
      refused(pod({ containers: [container('app')] }), {
        metadata: { ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'n', uid: 'u' }] },
        spec: { imagePullSecrets: [{ name: 'reg' }] },
      }),
    ).toBe(
      'error applying patch: invalid ApplyConfiguration: may not mutate atomic arrays, maps or structs: .metadata.ownerReferences[0], .spec.imagePullSecrets[0]',
    );
  });

  it('honours a granular $ref over an atomic struct (PersistentVolume claimRef)', () => {
    const pv: JsonObject = { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv' }, spec: { claimRef: { name: 'c', namespace: 'ns' } } };
    const out = applied(pv, { spec: { claimRef: { uid: 'u' } } }, schemaOf('v1', 'PersistentVolume'));
    expect((out.spec as JsonObject).claimRef).toEqual({ name: 'c', namespace: 'ns', uid: 'u' });
  });
});

describe('explicit null in the structured merge', () => {
  it('replaces a scalar, leaves a granular map with content untouched', () => {
    const merged = mergeValues(
      pod({ containers: [container('app')], hostname: 'h' }, { labels: { a: 'b' } }),
      { metadata: { labels: null }, spec: { hostname: null } },
      POD.root,
    );
    expect(merged.errors).toEqual([]);
    expect(merged.out).toEqual(pod({ containers: [container('app')], hostname: null }, { labels: { a: 'b' } }));
  });

  it('never reaches smd from CEL: a CEL null is a structpb.NullValue, which no typed field accepts', () => {
    expect(refused(pod({ containers: [container('app')] }), { metadata: { labels: { a: NULL_VALUE } } })).toBe(
      'error applying patch: failed to convert patch object to typed object: .metadata.labels.a: expected string, got &value.valueUnstructured{Value:0}',
    );
  });
});

describe('what smd refuses in the apply configuration', () => {
  const object = pod({ containers: [container('app')] });

  it('an undeclared field', () => {
    expect(refused(object, { spec: { containerz: [] } })).toBe(
      'error applying patch: failed to convert patch object to typed object: .spec.containerz: field not declared in schema',
    );
  });

  it('scalars of the wrong type, several errors as one list', () => {
    expect(refused(object, { spec: { priority: 'high' } })).toBe(
      'error applying patch: failed to convert patch object to typed object: .spec.priority: expected numeric (int or float), got *value.valueUnstructured',
    );
    expect(refused(object, { spec: { hostname: 5, hostNetwork: 'yes' } })).toBe(
      'error applying patch: failed to convert patch object to typed object: errors:\n  .spec.hostname: expected string, got &value.valueUnstructured{Value:5}\n  .spec.hostNetwork: expected boolean, got &{yes}',
    );
  });

  it('a map or list where the schema has the other', () => {
    expect(refused(object, { spec: { containers: { name: 'x' } } })).toBe(
      'error applying patch: failed to convert patch object to typed object: .spec.containers: expected list, got &{map[name:x]}',
    );
    expect(refused(object, { metadata: { labels: ['a'] } })).toBe(
      'error applying patch: failed to convert patch object to typed object: .metadata.labels: expected map, got &{[a]}',
    );
  });

  it('duplicate keys, and an item whose key has no default', () => {
    expect(refused(object, { spec: { containers: [{ name: 'a' }, { name: 'a' }] } })).toBe(
      'error applying patch: failed to convert patch object to typed object: .spec.containers: duplicate entries for key [name="a"]',
    );
    const account: JsonObject = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'sa' } };
    expect(refused(account, { secrets: [{ namespace: 'ns' }] }, schemaOf('v1', 'ServiceAccount'))).toBe(
      'error applying patch: failed to convert patch object to typed object: .secrets: element 0: associative list with keys has an element that omits key field "name" (and doesn\'t have default value)',
    );
  });

  it('an object smd cannot read: two env vars of one name, which the API accepts', () => {
    const twice = pod({
      containers: [
        container('app', {
          env: [
            { name: 'A', value: '1' },
            { name: 'A', value: '2' },
          ],
        }),
      ],
    });
    expect(refused(twice, { metadata: { labels: { a: 'b' } } })).toBe(
      'error applying patch: failed to convert original object to typed object: .spec.containers[name="app"].env: duplicate entries for key [name="A"]',
    );
  });
});

describe('custom resources take their semantics from the CRD’s structural schema', () => {
  const schema = crdApplySchema(
    structuralSchema({
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            routes: {
              type: 'array',
              'x-kubernetes-list-type': 'map',
              'x-kubernetes-list-map-keys': ['host', 'port'],
              items: { type: 'object', properties: { host: { type: 'string' }, port: { type: 'integer', default: 443 }, weight: { type: 'integer' } } },
            },
            tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
            args: { type: 'array', items: { type: 'string' } },
            selector: { type: 'object', 'x-kubernetes-map-type': 'atomic', additionalProperties: { type: 'string' } },
            settings: { type: 'object', additionalProperties: { type: 'string' } },
            raw: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
            size: { 'x-kubernetes-int-or-string': true },
          },
        },
      },
    }),
  );
  const resource = (spec: JsonObject): JsonObject => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', labels: { a: 'b' } }, spec });

  it('merges a list-map by its keys, with a key default from the item schema', () => {
    const out = applied(
      resource({ routes: [{ host: 'a', port: 443, weight: 1 }] }),
      {
        spec: {
          routes: [
            { host: 'a', weight: 2 },
            { host: 'b', port: 80 },
          ],
        },
      },
      schema,
    );
    expect((out.spec as JsonObject).routes).toEqual([
      { host: 'a', port: 443, weight: 2 },
      { host: 'b', port: 80 },
    ]);
  });

  it('unions a set, merges maps and metadata (ObjectMeta), keeps unknown fields where they are preserved', () => {
    const out = applied(
      resource({ tags: ['x'], settings: { a: '1' }, raw: { deep: { keep: 1 } } }),
      { metadata: { labels: { c: 'd' } }, spec: { tags: ['y'], settings: { b: '2' }, raw: { deep: { add: 2 } }, size: '50%' } },
      schema,
    );
    expect(out.metadata).toEqual({ name: 'w', labels: { a: 'b', c: 'd' } });
    expect(out.spec).toEqual({ tags: ['x', 'y'], settings: { a: '1', b: '2' }, raw: { deep: { keep: 1, add: 2 } }, size: '50%' });
  });

  it('refuses atomic lists and maps, and fields the schema does not declare', () => {
    expect(refused(resource({}), { spec: { args: ['a'], selector: { a: 'b' } } }, schema)).toBe(
      'error applying patch: invalid ApplyConfiguration: may not mutate atomic arrays, maps or structs: .spec.args, .spec.selector',
    );
    expect(refused(resource({}), { spec: { unknown: 1 } }, schema)).toBe(
      'error applying patch: failed to convert patch object to typed object: .spec.unknown: field not declared in schema',
    );
  });
});

describe('kinds whose semantics were not read', () => {
  it('are flagged unverified', () => {
    expect(builtinApplySchema('v1', 'Pod')?.verified).toBe(true);
    expect(builtinApplySchema('storage.k8s.io/v1', 'StorageClass')?.verified).toBe(false);
    expect(builtinApplySchema('example.com/v1', 'Widget')).toBeUndefined();
  });
});
