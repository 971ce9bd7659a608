import type { CatalogEntry } from '../kube/catalog';
import type { JsonObject } from '../kube/json';
import { subresourceVerbsOf, verbsOf } from './discovery/facts';

/*
 * The `paths` of a group-version's OpenAPI v3 document, laid out as apiserver:pkg/endpoints/installer.go
 * registers routes: collection and item paths (namespaced ones under `namespaces/{namespace}`), each verb an
 * operation with `x-kubernetes-action` and `x-kubernetes-group-version-kind`. Clients read them: kubectl looks
 * for `fieldValidation` among a kind's PATCH parameters before it lets the server validate fields.
 */

const query = (name: string, type: 'string' | 'boolean' = 'string'): JsonObject => ({ name, in: 'query', schema: { type, uniqueItems: true } });
const pathParameter = (name: string): JsonObject => ({ name, in: 'path', required: true, schema: { type: 'string', uniqueItems: true } });

// The options each write takes (metav1.CreateOptions, UpdateOptions, PatchOptions, DeleteOptions).
const WRITE_PARAMETERS = [query('dryRun'), query('fieldManager'), query('fieldValidation')];
const PATCH_PARAMETERS = [...WRITE_PARAMETERS, query('force', 'boolean')];
const LIST_PARAMETERS = [
  query('allowWatchBookmarks', 'boolean'),
  query('continue'),
  query('fieldSelector'),
  query('labelSelector'),
  { name: 'limit', in: 'query', schema: { type: 'integer', uniqueItems: true } },
  query('resourceVersion'),
  query('resourceVersionMatch'),
  query('sendInitialEvents', 'boolean'),
  { name: 'timeoutSeconds', in: 'query', schema: { type: 'integer', uniqueItems: true } },
  query('watch', 'boolean'),
];

const PATCH_TYPES = ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml'];

interface OperationSpec {
  action: string;
  verb: string;
  parameters: JsonObject[];
  schema: JsonObject;
  body?: readonly string[];
}

function operation(entry: CatalogEntry, kind: { group: string; version: string; kind: string }, spec: OperationSpec, suffix: string): JsonObject {
  const content = (types: readonly string[], schema: JsonObject): JsonObject => Object.fromEntries(types.map((type) => [type, { schema }]));
  const subject = `${entry.namespaced && spec.action !== 'list-all' ? 'Namespaced' : ''}${entry.kind}${suffix}`;
  return {
    operationId: `${spec.verb}${subject}`,
    parameters: spec.parameters,
    ...(spec.body ? { requestBody: { content: content(spec.body, spec.schema), required: true } } : {}),
    responses: { '200': { description: 'OK', content: content(['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'], spec.schema) } },
    'x-kubernetes-action': spec.action === 'list-all' ? 'list' : spec.action,
    'x-kubernetes-group-version-kind': { group: kind.group, version: kind.version, kind: kind.kind },
  };
}

/** The paths serving `entry`, its kind's schema referred to by `schemaRef` (and its List by `listRef`). */
export function resourcePaths(entry: CatalogEntry, schemaRef: JsonObject, listRef: JsonObject): Record<string, JsonObject> {
  const root = entry.group ? `/apis/${entry.group}/${entry.version}` : `/api/${entry.version}`;
  const collection = entry.namespaced ? `${root}/namespaces/{namespace}/${entry.resource}` : `${root}/${entry.resource}`;
  const item = `${collection}/{name}`;
  const gvk = { group: entry.group, version: entry.version, kind: entry.kind };
  const verbs = new Set(verbsOf(entry));
  const scope = entry.namespaced ? [pathParameter('namespace')] : [];
  const paths: Record<string, JsonObject> = {};

  const collectionOps: JsonObject = { parameters: [...scope, query('pretty')] };
  if (verbs.has('list')) collectionOps.get = operation(entry, gvk, { action: 'list', verb: 'list', parameters: LIST_PARAMETERS, schema: listRef }, '');
  if (verbs.has('create'))
    collectionOps.post = operation(entry, gvk, { action: 'post', verb: 'create', parameters: WRITE_PARAMETERS, schema: schemaRef, body: ['*/*'] }, '');
  if (verbs.has('deletecollection'))
    collectionOps.delete = operation(
      entry,
      gvk,
      { action: 'deletecollection', verb: 'deleteCollection', parameters: [...LIST_PARAMETERS, query('dryRun')], schema: listRef },
      '',
    );
  paths[collection] = collectionOps;

  if (verbs.has('get') || verbs.has('update') || verbs.has('delete')) {
    const itemOps: JsonObject = { parameters: [pathParameter('name'), ...scope, query('pretty')] };
    if (verbs.has('get')) itemOps.get = operation(entry, gvk, { action: 'get', verb: 'read', parameters: [], schema: schemaRef }, '');
    if (verbs.has('update'))
      itemOps.put = operation(entry, gvk, { action: 'put', verb: 'replace', parameters: WRITE_PARAMETERS, schema: schemaRef, body: ['*/*'] }, '');
    if (verbs.has('patch'))
      itemOps.patch = operation(entry, gvk, { action: 'patch', verb: 'patch', parameters: PATCH_PARAMETERS, schema: schemaRef, body: PATCH_TYPES }, '');
    if (verbs.has('delete')) itemOps.delete = operation(entry, gvk, { action: 'delete', verb: 'delete', parameters: [query('dryRun')], schema: schemaRef }, '');
    paths[item] = itemOps;
  }
  if (entry.namespaced && verbs.has('list')) {
    paths[`${root}/${entry.resource}`] = {
      parameters: [query('pretty')],
      get: operation(entry, gvk, { action: 'list-all', verb: 'list', parameters: LIST_PARAMETERS, schema: listRef }, 'ForAllNamespaces'),
    };
  }

  for (const sub of entry.subresources) {
    const subVerbs = new Set(subresourceVerbsOf(sub));
    // Only the subresources that read and write the object itself (status, scale…) have a schema to give.
    if (!subVerbs.has('patch')) continue;
    const subKind = { group: sub.kind.group, version: sub.kind.version, kind: sub.kind.kind };
    const subRef =
      sub.kind.kind === entry.kind ? schemaRef : { $ref: `#/components/schemas/io.k8s.api.${sub.kind.group || 'core'}.${sub.kind.version}.${sub.kind.kind}` };
    const suffix = sub.name[0]?.toUpperCase() + sub.name.slice(1);
    paths[`${item}/${sub.name}`] = {
      parameters: [pathParameter('name'), ...scope, query('pretty')],
      get: operation(entry, subKind, { action: 'get', verb: 'read', parameters: [], schema: subRef }, suffix),
      put: operation(entry, subKind, { action: 'put', verb: 'replace', parameters: WRITE_PARAMETERS, schema: subRef, body: ['*/*'] }, suffix),
      patch: operation(entry, subKind, { action: 'patch', verb: 'patch', parameters: PATCH_PARAMETERS, schema: subRef, body: PATCH_TYPES }, suffix),
    };
  }
  return paths;
}
