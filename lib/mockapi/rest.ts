import type { Authorizer } from '../authz/authorizer';
import { cannotUnmarshal } from '../go/json-errors';
import { goJsonSyntaxError } from '../go/json-scanner';
import { goDecodeJson } from '../go/json-struct-merge';
import type { KubeObject, UserInfo } from '../kube/admission';
import { answerAccessReview } from './authorization';
import type { Verb } from './faults';
import { isObject, type Json, type JsonObject } from '../kube/json';
import { applyPatch, patchTypeOf } from './patches';
import type { Route } from './paths';
import { listOf, objectFilter, serveList } from './list';
import { isWatchQuery } from './list-options';
import type { WatchHub } from './watch/watch-hub';
import { ApiError, badRequest, deleted, invalid, methodNotAllowed, pathNotFound } from '../kube/status';
import { isBuiltin, type ObjectStore } from './store';
import type { Registry } from '../registry';
import { createObject, updateObject, writeStage, type WriteStage } from './writes';
import { fieldValidationOf, type PatchShown } from './writes/field-validation';
import { patchStrictErrors } from './writes/strict-errors';
import { checkDeletePreconditions } from './writes/preconditions';
import { serveSubresource } from './subresources';
import { bindPod } from './subresources/pod-actions';
import { managerOf } from './apply/managed-fields';
import { serverSideApply } from './apply/server-side-apply';

/** One request to a resource path, its body already read. */
export interface RestCall {
  route: Route;
  verb: Verb;
  url: URL;
  contentType: string | null;
  body: string;
  /** A YAML body's repeated keys (go-yaml's `line N: key "x" already set in map`); the body is its JSON. */
  yamlRepeatedKeys?: readonly string[];
  user: UserInfo;
  /** Serves watches; without it a watch is refused (405). */
  watches?: WatchHub;
  /** The registry stage of creates, updates and patches (its engines loaded: `registry.ready()`). */
  registry: Registry;
  /** The User-Agent header: the default field manager of a write. */
  userAgent?: string | null;
}

/** What the API answers. */
export interface RestAnswer {
  code: number;
  body: unknown;
  /** A watch's streamed body, sent instead of `body`. */
  stream?: ReadableStream<Uint8Array>;
  /** `Warning` header values (admission's warnings, when the API admits its writes). */
  warnings?: readonly string[];
}

/** The verb of a request, as kube-apiserver's RequestInfo derives it; undefined when the path does not serve the method. */
export function verbOf(method: string, route: Route, url: URL): Verb | undefined {
  const item = route.name !== '';
  if (route.watchPath) return method === 'GET' ? 'watch' : undefined;
  switch (method) {
    case 'GET':
      return item ? 'get' : isWatchQuery(url) ? 'watch' : 'list';
    case 'POST':
      // An item takes a POST only at a subresource (pods/<name>/binding, /eviction).
      return item && !route.subresource ? undefined : 'create';
    case 'PUT':
      return item ? 'update' : undefined;
    case 'PATCH':
      return item ? 'patch' : undefined;
    case 'DELETE':
      return item ? 'delete' : 'deletecollection';
    default:
      return undefined;
  }
}

const OPTIONS_KIND: Partial<Record<Verb, string>> = {
  create: 'CreateOptions',
  update: 'UpdateOptions',
  patch: 'PatchOptions',
  delete: 'DeleteOptions',
  deletecollection: 'DeleteOptions',
};

function dryRunOf(verb: Verb, values: unknown[]): boolean {
  if (values.length === 0) return false;
  if (values.some((v) => v !== 'All')) {
    const error = { type: 'FieldValueNotSupported' as const, field: 'dryRun', body: `Unsupported value: ${JSON.stringify(values)}: supported values: "All"` };
    throw new ApiError(invalid({ group: 'meta.k8s.io', kind: OPTIONS_KIND[verb] ?? 'ListOptions' }, '', [error]));
  }
  return true;
}

/**
 * The body of a create or update, decoded as the serializer does (which first reads apiVersion and kind); a
 * built-in kind's `typed` decode into its Go struct decodes a repeated member into the earlier one.
 */
function decodeObject(body: string, typed = false): KubeObject {
  const syntaxError = goJsonSyntaxError(new TextEncoder().encode(body));
  if (syntaxError !== undefined) throw new ApiError(badRequest(`couldn't get version/kind; json parse error: ${syntaxError}`));
  const value = goDecodeJson(body, typed) as Json;
  if (value === null) return {};
  if (!isObject(value)) {
    throw new ApiError(
      badRequest(
        `couldn't get version/kind; json parse error: ${cannotUnmarshal(value, 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }')}`,
      ),
    );
  }
  return value as KubeObject;
}

/** A delete's DeleteOptions body (dryRun, preconditions), empty when it has none. */
function deleteOptionsOf(call: RestCall): Record<string, unknown> {
  return call.body.trim() ? (decodeObject(call.body) as Record<string, unknown>) : {};
}

/** A delete may carry its options (dryRun among them) in a DeleteOptions body instead of the query. */
function deleteOptionsDryRun(call: RestCall, options = deleteOptionsOf(call)): boolean {
  return dryRunOf(call.verb, Array.isArray(options.dryRun) ? options.dryRun : []);
}

const selection = (url: URL) => objectFilter(url.searchParams.get('labelSelector') ?? '', url.searchParams.get('fieldSelector') ?? '');

// Deleting these answers with the object (their registries set ReturnDeletedObject); others answer a Status.
const RETURNS_DELETED = new Set(['/pods', '/namespaces']);

/** The kube-apiserver semantics of one REST call against the store. Throws ApiError for failures. */
export function serveRest(call: RestCall, store: ObjectStore, authorizer: Authorizer): RestAnswer {
  const { route, verb, url } = call;
  const { entry, namespace, name } = route;
  if (entry.resource.endsWith('reviews') && !route.subresource) return serveReview(call, authorizer);
  const dryRun = dryRunOf(verb, url.searchParams.getAll('dryRun'));
  if (route.subresource) {
    const subresource = {
      entry,
      namespace,
      name,
      subresource: route.subresource,
      verb,
      contentType: call.contentType,
      body: call.body,
      decoded: () => decodeObject(call.body),
      dryRun,
    };
    return serveSubresource(writeStage(call.registry, store, call.user, managerOf(call.url, call.userAgent ?? null)), subresource);
  }

  switch (verb) {
    case 'get':
      return { code: 200, body: store.get(entry, namespace, name) };
    case 'list':
      return { code: 200, body: serveList(url, entry, namespace, store) };
    case 'watch':
      if (!call.watches) throw new ApiError(methodNotAllowed());
      return { code: 200, body: undefined, stream: call.watches.open(entry, namespace, url, name) };
    case 'create': {
      const stage = validatingStage(call, store, 'CreateOptions');
      const request = decodeObject(call.body, isBuiltin(entry));
      if (entry.group === '' && entry.resource === 'bindings') return serveLegacyBinding(call, store, request, dryRun);
      return withFieldWarnings(stage, { code: 201, body: createObject(stage, entry, namespace, request, dryRun) });
    }
    case 'update': {
      const stage = validatingStage(call, store, 'UpdateOptions');
      const request = decodeObject(call.body, isBuiltin(entry));
      return withFieldWarnings(stage, { code: 200, body: updateObject(stage, entry, namespace, name, request, dryRun) });
    }
    case 'patch':
      return servePatch(call, store, dryRun);
    case 'delete': {
      const options = deleteOptionsOf(call);
      checkDeletePreconditions(entry, store.get(entry, namespace, name), options);
      const removed = store.delete(entry, namespace, name, { dryRun: dryRun || deleteOptionsDryRun(call, options) });
      const body = RETURNS_DELETED.has(`${entry.group}/${entry.resource}`) ? removed : deleted(entry, name, String(removed.metadata?.uid));
      return { code: 200, body };
    }
    case 'deletecollection': {
      if (entry.group === '' && entry.resource === 'namespaces') throw new ApiError(methodNotAllowed());
      const filter = selection(url);
      const options = { dryRun: dryRun || deleteOptionsDryRun(call) };
      const { items, resourceVersion } = store.list(entry, namespace);
      const removed = items.filter(filter).map((item) => store.delete(entry, item.metadata?.namespace ?? '', item.metadata?.name ?? '', options));
      return { code: 200, body: listOf(entry, removed, { resourceVersion }) };
    }
  }
}

function servePatch(call: RestCall, store: ObjectStore, dryRun: boolean): RestAnswer {
  const { entry, namespace, name } = call.route;
  const type = patchTypeOf(call.contentType, isBuiltin(entry));
  if (type !== 'apply') {
    const stage = validatingStage(call, store, 'PatchOptions');
    const current = store.get(entry, namespace, name) as JsonObject;
    const patched = applyPatch(type, current, call.body, entry);
    if (!isObject(patched)) throw new ApiError(badRequest('Invalid JSON Patch'));
    // A strategic merge patch is shown as the map it decodes to (`null` decodes to an empty one).
    const shown: PatchShown = type === 'strategic' ? { patchMap: (JSON.parse(call.body) as Json) ?? {} } : { patched };
    const patchErrors = stage.fieldValidation?.directive === 'Ignore' ? [] : patchStrictErrors(type, call.body);
    const patching = { ...stage, ...(stage.fieldValidation ? { fieldValidation: { ...stage.fieldValidation, patch: shown, patchErrors } } : {}) };
    return withFieldWarnings(patching, { code: 200, body: updateObject(patching, entry, namespace, name, patched as KubeObject, dryRun) });
  }
  const fieldValidation = fieldValidationOf(call.url, 'PatchOptions');
  const stage = writeStage(call.registry, store, call.user, managerOf(call.url, call.userAgent ?? null));
  const answer = serverSideApply(stage, entry, namespace, name, call.body, call.url, dryRun, fieldValidation);
  return withFieldWarnings({ ...stage, fieldValidation }, answer);
}

/**
 * The write stage of a create, update or patch, with the request's field validation (`?fieldValidation`): a
 * create's or update's body goes with it, for the keys it repeats.
 */
function validatingStage(call: RestCall, store: ObjectStore, optionsKind: string): WriteStage {
  const body = optionsKind === 'PatchOptions' ? undefined : { text: call.body, yamlRepeatedKeys: call.yamlRepeatedKeys };
  const fieldValidation = fieldValidationOf(call.url, optionsKind, body);
  return { ...writeStage(call.registry, store, call.user, managerOf(call.url, call.userAgent ?? null)), fieldValidation };
}

/** The unknown-field warnings a write gathered (Warn), as `Warning` headers. */
function withFieldWarnings(stage: WriteStage, answer: RestAnswer): RestAnswer {
  const headers = stage.fieldValidation?.warnings.headers ?? [];
  return headers.length > 0 ? { ...answer, warnings: headers } : answer;
}

/**
 * `POST namespaces/<ns>/bindings`, the legacy way to bind a pod (kubernetes `pkg/registry/core/pod/storage`
 * LegacyBindingREST: the pods' BindingREST, named by the Binding's own name): the pod is bound, nothing stored.
 */
function serveLegacyBinding(call: RestCall, store: ObjectStore, binding: KubeObject, dryRun: boolean): RestAnswer {
  const pods = store.catalog.resourceByName('', 'v1', 'pods');
  if (!pods) throw new ApiError(pathNotFound());
  const stage = writeStage(call.registry, store, call.user, managerOf(call.url, call.userAgent ?? null));
  return { code: 201, body: bindPod(stage, pods, call.route.namespace, binding.metadata?.name ?? '', binding, dryRun) };
}

/** Reviews are questions: a POST is answered and nothing is stored. */
function serveReview(call: RestCall, authorizer: Authorizer): RestAnswer {
  const { entry, namespace } = call.route;
  if (call.verb !== 'create') throw new ApiError(methodNotAllowed());
  const request = decodeObject(call.body);
  const apiVersion = `${entry.group}/${entry.version}`;
  if (entry.resource.endsWith('subjectaccessreviews')) {
    const body = answerAccessReview(entry.kind, request, call.user, namespace, authorizer);
    return { code: 201, body: { ...body, kind: entry.kind, apiVersion } };
  }
  if (entry.resource === 'selfsubjectreviews') {
    return { code: 201, body: { kind: entry.kind, apiVersion, metadata: {}, status: { userInfo: call.user } } };
  }
  throw new ApiError(pathNotFound());
}
