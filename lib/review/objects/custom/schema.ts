import type { Gen } from '../faker';
import { isObject, type JsonObject } from '../json';
import { dnsLabel } from '../names';
import { NOW, timestamp } from '../../../kube/time';
import { cloneJson } from '../../../kube/json';

/** The part of a structural OpenAPI v3 schema (CRD openAPIV3Schema) the generator reads. */
export interface Schema {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  additionalProperties?: Schema | boolean;
  enum?: unknown[];
  format?: string;
  pattern?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  nullable?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-list-map-keys'?: string[];
}

export function asSchema(value: unknown): Schema {
  return isObject(value) ? (value as Schema) : {};
}

const MAX_DEPTH = 8;

function bounded(gen: Gen, schema: Schema, fallback: [number, number], integer: boolean): number {
  const step = integer ? 1 : 0.01;
  let min = schema.minimum ?? fallback[0];
  let max = schema.maximum ?? Math.max(min + (fallback[1] - fallback[0]), fallback[1]);
  if (schema.exclusiveMinimum && schema.minimum !== undefined) min += step;
  if (schema.exclusiveMaximum && schema.maximum !== undefined) max -= step;
  if (schema.multipleOf) {
    const k = gen.int(Math.ceil(min / schema.multipleOf), Math.floor(max / schema.multipleOf));
    return k * schema.multipleOf;
  }
  return integer ? gen.int(Math.ceil(min), Math.floor(max)) : gen.faker.number.float({ min, max, fractionDigits: 2 });
}

/** A string for a property named `name`: by format first, then by what the name says it holds. */
function stringFor(gen: Gen, schema: Schema, name: string): string {
  switch (schema.format) {
    case 'date-time':
      return timestamp(NOW - gen.int(0, 30 * 86_400) * 1000);
    case 'date':
      return timestamp(NOW - gen.int(0, 365) * 86_400_000).slice(0, 10);
    case 'email':
      return gen.faker.internet.email().toLowerCase();
    case 'uri':
    case 'url':
      return gen.faker.internet.url();
    case 'hostname':
      return gen.faker.internet.domainName();
    case 'ipv4':
      return gen.faker.internet.ipv4();
    case 'ipv6':
      return gen.faker.internet.ipv6();
    case 'cidr':
      return `10.${gen.int(0, 255)}.0.0/16`;
    case 'uuid':
      return gen.uuid();
    case 'byte':
      return Buffer.from(gen.faker.lorem.word()).toString('base64');
    case 'duration':
      return `${gen.pick([5, 10, 30, 60, 300])}s`;
    case 'password':
      return gen.faker.internet.password();
  }
  const lower = name.toLowerCase();
  if (lower.endsWith('image'))
    return `ghcr.io/${dnsLabel(gen.faker.company.name(), 20)}/${dnsLabel(gen.faker.word.noun())}:v${gen.int(1, 3)}.${gen.int(0, 9)}.${gen.int(0, 9)}`;
  if (lower.includes('url') || lower.includes('endpoint')) return gen.faker.internet.url();
  if (lower.includes('host') || lower.includes('domain')) return gen.faker.internet.domainName();
  if (lower.includes('email')) return gen.faker.internet.email().toLowerCase();
  if (lower.includes('color') || lower.includes('colour')) return gen.faker.color.human();
  if (lower.endsWith('name') || lower === 'namespace' || lower === 'ref') return dnsLabel(gen.faker.word.noun());
  return gen.faker.word.noun();
}

/** Fits a generated string to the schema's length and pattern limits, or gives a dns-label-like one that might. */
function fitString(gen: Gen, schema: Schema, value: string): string {
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? Math.max(min, 253);
  let result = value.length < min ? value + gen.faker.string.alphanumeric(min - value.length).toLowerCase() : value;
  if (result.length > max) result = result.slice(0, max);
  if (schema.pattern) {
    const pattern = new RegExp(schema.pattern);
    if (!pattern.test(result)) {
      const candidates = [
        dnsLabel(result, max),
        gen.faker.string.alphanumeric({ length: Math.max(min, Math.min(max, 8)), casing: 'lower' }),
        String(gen.int(1, 99)),
      ];
      result = candidates.find((candidate) => pattern.test(candidate)) ?? result;
    }
  }
  return result;
}

function listFor(gen: Gen, schema: Schema, name: string, depth: number): unknown[] {
  const min = schema.minItems ?? 1;
  const max = Math.max(min, Math.min(schema.maxItems ?? 2, min + 2));
  const count = gen.int(min, max);
  const items = asSchema(schema.items);
  const values = Array.from({ length: count }, () => valueFor(gen, items, name, depth + 1));
  // Keyed and set lists may not repeat: drop duplicates rather than invent keys the schema may forbid.
  if (schema['x-kubernetes-list-type'] === 'set' || schema['x-kubernetes-list-type'] === 'map') {
    const keys = schema['x-kubernetes-list-map-keys'];
    const seen = new Set<string>();
    return values.filter((v) => {
      const key = JSON.stringify(keys && isObject(v) ? keys.map((k) => v[k]) : v);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }
  return values;
}

function objectFor(gen: Gen, schema: Schema, depth: number): JsonObject {
  if (schema['x-kubernetes-embedded-resource']) {
    return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: dnsLabel(gen.faker.word.noun()) } };
  }
  const result: JsonObject = {};
  const required = new Set(schema.required ?? []);
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    // Required members always; optional ones half the time, and never past the depth limit.
    if (!required.has(key) && (depth >= MAX_DEPTH - 2 || !gen.chance(0.5))) continue;
    const value = valueFor(gen, property, key, depth + 1);
    if (value !== undefined) result[key] = value;
  }
  if (isObject(schema.additionalProperties) && Object.keys(result).length === 0) {
    for (let i = gen.int(1, 2); i > 0; i--) result[dnsLabel(gen.faker.word.noun())] = valueFor(gen, schema.additionalProperties, 'value', depth + 1);
  }
  return result;
}

/** A value for `schema` (a property called `name`): enum and default first, then by type and format. */
export function valueFor(gen: Gen, schema: Schema, name: string, depth = 0): unknown {
  if (schema.enum && schema.enum.length > 0) return gen.pick(schema.enum);
  if (schema.default !== undefined) return cloneJson(schema.default);
  if (depth > MAX_DEPTH) return schema.nullable ? null : undefined;
  if (schema['x-kubernetes-int-or-string']) return gen.chance(0.5) ? bounded(gen, schema, [1, 10], true) : `${gen.pick([10, 25, 50])}%`;
  switch (schema.type) {
    case 'string':
      return fitString(gen, schema, stringFor(gen, schema, name));
    case 'integer':
      return bounded(gen, schema, name.toLowerCase().includes('replicas') ? [1, 5] : name.toLowerCase().includes('port') ? [1024, 65535] : [0, 100], true);
    case 'number':
      return bounded(gen, schema, [0, 100], false);
    case 'boolean':
      return gen.chance(0.5);
    case 'array':
      return listFor(gen, schema, name, depth);
    case 'object':
      return objectFor(gen, schema, depth);
    default:
      return schema.properties ? objectFor(gen, schema, depth) : {};
  }
}

/**
 * Structural defaulting, as the apiserver does when it decodes a custom resource: every `default`
 * whose parent object is present is filled in.
 */
export function applySchemaDefaults(value: unknown, schema: Schema): unknown {
  if (Array.isArray(value)) return schema.items ? value.map((item) => applySchemaDefaults(item, asSchema(schema.items))) : value;
  if (!isObject(value)) return value;
  const result: JsonObject = { ...value };
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    if (result[key] === undefined && property.default !== undefined) result[key] = cloneJson(property.default);
    if (result[key] !== undefined) result[key] = applySchemaDefaults(result[key], property);
  }
  if (isObject(schema.additionalProperties)) {
    const inner = schema.additionalProperties;
    for (const key of Object.keys(result)) if (!(key in (schema.properties ?? {}))) result[key] = applySchemaDefaults(result[key], inner);
  }
  return result;
}
