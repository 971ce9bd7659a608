/**
 * What kube's static cost estimate knows of a custom resource's data: the CEL declaration types it
 * derives from the schema (k8s.io/apiserver pkg/cel/common/schemas.go `SchemaDeclType`), reduced to
 * what sizes need: each type's largest size (`MaxElements`: characters, items or properties) and the
 * smallest JSON it can be written as (`MinSerializedSize`), which bounds how many of it fit in one
 * request when the schema sets no maxItems or maxProperties.
 */
import type { SizedKind, SizedType } from '../../../cel/cost/estimate';
import type { SchemaNode } from '../schema-node';

/** `MaxRequestSizeBytes` (k8s.io/apiserver pkg/apis/cel/config.go): 3 MiB, the largest request body. */
export const MAX_REQUEST_SIZE_BYTES = 3 * 1024 * 1024;

// The JSON sizes of schemas.go's scalar types (k8s.io/apiserver pkg/cel/limits.go).
const MIN_STRING_SIZE = 2;
const MIN_BOOL_SIZE = 4;
const MIN_NUMBER_SIZE = 1;
const MAX_DURATION_SIZE_JSON = 32;
const MIN_DURATION_SIZE_JSON = 3;
const MAX_DATETIME_SIZE_JSON = 32;
const MIN_DATETIME_SIZE_JSON = 22;
const JSON_DATE_SIZE = 12;

const NO_FIELDS: ReadonlyMap<string, SizedType> = new Map();
const scalar = (kind: SizedKind, minSerializedSize: number, maxElements = 0): SizedType => ({ kind, maxElements, minSerializedSize, fields: NO_FIELDS });
const MAP_KEY = scalar('string', MIN_STRING_SIZE);

/** `estimateMaxStringLengthPerRequest`: a format's longest JSON, else the whole request less its quotes. */
function maxStringLength(node: SchemaNode): number {
  if (node.intOrString) return MAX_REQUEST_SIZE_BYTES - 2;
  switch (node.format) {
    case 'duration':
      return MAX_DURATION_SIZE_JSON;
    case 'date':
      return JSON_DATE_SIZE;
    case 'date-time':
      return MAX_DATETIME_SIZE_JSON;
    default:
      return MAX_REQUEST_SIZE_BYTES - 2;
  }
}

function stringType(node: SchemaNode): SizedType {
  switch (node.format) {
    case 'byte':
      return scalar('bytes', MIN_STRING_SIZE, node.maxLength ?? maxStringLength(node));
    case 'duration':
      return scalar('duration', MIN_DURATION_SIZE_JSON, maxStringLength(node));
    case 'date':
      return scalar('timestamp', JSON_DATE_SIZE, maxStringLength(node));
    case 'date-time':
      return scalar('timestamp', MIN_DATETIME_SIZE_JSON, maxStringLength(node));
  }
  // maxLength counts code points and one is up to 4 bytes (`estimateMaxElementsFromMaxLength`).
  if (node.maxLength !== undefined) return scalar('string', MIN_STRING_SIZE, Math.max(0, node.maxLength) * 4);
  const enumLengths = (node.enum ?? []).filter((v): v is string => typeof v === 'string').map((v) => Buffer.byteLength(v));
  if (enumLengths.length > 0) return scalar('string', MIN_STRING_SIZE, Math.max(...enumLengths));
  return scalar('string', MIN_STRING_SIZE, maxStringLength(node));
}

/** `estimateMaxArrayItemsFromMinSize`: items of the smallest JSON, a comma each, between `[` and `]`. */
export const maxArrayItems = (minSize: number): number => Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (minSize + 1));

/** `estimateMaxAdditionalPropertiesFromMinSize`: `"":` and a comma around each smallest value, between `{` and `}`. */
export const maxAdditionalProperties = (minSize: number): number => Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (minSize + 6));

/** The metadata fields an embedded resource always exposes (schemas.go `WithTypeAndObjectMeta`). */
function withTypeAndObjectMeta(fields: Map<string, SizedType>): void {
  const text = scalar('string', MIN_STRING_SIZE, MAX_REQUEST_SIZE_BYTES - 2);
  if (!fields.has('apiVersion')) fields.set('apiVersion', text);
  if (!fields.has('kind')) fields.set('kind', text);
  if (!fields.has('metadata'))
    fields.set('metadata', {
      kind: 'object',
      maxElements: 0,
      minSerializedSize: 2,
      fields: new Map([
        ['name', text],
        ['generateName', text],
      ]),
    });
}

function objectType(node: SchemaNode): SizedType {
  if (typeof node.additionalProperties === 'object') {
    const elem = sizedType(node.additionalProperties);
    const maxElements = node.maxProperties ?? maxAdditionalProperties(elem.minSerializedSize);
    return { kind: 'map', maxElements, minSerializedSize: 2, fields: NO_FIELDS, elem, key: MAP_KEY };
  }
  const fields = new Map<string, SizedType>();
  // An object is at least `{}`, plus each required property without a default (it is not filled in).
  let minSerializedSize = 2;
  for (const [name, child] of node.properties) {
    const type = sizedType(child);
    fields.set(name, type);
    if (node.required.includes(name) && child.default === undefined) minSerializedSize += Buffer.byteLength(name) + type.minSerializedSize + 4;
  }
  if (node.embeddedResource) withTypeAndObjectMeta(fields);
  return { kind: 'object', maxElements: 0, minSerializedSize, fields };
}

const cache = new WeakMap<SchemaNode, SizedType>();

/** The declaration type kube derives from a schema node, as far as sizes go. */
export function sizedType(node: SchemaNode): SizedType {
  const cached = cache.get(node);
  if (cached) return cached;
  let type: SizedType;
  if (node.intOrString) type = scalar('dyn', MIN_NUMBER_SIZE, maxStringLength(node));
  else if (node.type === 'array' && node.items) {
    const elem = sizedType(node.items);
    type = { kind: 'list', maxElements: node.maxItems ?? maxArrayItems(elem.minSerializedSize), minSerializedSize: 2, fields: NO_FIELDS, elem };
  } else if (node.type === 'object') type = objectType(node);
  else if (node.type === 'string') type = stringType(node);
  else if (node.type === 'boolean') type = scalar('bool', MIN_BOOL_SIZE);
  else if (node.type === 'integer') type = scalar('int', MIN_NUMBER_SIZE);
  else if (node.type === 'number') type = scalar('double', MIN_NUMBER_SIZE);
  else type = scalar('dyn', MIN_NUMBER_SIZE);
  cache.set(node, type);
  return type;
}

/**
 * compilation.go `maxCardinality`: how many times data of this smallest JSON size could appear in one
 * request, the rule's cardinality when an enclosing list or map sets no bound.
 */
export const maxCardinality = (minSize: number): number => Math.floor(MAX_REQUEST_SIZE_BYTES / (minSize + 1));

/** The type of a custom resource's root: `apiVersion`, `kind` and `metadata` are there even when the schema leaves them out. */
export function resourceRootType(node: SchemaNode): SizedType {
  const type = sizedType(node);
  if (type.kind !== 'object') return type;
  const fields = new Map(type.fields);
  withTypeAndObjectMeta(fields);
  return { ...type, fields };
}
