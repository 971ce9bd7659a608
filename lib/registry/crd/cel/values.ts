/**
 * A custom resource's values as CEL rules see them (apiextensions-apiserver pkg/apiserver/schema/cel
 * `UnstructuredToVal`), typed by the schema: `integer` fields are ints, `number` fields doubles (an
 * integral JSON number too), strings with format `date`/`date-time` timestamps, `duration` durations
 * and `byte` bytes; objects expose only the properties the schema declares (at a resource root:
 * apiVersion, kind, metadata.name and metadata.generateName); int-or-string stays an int or a string.
 */
import { isObject, type Json } from '../../../kube/json';
import { keepOffset, rfc3339Offset } from '../../../cel/libraries/timestamp-offsets';
import { celValue } from '../../../cel/values';
import type { SchemaNode } from '../schema-node';
import { ruleEnvironment } from './environment';

const TYPE_META = new Set(['apiVersion', 'kind']);

/** The value of `value` under `node`; `isResourceRoot` for the root and embedded resources. */
export function celValueOf(node: SchemaNode | undefined, value: Json | undefined, isResourceRoot: boolean): unknown {
  if (value === undefined || value === null) return null;
  if (!node) return celValue(value);
  if (node.intOrString) return typeof value === 'number' && Number.isInteger(value) ? BigInt(value) : value;
  switch (node.type) {
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value) ? BigInt(value) : value;
    case 'number':
      return value;
    case 'string':
      return typeof value === 'string' ? stringValue(node.format, value) : celValue(value);
    case 'array':
      return Array.isArray(value) ? value.map((item) => celValueOf(node.items, item, node.items?.embeddedResource ?? false)) : celValue(value);
    case 'object':
      return isObject(value) ? objectValue(node, value, isResourceRoot) : celValue(value);
    default:
      return celValue(value);
  }
}

function objectValue(node: SchemaNode, object: Record<string, Json>, isResourceRoot: boolean): unknown {
  const extra = node.additionalProperties;
  if (typeof extra === 'object') {
    return Object.fromEntries(Object.entries(object).map(([name, value]) => [name, celValueOf(extra, value, extra.embeddedResource)]));
  }
  // An object the schema leaves open (preserve-unknown-fields, no properties) is passed as it is.
  if (node.properties.size === 0 && !isResourceRoot) return celValue(object);
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(object)) {
    const property = node.properties.get(name);
    if (isResourceRoot && TYPE_META.has(name)) out[name] = celValue(value);
    else if (isResourceRoot && name === 'metadata') out[name] = metadataValue(property, value);
    else if (property) out[name] = celValueOf(property, value, property.embeddedResource);
  }
  return out;
}

/** A resource's metadata: only name and generateName are visible to rules (WithTypeAndObjectMeta). */
function metadataValue(property: SchemaNode | undefined, value: Json): unknown {
  if (!isObject(value)) return celValue(value);
  const out: Record<string, unknown> = {};
  for (const name of ['name', 'generateName']) if (typeof value[name] === 'string') out[name] = value[name];
  if (property) {
    for (const [name, child] of property.properties) {
      if (!(name in out) && Object.hasOwn(value, name)) out[name] = celValueOf(child, value[name], child.embeddedResource);
    }
  }
  return out;
}

function stringValue(format: string, value: string): unknown {
  switch (format) {
    case 'date':
    case 'date-time': {
      const millis = Date.parse(format === 'date' ? `${value}T00:00:00Z` : value);
      // strfmt.ParseDateTime keeps the offset the time was written with, as time.Parse does.
      if (Number.isNaN(millis)) return value;
      return format === 'date' ? new Date(millis) : keepOffset(new Date(millis), rfc3339Offset(value));
    }
    case 'duration':
      return duration(value);
    case 'byte':
      return Uint8Array.from(Buffer.from(value, 'base64'));
    default:
      return value;
  }
}

const DURATION = 'duration(self)';

/** A duration value, made by CEL's own duration() so it is the library's type. */
function duration(value: string): unknown {
  try {
    return ruleEnvironment().env.evaluate(DURATION, { self: value });
  } catch {
    return value;
  }
}
