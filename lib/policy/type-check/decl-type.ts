/**
 * The CEL type kube-apiserver gives `object`, `oldObject` and `params` when it type-checks a
 * ValidatingAdmissionPolicy: k8s.io/apiserver/pkg/cel/common/schemas.go `SchemaDeclType` applied to the
 * kind's OpenAPI schema, with the escaping of property names of pkg/cel/escaping.go. The schema comes from
 * the harness's own sources instead of the OpenAPI document: the built-in kinds' schema table
 * (lib/registry/schema/table.ts) and a CustomResourceDefinition version's `openAPIV3Schema`
 * (lib/registry/crd/structural.ts).
 */
import { structByName, type GoType, type StructType } from '../../registry/schema/table';
import type { SchemaNode } from '../../registry/crd/schema-node';
import { structuralSchema } from '../../registry/crd/structural';

/** A scalar CEL type, spelt as cel-js names it (cel-go: `timestamp`, `duration`). */
export type ScalarName = 'string' | 'int' | 'double' | 'bool' | 'bytes' | 'google.protobuf.Timestamp' | 'google.protobuf.Duration' | 'dyn';

/**
 * pkg/cel/types.go `DeclType`, reduced to what type checking reads: objects, lists, maps and scalars.
 * An object converted from a schema has no name until it is declared (types.go `MaybeAssignTypeName`
 * names it after where it sits); a hand-made one (the namespace type) has its own.
 */
export type DeclType =
  | { readonly kind: 'object'; readonly fields: ReadonlyMap<string, DeclType>; readonly name?: string }
  | { readonly kind: 'list'; readonly elem: DeclType }
  | { readonly kind: 'map'; readonly elem: DeclType }
  | { readonly kind: 'scalar'; readonly name: ScalarName };

const scalar = (name: ScalarName): DeclType => ({ kind: 'scalar', name });
const STRING = scalar('string');
const DYN = scalar('dyn');
const TIMESTAMP = scalar('google.protobuf.Timestamp');
const EMPTY_OBJECT: DeclType = { kind: 'object', fields: new Map() };

// pkg/cel/escaping.go `celReservedSymbols`.
export const CEL_RESERVED_SYMBOLS: ReadonlySet<string> = new Set([
  'true',
  'false',
  'null',
  'in',
  'as',
  'break',
  'const',
  'continue',
  'else',
  'for',
  'function',
  'if',
  'import',
  'let',
  'loop',
  'package',
  'namespace',
  'return',
  'var',
  'void',
  'while',
]);

const ESCAPES: Readonly<Record<string, string>> = { __: '__underscores__', '.': '__dot__', '-': '__dash__', '/': '__slash__' };

/**
 * escaping.go `Escape`: the CEL field name of a property, or undefined when the property is not
 * exposed to CEL (it starts with a digit, or holds a character outside `[a-zA-Z0-9_.-/]`).
 */
export function escapeFieldName(name: string): string | undefined {
  if (name === '' || (name[0] !== undefined && name[0] >= '0' && name[0] <= '9')) return undefined;
  if (CEL_RESERVED_SYMBOLS.has(name)) return `__${name}__`;
  if (!/^[a-zA-Z0-9_.\-/]*$/.test(name)) return undefined;
  // Go's regexp is leftmost-first like JavaScript's, so `__` wins over a lone `_` at the same place.
  return name.replace(/__|[-./]/g, (match) => ESCAPES[match] ?? match);
}

/**
 * common.WithTypeAndObjectMeta, applied by SchemaDeclType at the root of a resource: `kind`,
 * `apiVersion`, `metadata.name` and `metadata.generateName` are always readable. Kube checks the
 * schema before converting it; checking the converted type is the same test.
 */
function withTypeAndObjectMeta(fields: Map<string, DeclType>): void {
  const isString = (type: DeclType | undefined) => type?.kind === 'scalar' && type.name === 'string';
  const metadata = fields.get('metadata');
  if (
    isString(fields.get('kind')) &&
    isString(fields.get('apiVersion')) &&
    metadata?.kind === 'object' &&
    isString(metadata.fields.get('name')) &&
    isString(metadata.fields.get('generateName'))
  )
    return;
  fields.set('kind', STRING);
  fields.set('apiVersion', STRING);
  fields.set('metadata', {
    kind: 'object',
    fields: new Map([
      ['name', STRING],
      ['generateName', STRING],
    ]),
  });
}

const builtinCache = new WeakMap<StructType, DeclType>();

/**
 * The type of a built-in kind, as kube derives it from the generated OpenAPI definitions
 * (pkg/cel/openapi/resolver/definitions.go `DefinitionsSchemaResolver`, refs inlined by refs.go
 * `populateRefs`) and SchemaDeclType(schema, isResourceRoot=true):
 * - int32/int64 are `int`, float64 `double`, `[]byte` (`format: byte`) `bytes`;
 * - Time and MicroTime (`format: date-time`) are `timestamp`;
 * - IntOrString (`format: int-or-string`) is `dyn`;
 * - Quantity's definition has `oneOf` and no `type`, so a Quantity field is not exposed at all, nor is
 *   a map of them (`resources.limits` is an undefined field in kube's check too);
 * - apiextensions JSON and JSONSchemaPropsOr* have no type either: not exposed;
 * - RawExtension and FieldsV1 are `type: object` without properties: objects without fields;
 * - a definition met again inside itself (JSONSchemaProps) is an object without fields, refs.go's
 *   placeholder for a circular reference.
 */
export function builtinDeclType(struct: StructType): DeclType {
  const known = builtinCache.get(struct);
  if (known) return known;
  const root = structDeclType(struct, new Set(), true);
  builtinCache.set(struct, root);
  return root;
}

function structDeclType(struct: StructType, visiting: Set<string>, isResourceRoot: boolean): DeclType {
  if (visiting.has(struct.id)) return EMPTY_OBJECT;
  visiting.add(struct.id);
  const fields = new Map<string, DeclType>();
  for (const [name, type] of struct.fields) {
    const fieldType = goDeclType(type, visiting);
    const escaped = escapeFieldName(name);
    if (fieldType && escaped !== undefined) fields.set(escaped, fieldType);
  }
  visiting.delete(struct.id);
  if (isResourceRoot) withTypeAndObjectMeta(fields);
  return { kind: 'object', fields };
}

function goDeclType(type: GoType, visiting: Set<string>): DeclType | undefined {
  switch (type.kind) {
    case 'string':
      return STRING;
    case 'bool':
      return scalar('bool');
    case 'int32':
    case 'int64':
      return scalar('int');
    case 'float64':
      return scalar('double');
    case 'bytes':
      return scalar('bytes');
    case 'slice': {
      const elem = goDeclType(type.elem, visiting);
      return elem && { kind: 'list', elem };
    }
    case 'map': {
      const elem = goDeclType(type.elem, visiting);
      return elem && { kind: 'map', elem };
    }
    case 'struct':
      return structDeclType(type, visiting, false);
    case 'time':
    case 'microTime':
      return TIMESTAMP;
    case 'intOrString':
      return DYN;
    case 'rawExtension':
    case 'fieldsV1':
      return EMPTY_OBJECT;
    case 'quantity':
    case 'json':
    case 'jsonSchemaPropsOrArray':
    case 'jsonSchemaPropsOrBool':
    case 'jsonSchemaPropsOrStringArray':
      return undefined;
  }
}

const OBJECT_META_ID = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

/** The built-in ObjectMeta, which the OpenAPI kube publishes for a custom resource refers to. */
function objectMetaDeclType(): DeclType {
  const objectMeta = structByName(OBJECT_META_ID);
  return objectMeta
    ? structDeclType(objectMeta, new Set(), false)
    : {
        kind: 'object',
        fields: new Map([
          ['name', STRING],
          ['generateName', STRING],
        ]),
      };
}

const crdCache = new WeakMap<object, DeclType | null>();

/**
 * The type of a custom resource version, from its `openAPIV3Schema`. Kube resolves it from the OpenAPI v3
 * document it publishes for the CRD (resolver/discovery.go `ClientDiscoveryResolver`), where the
 * apiextensions OpenAPI builder has made `apiVersion` and `kind` strings and `metadata` a reference to
 * ObjectMeta, at the root and at every `x-kubernetes-embedded-resource`. Undefined when the root is not
 * exposed (no type): `object` is then `dyn`.
 */
export function customResourceDeclType(openAPIV3Schema: unknown): DeclType | undefined {
  const cacheKey = typeof openAPIV3Schema === 'object' && openAPIV3Schema !== null ? openAPIV3Schema : undefined;
  if (cacheKey && crdCache.has(cacheKey)) return crdCache.get(cacheKey) ?? undefined;
  const type = schemaDeclType(structuralSchema(openAPIV3Schema).root, true, objectMetaDeclType());
  if (cacheKey) crdCache.set(cacheKey, type ?? null);
  return type;
}

/**
 * schemas.go `SchemaDeclType` for one node of a structural schema: x-kubernetes-int-or-string is `dyn`;
 * an array without items, a map whose values are not exposed and a node without a type are not exposed;
 * an object with an `additionalProperties` schema is a map, any other object has its properties as
 * fields (unknown fields of x-kubernetes-preserve-unknown-fields objects are not exposed); strings of
 * format byte, duration, date and date-time are bytes, duration and timestamps.
 */
function schemaDeclType(node: SchemaNode, isResourceRoot: boolean, objectMeta: DeclType): DeclType | undefined {
  if (node.intOrString) return DYN;
  switch (node.type) {
    case 'array': {
      if (!node.items) return undefined;
      const elem = schemaDeclType(node.items, node.items.embeddedResource, objectMeta);
      return elem && { kind: 'list', elem };
    }
    case 'object': {
      const additional = node.additionalProperties;
      if (typeof additional === 'object') {
        const elem = schemaDeclType(additional, additional.embeddedResource, objectMeta);
        return elem && { kind: 'map', elem };
      }
      const fields = new Map<string, DeclType>();
      for (const [name, property] of node.properties) {
        const fieldType = schemaDeclType(property, property.embeddedResource, objectMeta);
        const escaped = escapeFieldName(name);
        if (fieldType && escaped !== undefined) fields.set(escaped, fieldType);
      }
      if (isResourceRoot) {
        // builder.go `addTypeMetaProperties` / `addEmbeddedProperties`, then WithTypeAndObjectMeta.
        fields.set('apiVersion', STRING);
        fields.set('kind', STRING);
        fields.set('metadata', objectMeta);
        withTypeAndObjectMeta(fields);
      }
      return { kind: 'object', fields };
    }
    case 'string':
      switch (node.format) {
        case 'byte':
          return scalar('bytes');
        case 'duration':
          return scalar('google.protobuf.Duration');
        case 'date':
        case 'date-time':
          return TIMESTAMP;
        default:
          return STRING;
      }
    case 'boolean':
      return scalar('bool');
    case 'number':
      return scalar('double');
    case 'integer':
      return scalar('int');
    default:
      return undefined;
  }
}
