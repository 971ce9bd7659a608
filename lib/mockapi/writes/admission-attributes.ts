/**
 * What admission is asked about one write of the mock API, as kube-apiserver's REST handlers build it
 * (k8s.io/apiserver/pkg/endpoints/handlers/create.go `createHandler`, update.go `UpdateResource`, patch.go
 * `patchResource`, delete.go `DeleteResource`): the operation, the object and the stored one, the options
 * object from the request's query (and a DeleteOptions body). Reads and dry runs go through `serve`, the same
 * downstream the write itself takes, so a version a CRD's webhook converts is read at the request's version.
 */
import { goDecodeJson } from '../../go/json-struct-merge';
import type { GroupVersionKind, KubeObject } from '../../kube/admission';
import type { AdmissionAttributes } from '../../kube/attributes';
import { isObject, type Json } from '../../kube/json';
import { ApiError } from '../../kube/status';
import { optionsObject, type OptionsKind } from '../../review/builders/options';
import { patchTypeOf } from '../patches';
import type { RestAnswer, RestCall } from '../rest';
import { isBuiltin } from '../store';
import { parseYamlBody } from '../yaml-body';
import { type FieldValidation, fieldValidationOf } from './field-validation';
import { decodeBody } from './registry-stage';

/** Serves a call below admission: the REST semantics, or the conversion layer's for a version a CRD's webhook converts. */
export type ServeCall = (call: RestCall) => Promise<RestAnswer>;

export type BaseAttributes = Omit<AdmissionAttributes, 'operation' | 'object' | 'oldObject' | 'options' | 'dryRun'>;

export const withQuery = (url: URL, name: string, value: string | undefined): URL => {
  const next = new URL(url);
  next.searchParams.delete(name);
  if (value !== undefined) next.searchParams.set(name, value);
  return next;
};

export function parsedObject(text: string, typed = false): KubeObject | undefined {
  try {
    // A built-in kind's typed decode reads a repeated member into the earlier one (json-struct-merge).
    const value = goDecodeJson(text, typed) as Json;
    return isObject(value) ? (value as KubeObject) : undefined;
  } catch {
    return undefined;
  }
}

/** The options object kube's handler passes to admission, from the request's query (and a DeleteOptions body). */
export function requestOptions(kind: OptionsKind, call: RestCall, dryRun: boolean): KubeObject {
  const fields: Record<string, unknown> = {};
  for (const name of ['fieldManager', 'fieldValidation']) {
    const value = call.url.searchParams.get(name);
    if (value !== null && kind !== 'DeleteOptions') fields[name] = value;
  }
  if (kind === 'DeleteOptions') {
    const { kind: _kind, apiVersion: _apiVersion, ...body } = (call.body.trim() && parsedObject(call.body)) || {};
    Object.assign(fields, body);
  }
  return optionsObject(kind, fields, dryRun);
}

/** The kind a call's requests carry: a subresource's own (autoscaling/v1 Scale, policy/v1 Eviction), else the resource's. */
function kindOfCall(call: RestCall): GroupVersionKind {
  const { entry, subresource } = call.route;
  const own = subresource ? entry.subresources.find((sub) => sub.name === subresource)?.kind : undefined;
  return own ?? { group: entry.group, version: entry.version, kind: entry.kind };
}

/** A Namespace's requests carry its own name as their namespace (k8s.io/apiserver/pkg/endpoints/request/requestinfo.go). */
const namespaceOf = (call: RestCall, name: string): string =>
  call.route.entry.group === '' && call.route.entry.resource === 'namespaces' ? name : call.route.namespace;

export function baseAttributes(call: RestCall, name = call.route.name): BaseAttributes {
  const { entry } = call.route;
  return {
    kind: kindOfCall(call),
    resource: { group: entry.group, version: entry.version, resource: entry.resource },
    subResource: call.route.subresource,
    name,
    namespace: namespaceOf(call, name),
    userInfo: call.user,
  };
}

export const queryDryRun = (call: RestCall): boolean => call.url.searchParams.getAll('dryRun').includes('All');

const isDryRun = (call: RestCall, options: KubeObject): boolean => queryDryRun(call) || (Array.isArray(options.dryRun) && options.dryRun.includes('All'));

/** createHandler fills the request's namespace into an object that names none before admission sees it. */
export const withNamespace = (object: KubeObject, namespace: string): KubeObject =>
  namespace && !object.metadata?.namespace ? { ...object, metadata: { ...object.metadata, namespace } } : object;

/** What a GET of the call's path answers (the object, or a subresource's view of it), or undefined when it fails. */
export async function readCurrent(call: RestCall, serve: ServeCall): Promise<KubeObject | undefined> {
  try {
    const url = new URL(call.url.pathname, call.url);
    return (await serve({ ...call, verb: 'get', url, body: '', contentType: null })).body as KubeObject;
  } catch (error) {
    if (error instanceof ApiError) return undefined;
    throw error;
  }
}

/** The call's answer were it a dry run: the object it would write, registry stage run, nothing stored. */
export async function dryRunAnswer(call: RestCall, serve: ServeCall): Promise<KubeObject> {
  return (await serve({ ...call, url: withQuery(call.url, 'dryRun', 'All') })).body as KubeObject;
}

function isApply(call: RestCall): boolean {
  try {
    return patchTypeOf(call.contentType, isBuiltin(call.route.entry)) === 'apply';
  } catch {
    return false;
  }
}

/**
 * A server-side apply of an object that does not exist creates it: patch.go `patchResource` admits it as a
 * CREATE with `patchToCreateOptions` (dryRun, fieldManager, fieldValidation) and the object the apply makes
 * from nothing: the applied configuration decoded and defaulted, its Apply managedFields entry in place
 * (taken from the apply run as a dry run, which also refuses what kube refuses before admission). The
 * registry's PrepareForCreate (uid, creationTimestamp, generation, a Service's ClusterIP) comes after.
 */
async function applyCreateAttributes(call: RestCall, serve: ServeCall): Promise<AdmissionAttributes> {
  const created = await dryRunAnswer(call, serve);
  const { route } = call;
  const applied = parseYamlBody(call.body).value as KubeObject;
  const named = { ...applied, metadata: { ...applied.metadata, name: route.name, ...(route.namespace ? { namespace: route.namespace } : {}) } };
  const decoded = decodeBody(call.registry, route.entry, named);
  const managedFields = created.metadata?.managedFields;
  const object = { ...decoded, metadata: { ...decoded.metadata, ...(managedFields ? { managedFields } : {}) } };
  const dryRun = queryDryRun(call);
  return { ...baseAttributes(call), operation: 'CREATE', object, oldObject: null, dryRun, options: requestOptions('CreateOptions', call, dryRun) };
}

/**
 * What a create or update of an object does with its body's unknown fields (`?fieldValidation`, the options'
 * 422 for an unsupported value), undefined for other writes. One per request: the decode before admission
 * fills its warnings, which the answer carries (serveAdmitted).
 */
export function requestFieldValidation(call: RestCall): FieldValidation | undefined {
  if (call.route.subresource || (call.verb !== 'create' && call.verb !== 'update')) return undefined;
  const body = { text: call.body, yamlRepeatedKeys: call.yamlRepeatedKeys };
  return fieldValidationOf(call.url, call.verb === 'create' ? 'CreateOptions' : 'UpdateOptions', body);
}

/**
 * A create's or update's body as the handler decodes it before admission (create.go, update.go): into its
 * kind, unknown fields dropped as `?fieldValidation` says (Strict refuses here, before any webhook), defaulted.
 * Undefined when the body is no object (the downstream answers it).
 */
function decodedRequest(call: RestCall, validation: FieldValidation | undefined): KubeObject | undefined {
  const object = parsedObject(call.body, isBuiltin(call.route.entry));
  if (!object) return undefined;
  return decodeBody(call.registry, call.route.entry, object, validation);
}

/**
 * The attributes of a create, update, patch or delete of an object, or of a write of its status (admitted as
 * an UPDATE of the whole object, its new status in place: update.go `UpdateResource`); undefined when the
 * write fails before admission (the downstream answers it).
 */
export async function objectWriteAttributes(
  call: RestCall,
  serve: ServeCall,
  validation = requestFieldValidation(call),
): Promise<AdmissionAttributes | undefined> {
  const base = baseAttributes(call);
  const dryRun = queryDryRun(call);
  const verb = call.route.subresource === 'status' ? 'patch' : call.verb;
  switch (verb) {
    case 'create': {
      const object = decodedRequest(call, validation);
      if (!object) return undefined;
      const filled = withNamespace(object, call.route.namespace);
      const options = requestOptions('CreateOptions', call, dryRun);
      return { ...baseAttributes(call, filled.metadata?.name ?? ''), operation: 'CREATE', object: filled, oldObject: null, dryRun, options };
    }
    case 'update': {
      const object = decodedRequest(call, validation);
      const oldObject = await readCurrent(call, serve);
      if (!object || !oldObject) return undefined;
      return { ...base, operation: 'UPDATE', object, oldObject, dryRun, options: requestOptions('UpdateOptions', call, dryRun) };
    }
    case 'patch': {
      const oldObject = await readCurrent(call, serve);
      if (!oldObject) return isApply(call) ? applyCreateAttributes(call, serve) : undefined;
      // The patched object, as patchResource hands it to admission: the patch applied (and the registry's
      // stage run) without storing it.
      const patched = await dryRunAnswer(call, serve);
      return { ...base, operation: 'UPDATE', object: patched, oldObject, dryRun, options: requestOptions('UpdateOptions', call, dryRun) };
    }
    case 'delete': {
      const oldObject = await readCurrent(call, serve);
      if (!oldObject) return undefined;
      const deleting = isDryRun(call, requestOptions('DeleteOptions', call, false));
      return { ...base, operation: 'DELETE', object: null, oldObject, dryRun: deleting, options: requestOptions('DeleteOptions', call, deleting) };
    }
    default:
      return undefined;
  }
}
