// Which kinds a policy is type-checked against (typecheckingcontext.go typesToCheck, upstream's
// TestExtractTypeNames) and how schemas become CEL types (common/schemas.go SchemaDeclType,
// escaping.go Escape).
import type { GroupVersionKind, GroupVersionResource } from '../../../lib/kube/admission';
import type { MatchResources } from '../../../lib/kube/admission-policy';
import { ResourceCatalog } from '../../../lib/kube/catalog';
import {
  builtinDeclType,
  catalogKindResolver,
  catalogSchemaResolver,
  customResourceDeclType,
  escapeFieldName,
  formatGvk,
  MAX_TYPES_TO_CHECK,
  typesToCheck,
  type DeclType,
} from '../../../lib/policy/type-check';
import { structForKind } from '../../../lib/registry/schema/table';

const catalog = new ResourceCatalog();
const resolve = catalogKindResolver(catalog);
const rules = (...list: { apiGroups: string[]; apiVersions: string[]; resources: string[] }[]): MatchResources => ({
  resourceRules: list.map((rule) => ({ ...rule, operations: ['CREATE'] })),
});

describe('typesToCheck', () => {
  it('no resourceRules: nothing to check', () => {
    expect(typesToCheck(undefined, resolve)).toEqual([]);
    expect(typesToCheck({}, resolve)).toEqual([]);
  });

  it('resolves each group/version/resource to its kind, sorted by group, version and kind', () => {
    const match = rules(
      { apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] },
      { apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] },
    );
    expect(typesToCheck(match, resolve)).toEqual([
      { group: '', version: 'v1', kind: 'Pod' },
      { group: 'apps', version: 'v1', kind: 'Deployment' },
    ]);
  });

  it('skips a rule with a wildcard group or version, and wildcard or subresource resources', () => {
    expect(typesToCheck(rules({ apiGroups: ['apps'], apiVersions: ['v1'], resources: ['*'] }), resolve)).toEqual([]);
    expect(typesToCheck(rules({ apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments/*'] }), resolve)).toEqual([]);
    const mixed = rules(
      { apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments', 'deployments/scale', '*'] },
      { apiGroups: ['apps'], apiVersions: ['*'], resources: ['replicasets'] },
      { apiGroups: ['*'], apiVersions: ['v1'], resources: ['pods'] },
    );
    expect(typesToCheck(mixed, resolve)).toEqual([{ group: 'apps', version: 'v1', kind: 'Deployment' }]);
  });

  it('lists a kind named twice once', () => {
    const match = rules(
      { apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments', 'deployment'] },
      { apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] },
    );
    expect(typesToCheck(match, resolve)).toEqual([{ group: 'apps', version: 'v1', kind: 'Deployment' }]);
  });

  // A resolver that makes up one kind per resource name.
  const madeUp = ({ group, version, resource }: GroupVersionResource): GroupVersionKind[] => [{ group, version, kind: resource.toUpperCase() }];
  const resources = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(2, '0')}`);

  it(`stops at ${MAX_TYPES_TO_CHECK} kinds in one rule, and then reads no further rule`, () => {
    const match = rules({ apiGroups: ['x'], apiVersions: ['v1'], resources: resources('a', 12) }, { apiGroups: ['x'], apiVersions: ['v1'], resources: ['z'] });
    expect(typesToCheck(match, madeUp).map((gvk) => gvk.kind)).toEqual(resources('A', 10));
  });

  it('counts kinds per rule, so rules of fewer kinds each may add up to more', () => {
    const match = rules(
      { apiGroups: ['x'], apiVersions: ['v1'], resources: resources('a', 6) },
      { apiGroups: ['x'], apiVersions: ['v1'], resources: resources('b', 6) },
    );
    expect(typesToCheck(match, madeUp)).toHaveLength(12);
  });

  it('formats kinds as schema.GroupVersionKind prints them', () => {
    expect(formatGvk({ group: '', version: 'v1', kind: 'Pod' })).toBe('/v1, Kind=Pod');
    expect(formatGvk({ group: 'apps', version: 'v1', kind: 'Deployment' })).toBe('apps/v1, Kind=Deployment');
  });
});

describe('catalog resolvers', () => {
  it('resolves plural and singular resource names, in any case, and nothing for unknown ones', () => {
    expect(resolve({ group: 'apps', version: 'v1', resource: 'Deployments' })).toEqual([{ group: 'apps', version: 'v1', kind: 'Deployment' }]);
    expect(resolve({ group: '', version: 'v1', resource: 'pod' })).toEqual([{ group: '', version: 'v1', kind: 'Pod' }]);
    expect(resolve({ group: 'apps', version: 'v2', resource: 'deployments' })).toEqual([]);
  });

  it('finds a built-in kind’s struct, a custom resource’s schema, and nothing for other kinds', () => {
    const crdCatalog = new ResourceCatalog();
    const openAPIV3Schema = { type: 'object', properties: { spec: { type: 'object' } } };
    crdCatalog.registerCustomResourceDefinition({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'gadgets.example.com' },
      spec: {
        group: 'example.com',
        names: { plural: 'gadgets', kind: 'Gadget' },
        scope: 'Cluster',
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema } }],
      },
    });
    const schemaFor = catalogSchemaResolver(crdCatalog);
    expect(schemaFor({ group: 'example.com', version: 'v1', kind: 'Gadget' })).toEqual({ source: 'openAPIV3Schema', schema: openAPIV3Schema });
    expect(schemaFor({ group: '', version: 'v1', kind: 'ConfigMap' })).toEqual({ source: 'builtin', struct: structForKind('v1', 'ConfigMap') });
    expect(schemaFor({ group: 'example.com', version: 'v1', kind: 'Gizmo' })).toBeUndefined();
  });
});

describe('escapeFieldName (escaping.go Escape)', () => {
  it.each([
    ['name', 'name'],
    ['max-size', 'max__dash__size'],
    ['a.b/c', 'a__dot__b__slash__c'],
    ['__x', '__underscores__x'],
    ['a___b', 'a__underscores___b'],
    ['namespace', '__namespace__'],
    ['if', '__if__'],
  ])('%s is %s', (name, escaped) => expect(escapeFieldName(name)).toBe(escaped));

  it.each(['', '1st', 'a b', 'a:b', 'é'])('%j is not exposed', (name) => expect(escapeFieldName(name)).toBeUndefined());
});

/** The type at a path of fields (`*` for a list's or a map's element), or undefined where there is none. */
function at(type: DeclType | undefined, path: string): DeclType | undefined {
  let current = type;
  for (const step of path.split('.')) {
    if (!current) return undefined;
    if (step === '*') current = current.kind === 'list' || current.kind === 'map' ? current.elem : undefined;
    else current = current.kind === 'object' ? current.fields.get(step) : undefined;
  }
  return current;
}
const describeType = (type: DeclType | undefined): string => {
  if (!type) return 'absent';
  if (type.kind === 'scalar') return type.name;
  if (type.kind === 'object') return type.fields.size === 0 ? 'object without fields' : 'object';
  return `${type.kind}(${describeType(type.elem)})`;
};

describe('built-in kinds (schema table → SchemaDeclType)', () => {
  const struct = (apiVersion: string, kind: string) => {
    const found = structForKind(apiVersion, kind);
    if (!found) throw new Error(`no ${apiVersion} ${kind} in the schema table`);
    return found;
  };
  const pod = builtinDeclType(struct('v1', 'Pod'));

  it.each([
    ['apiVersion', 'string'],
    ['metadata.creationTimestamp', 'google.protobuf.Timestamp'],
    ['metadata.__namespace__', 'string'],
    ['metadata.labels', 'map(string)'],
    ['metadata.managedFields.*.fieldsV1', 'object without fields'],
    ['spec.containers', 'list(object)'],
    ['spec.containers.*.image', 'string'],
    ['spec.containers.*.ports.*.containerPort', 'int'],
    ['spec.containers.*.resources.limits', 'absent'],
    ['spec.overhead', 'absent'],
    ['spec.containers.*.livenessProbe.httpGet.port', 'dyn'],
    ['spec.securityContext.runAsNonRoot', 'bool'],
  ])('Pod %s: %s', (path, expected) => expect(describeType(at(pod, path))).toBe(expected));

  it('int32 is int, []byte is bytes, RawExtension an object without fields', () => {
    expect(describeType(at(builtinDeclType(struct('autoscaling/v2', 'HorizontalPodAutoscaler')), 'spec.metrics.*.resource.target.averageUtilization'))).toBe(
      'int',
    );
    expect(describeType(at(builtinDeclType(struct('v1', 'Secret')), 'data'))).toBe('map(bytes)');
    expect(describeType(at(builtinDeclType(struct('apps/v1', 'ControllerRevision')), 'data'))).toBe('object without fields');
  });

  it('float64 is double; a definition inside itself becomes an object without fields (refs.go’s placeholder); JSON is not exposed', () => {
    const crd = builtinDeclType(struct('apiextensions.k8s.io/v1', 'CustomResourceDefinition'));
    const schema = at(crd, 'spec.versions.*.schema.openAPIV3Schema');
    expect(describeType(at(schema, 'type'))).toBe('string');
    expect(describeType(at(schema, 'maximum'))).toBe('double');
    expect(describeType(at(schema, 'properties.*'))).toBe('object without fields');
    expect(describeType(at(schema, 'default'))).toBe('absent');
    expect(describeType(at(schema, 'items'))).toBe('absent');
  });
});

describe('custom resources (openAPIV3Schema → SchemaDeclType)', () => {
  const type = customResourceDeclType({
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          blob: { type: 'string', format: 'byte' },
          timeout: { type: 'string', format: 'duration' },
          day: { type: 'string', format: 'date' },
          score: { type: 'number' },
          untyped: {},
          open: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
          noItems: { type: 'array' },
          mapOfUntyped: { type: 'object', additionalProperties: {} },
          allowsMore: { type: 'object', additionalProperties: true, properties: { known: { type: 'boolean' } } },
          resource: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: {} },
        },
      },
    },
  });

  it.each([
    ['apiVersion', 'string'],
    ['kind', 'string'],
    ['metadata.labels', 'map(string)'],
    ['metadata.generateName', 'string'],
    ['spec.blob', 'bytes'],
    ['spec.timeout', 'google.protobuf.Duration'],
    ['spec.day', 'google.protobuf.Timestamp'],
    ['spec.score', 'double'],
    ['spec.untyped', 'absent'],
    ['spec.open', 'object without fields'],
    ['spec.noItems', 'absent'],
    ['spec.mapOfUntyped', 'absent'],
    ['spec.allowsMore.known', 'bool'],
    ['spec.resource.metadata.name', 'string'],
    ['spec.resource.kind', 'string'],
  ])('%s: %s', (path, expected) => expect(describeType(at(type, path))).toBe(expected));

  it('a schema whose root has no type leaves object dyn', () => {
    expect(customResourceDeclType({})).toBeUndefined();
  });
});
