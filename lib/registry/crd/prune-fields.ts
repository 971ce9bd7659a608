/**
 * The structural pruning algorithm (apiextensions-apiserver pkg/apiserver/schema/pruning/algorithm.go
 * `PruneWithOptions`): drops every object field the schema does not specify, in place.
 *
 * - `properties` keep their fields and prune inside them; `additionalProperties` (a schema, or a
 *   boolean: both keep the keys) keeps every key and prunes inside with its schema, or everything
 *   below when it has none.
 * - `x-kubernetes-preserve-unknown-fields` keeps unknown fields at that level and below, but pruning
 *   starts again under any field its `properties` or `additionalProperties` describe.
 * - `apiVersion`, `kind` and `metadata` are skipped at the resource root and in every
 *   `x-kubernetes-embedded-resource` object: metadata is pruned by the ObjectMeta coercion instead.
 * - Scalars are never touched, and a value of the wrong type is not an error here (validation says so).
 */
import type { Json } from '../../kube/json';
import type { SchemaNode } from './schema-node';

const META_FIELDS = new Set(['apiVersion', 'kind', 'metadata']);

/**
 * Prunes `value` by `node`. `isResourceRoot` treats the node as an embedded resource (the root of a
 * custom resource). Unknown-field paths are appended to `pruned` when given (UnknownFieldPathOptions):
 * `spec.foo`, `spec.list[0].bar`.
 */
export function pruneFields(value: Json, node: SchemaNode | undefined, isResourceRoot: boolean, pruned: string[] | undefined): void {
  const schema: Walk | undefined = node ? { node, embedded: node.embeddedResource || isResourceRoot } : isResourceRoot ? ROOT_WITHOUT_SCHEMA : undefined;
  prune(value, schema, '', pruned);
}

/** A node as the walk sees it: the resource root counts as an embedded resource. */
interface Walk {
  node: SchemaNode | undefined;
  embedded: boolean;
}

const ROOT_WITHOUT_SCHEMA: Walk = { node: undefined, embedded: true };

function walk(node: SchemaNode | undefined): Walk | undefined {
  return node ? { node, embedded: node.embeddedResource } : undefined;
}

/** The schema of an additionalProperties value: `true`/`false` keep the key but describe nothing below. */
function additional(node: SchemaNode | undefined): { present: boolean; schema: Walk | undefined } {
  const ap = node?.additionalProperties;
  if (ap === undefined) return { present: false, schema: undefined };
  return { present: true, schema: typeof ap === 'object' ? walk(ap) : undefined };
}

const key = (parent: string, name: string) => (parent ? `${parent}.${name}` : name);

function prune(value: Json, schema: Walk | undefined, path: string, pruned: string[] | undefined): void {
  if (schema?.node?.preserveUnknownFields) {
    skipPrune(value, schema, path, pruned);
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, i) => prune(item, walk(schema?.node?.items), `${path}[${i}]`, pruned));
    return;
  }
  if (value === null || typeof value !== 'object') return;
  if (!schema) {
    for (const name of Object.keys(value)) {
      pruned?.push(key(path, name));
      delete value[name];
    }
    return;
  }
  const extra = additional(schema.node);
  for (const name of Object.keys(value)) {
    if (schema.embedded && META_FIELDS.has(name)) continue;
    const property = schema.node?.properties.get(name);
    const child = value[name] as Json;
    if (property) prune(child, walk(property), key(path, name), pruned);
    else if (extra.present) prune(child, extra.schema, key(path, name), pruned);
    else {
      // A meta field at the very top is dropped silently (it is not "unknown" to the decoder).
      if (!META_FIELDS.has(name) || path !== '') pruned?.push(key(path, name));
      delete value[name];
    }
  }
}

/** Below x-kubernetes-preserve-unknown-fields: unknown fields stay, described ones are pruned again. */
function skipPrune(value: Json, schema: Walk, path: string, pruned: string[] | undefined): void {
  if (Array.isArray(value)) {
    const items = schema.node?.items;
    if (items) value.forEach((item, i) => skipPrune(item, { node: items, embedded: items.embeddedResource }, `${path}[${i}]`, pruned));
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const extra = additional(schema.node);
  for (const name of Object.keys(value)) {
    if (schema.embedded && META_FIELDS.has(name)) continue;
    const property = schema.node?.properties.get(name);
    const child = value[name] as Json;
    if (property) prune(child, walk(property), key(path, name), pruned);
    else if (extra.present) prune(child, extra.schema, key(path, name), pruned);
  }
}
