/**
 * A CRD version's `openAPIV3Schema`, read once into the tree (schema-node.ts) every other step of this folder walks:
 * pruning and defaulting read its structural part (types, properties, items, additionalProperties and
 * the x-kubernetes extensions), validation also its value validations (enum, bounds, patterns, allOf…)
 * and its `x-kubernetes-validations` rules.
 *
 * kube-apiserver keeps two views of the same schema: `schema.Structural` for pruning, defaulting and
 * CEL (apiextensions-apiserver pkg/apiserver/schema/structural.go) and a kube-openapi `spec.Schema`
 * for value validation (pkg/apiserver/validation/validation.go `NewSchemaValidator`). A schema the API
 * accepted is structural, so one tree serves both here.
 */
import { cloneJson, isObject, type Json, type JsonObject } from '../../kube/json';
import { pruneFields } from './prune-fields';
import type { SchemaNode, StructuralSchema, ValidationRule } from './schema-node';

const cache = new WeakMap<object, StructuralSchema>();
const EMPTY: StructuralSchema = Object.freeze({ root: parse({}, ''), hasRules: false });

/**
 * Compiles a CRD version's `openAPIV3Schema` (the object found at
 * `spec.versions[i].schema.openAPIV3Schema`). The result is cached by the schema object's identity,
 * so compile once per CRD and keep the schema object unchanged. A missing schema (a version without
 * one) compiles to an empty schema that prunes everything but apiVersion, kind and metadata.
 */
export function structuralSchema(openAPIV3Schema: unknown): StructuralSchema {
  if (!isObject(openAPIV3Schema)) return EMPTY;
  const cached = cache.get(openAPIV3Schema);
  if (cached) return cached;
  const root = parse(openAPIV3Schema, '');
  pruneDefaults(root, true);
  const compiled: StructuralSchema = { root, hasRules: hasRules(root) };
  cache.set(openAPIV3Schema, compiled);
  return compiled;
}

function hasRules(node: SchemaNode): boolean {
  if (node.validations.length > 0) return true;
  for (const child of node.properties.values()) if (hasRules(child)) return true;
  if (typeof node.additionalProperties === 'object' && hasRules(node.additionalProperties)) return true;
  if (node.items && hasRules(node.items)) return true;
  return node.allOf.some(hasRules);
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function rules(value: unknown): ValidationRule[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isObject).map((rule) => ({
    rule: str(rule.rule) ?? '',
    ...(str(rule.message) !== undefined ? { message: str(rule.message) } : {}),
    ...(str(rule.messageExpression) !== undefined ? { messageExpression: str(rule.messageExpression) } : {}),
    ...(str(rule.reason) !== undefined ? { reason: str(rule.reason) } : {}),
    ...(str(rule.fieldPath) !== undefined ? { fieldPath: str(rule.fieldPath) } : {}),
    ...(typeof rule.optionalOldSelf === 'boolean' ? { optionalOldSelf: rule.optionalOldSelf } : {}),
  }));
}

function parse(raw: JsonObject, location: string): SchemaNode {
  const at = (suffix: string) => (location ? `${location}.${suffix}` : suffix);
  const properties = new Map<string, SchemaNode>();
  if (isObject(raw.properties)) {
    for (const [name, value] of Object.entries(raw.properties)) properties.set(name, parse(isObject(value) ? value : {}, at(`properties[${name}]`)));
  }
  let additionalProperties: SchemaNode | boolean | undefined;
  if (typeof raw.additionalProperties === 'boolean') additionalProperties = raw.additionalProperties;
  else if (isObject(raw.additionalProperties)) additionalProperties = parse(raw.additionalProperties, at('additionalProperties'));
  // `items` may also be a list of schemas in JSON Schema; structural schemas forbid it, so only one.
  const items = isObject(raw.items) ? parse(raw.items, at('items')) : undefined;
  const list = (key: 'allOf' | 'anyOf' | 'oneOf') =>
    Array.isArray(raw[key]) ? (raw[key] as Json[]).map((value, i) => parse(isObject(value) ? value : {}, at(`${key}[${i}]`))) : [];
  return {
    type: str(raw.type) ?? '',
    nullable: raw.nullable === true,
    format: str(raw.format) ?? '',
    default: raw.default === undefined ? undefined : cloneJson(raw.default),
    properties,
    additionalProperties,
    items,
    preserveUnknownFields: raw['x-kubernetes-preserve-unknown-fields'] === true,
    embeddedResource: raw['x-kubernetes-embedded-resource'] === true,
    intOrString: raw['x-kubernetes-int-or-string'] === true,
    listType: str(raw['x-kubernetes-list-type']),
    listMapKeys: Array.isArray(raw['x-kubernetes-list-map-keys'])
      ? raw['x-kubernetes-list-map-keys'].filter((key): key is string => typeof key === 'string')
      : [],
    mapType: str(raw['x-kubernetes-map-type']),
    validations: rules(raw['x-kubernetes-validations']),
    enum: Array.isArray(raw.enum) ? raw.enum : undefined,
    required: Array.isArray(raw.required) ? raw.required.filter((name): name is string => typeof name === 'string') : [],
    pattern: str(raw.pattern),
    maximum: num(raw.maximum),
    exclusiveMaximum: raw.exclusiveMaximum === true,
    minimum: num(raw.minimum),
    exclusiveMinimum: raw.exclusiveMinimum === true,
    multipleOf: num(raw.multipleOf),
    maxLength: num(raw.maxLength),
    minLength: num(raw.minLength),
    maxItems: num(raw.maxItems),
    minItems: num(raw.minItems),
    uniqueItems: raw.uniqueItems === true,
    maxProperties: num(raw.maxProperties),
    minProperties: num(raw.minProperties),
    allOf: list('allOf'),
    anyOf: list('anyOf'),
    oneOf: list('oneOf'),
    not: isObject(raw.not) ? parse(raw.not, at('not')) : undefined,
    location,
  };
}

/**
 * defaulting/prune.go `PruneDefaults`: when the apiserver builds a CRD's handlers it prunes every
 * default as if it sat in the object, so a default never brings in fields the schema drops.
 * (Mutates the freshly parsed tree, before it is shared.)
 */
function pruneDefaults(node: SchemaNode, isRoot: boolean): void {
  if (isObject(node.default) || Array.isArray(node.default)) {
    const copy = cloneJson(node.default);
    pruneFields(copy, node, isRoot, undefined);
    (node as { default: Json | undefined }).default = copy;
  }
  for (const child of node.properties.values()) pruneDefaults(child, false);
  if (typeof node.additionalProperties === 'object') pruneDefaults(node.additionalProperties, false);
  if (node.items) pruneDefaults(node.items, false);
}
