import type { CatalogEntry } from '../kube/catalog';
import { isObject, type JsonObject } from '../kube/json';
import { structForKind, type GoType, type SpecialType, type StructType } from '../registry/schema/table';

/*
 * The `components.schemas` of an OpenAPI v3 document: built-in kinds from the registry's schema table (the Go
 * types as the npm package kubernetes-models describes them), custom resources from their CRD's
 * openAPIV3Schema. Component names are the definition names kube-openapi uses (`io.k8s.api.core.v1.Pod`).
 */

const ref = (id: string): JsonObject => ({ $ref: `#/components/schemas/${id}` });

/** How kube-openapi describes the types that marshal themselves (resource.Quantity, metav1.Time, intstr…). */
function specialSchema(type: SpecialType): JsonObject {
  switch (type.kind) {
    case 'quantity':
      return { oneOf: [{ type: 'string' }, { type: 'number' }] };
    case 'intOrString':
      return { type: 'string', format: 'int-or-string', 'x-kubernetes-int-or-string': true };
    case 'time':
      return { type: 'string', format: 'date-time' };
    case 'microTime':
      return { type: 'string', format: 'date-time' };
    case 'rawExtension':
    case 'fieldsV1':
      return { type: 'object' };
    default:
      return { 'x-kubernetes-preserve-unknown-fields': true };
  }
}

/** Adds `type`'s schema to `schemas` (and every type it reaches) and returns how a field refers to it. */
function schemaOf(type: GoType, schemas: Map<string, JsonObject>): JsonObject {
  switch (type.kind) {
    case 'string':
      return type.enum ? { type: 'string', enum: [...type.enum] } : { type: 'string' };
    case 'bool':
      return { type: 'boolean' };
    case 'int32':
    case 'int64':
      return { type: 'integer', format: type.kind };
    case 'float64':
      return { type: 'number', format: 'double' };
    case 'bytes':
      return { type: 'string', format: 'byte' };
    case 'slice':
      return { type: 'array', items: schemaOf(type.elem, schemas) };
    case 'map':
      return { type: 'object', additionalProperties: schemaOf(type.elem, schemas) };
    case 'struct':
      addStruct(type, schemas);
      return ref(type.id);
    default:
      if (!schemas.has(type.id)) schemas.set(type.id, specialSchema(type));
      return ref(type.id);
  }
}

function addStruct(struct: StructType, schemas: Map<string, JsonObject>): void {
  if (schemas.has(struct.id)) return;
  const schema: JsonObject = { type: 'object' };
  schemas.set(struct.id, schema); // before its fields: structs refer to themselves (JSONSchemaProps)
  const properties: JsonObject = {};
  for (const [name, type] of struct.fields) properties[name] = schemaOf(type, schemas);
  schema.properties = properties;
  if (struct.required.length > 0) schema.required = [...struct.required];
  if (struct.gvk) {
    const [group, version] = struct.gvk.apiVersion.includes('/') ? struct.gvk.apiVersion.split('/') : ['', struct.gvk.apiVersion];
    schema['x-kubernetes-group-version-kind'] = [{ group: group ?? '', version: version ?? '', kind: struct.gvk.kind }];
  }
}

/** The component name of a custom resource's schema, as the CRD handler names it: `com.example.v1.Widget`. */
export function customSchemaName(entry: CatalogEntry): string {
  return `${entry.group.split('.').reverse().join('.')}.${entry.version}.${entry.kind}`;
}

/**
 * Adds the schema of `entry`'s kind (and its List, for built-ins) to `schemas`; returns its component name,
 * or undefined when there is none to give (a custom resource without a schema, a kind the table lacks).
 */
export function addKindSchema(entry: CatalogEntry, schemas: Map<string, JsonObject>): string | undefined {
  if (entry.storageVersion !== undefined || entry.schema !== undefined) {
    if (!isObject(entry.schema)) return undefined;
    const name = customSchemaName(entry);
    const declared = isObject(entry.schema.properties) ? entry.schema.properties : {};
    const properties = {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: ref('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'),
      ...declared,
    };
    const meta = structForKind('v1', 'ConfigMap')?.fields.get('metadata');
    if (meta) schemaOf(meta, schemas);
    schemas.set(name, { ...entry.schema, properties, 'x-kubernetes-group-version-kind': [{ group: entry.group, version: entry.version, kind: entry.kind }] });
    return name;
  }
  const apiVersion = entry.group ? `${entry.group}/${entry.version}` : entry.version;
  const struct = structForKind(apiVersion, entry.kind);
  if (!struct) return undefined;
  addStruct(struct, schemas);
  const list = structForKind(apiVersion, `${entry.kind}List`);
  if (list) addStruct(list, schemas);
  return struct.id;
}
