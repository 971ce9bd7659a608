/**
 * The mock API's writes through an admission chain, as kube-apiserver's REST handlers run admission
 * (k8s.io/apiserver/pkg/endpoints/handlers/create.go `createHandler`, update.go `UpdateResource`,
 * patch.go `patchResource`, delete.go `DeleteResource`): the request's attributes are built from the write,
 * the chain's mutated object is what storage keeps, and a refusal is answered with the chain's Status.
 */
import type { Authorizer } from '../../authz/authorizer';
import type { KubeObject, Status, UserInfo } from '../../kube/admission';
import type { AdmissionAttributes } from '../../kube/attributes';
import { isObject, type Json } from '../../kube/json';
import { ApiError, internalError } from '../../kube/status';
import { optionsObject, type OptionsKind } from '../../review/builders/options';
import { requestLine } from '../../review/review';
import type { RestAnswer, RestCall } from '../rest';
import { serveRest } from '../rest';
import type { ObjectStore } from '../store';

/** Admits one write's attributes: the object storage is to keep, or the refusal the client gets. */
export type WriteAdmitter = (
  attributes: AdmissionAttributes,
) => Promise<{ object: KubeObject | null; rejection?: Status /** `Warning` header values, as the client receives them. */; warnings?: readonly string[] }>;

/**
 * How many admissions of one object may be in flight at once before the mock API refuses the next: a webhook
 * that writes the object it is admitting is admitted again, which writes it again, without end. kube-apiserver
 * runs the same recursion until the outermost webhook call times out (its `timeoutSeconds`); the mock API
 * stops it at this depth, deterministically, instead of waiting on the clock.
 */
export const ADMISSION_NESTING_LIMIT = 8;

const ADMITTED_VERBS = new Set(['create', 'update', 'patch', 'delete']);

/** The objects whose writes are being admitted, counted by key, to stop a webhook's write loop. */
export class AdmissionsInFlight {
  readonly #counts = new Map<string, number>();

  async run<T>(attributes: AdmissionAttributes, fn: () => Promise<T>): Promise<T> {
    const { resource, namespace, name } = attributes;
    const key = JSON.stringify([resource.group, resource.resource, namespace, name]);
    const count = this.#counts.get(key) ?? 0;
    if (count >= ADMISSION_NESTING_LIMIT) {
      throw new ApiError(
        internalError(
          `admission of ${requestLine(attributes)} is nested ${count} deep: a webhook that writes the object it is admitting is admitted again without end (kube-apiserver would wait for the webhook's timeoutSeconds)`,
        ),
      );
    }
    this.#counts.set(key, count + 1);
    try {
      return await fn();
    } finally {
      if (count === 0) this.#counts.delete(key);
      else this.#counts.set(key, count);
    }
  }
}

/** Whether this call is one admission sees here: a write of an object at its main resource (not a review), or of its status. */
export function isAdmittedWrite(call: RestCall): boolean {
  const { subresource, entry } = call.route;
  if (subresource === 'status') return call.verb === 'update' || call.verb === 'patch';
  return ADMITTED_VERBS.has(call.verb) && !subresource && !entry.resource.endsWith('reviews');
}

const withQuery = (url: URL, name: string, value: string | undefined): URL => {
  const next = new URL(url);
  next.searchParams.delete(name);
  if (value !== undefined) next.searchParams.set(name, value);
  return next;
};

function parsedObject(text: string): KubeObject | undefined {
  try {
    const value = JSON.parse(text) as Json;
    return isObject(value) ? (value as KubeObject) : undefined;
  } catch {
    return undefined;
  }
}

/** The options object kube's handler passes to admission, from the request's query (and a DeleteOptions body). */
function requestOptions(kind: OptionsKind, call: RestCall, dryRun: boolean): KubeObject {
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

function baseAttributes(call: RestCall, user: UserInfo): Omit<AdmissionAttributes, 'operation' | 'object' | 'oldObject' | 'options' | 'dryRun'> {
  const { entry, namespace, name } = call.route;
  return {
    kind: { group: entry.group, version: entry.version, kind: entry.kind },
    resource: { group: entry.group, version: entry.version, resource: entry.resource },
    subResource: call.route.subresource,
    name,
    namespace,
    userInfo: user,
  };
}

const isDryRun = (call: RestCall, options: KubeObject): boolean =>
  call.url.searchParams.getAll('dryRun').includes('All') || (Array.isArray(options.dryRun) && options.dryRun.includes('All'));

/** What admission is asked about a write, or undefined when the write fails before admission (serveRest answers it). */
function attributesOf(call: RestCall, store: ObjectStore, authorizer: Authorizer): AdmissionAttributes | undefined {
  const { entry, namespace, name } = call.route;
  const base = baseAttributes(call, call.user);
  const stored = (): KubeObject | undefined => {
    try {
      return store.get(entry, namespace, name);
    } catch {
      return undefined;
    }
  };
  // A status write is admitted as an UPDATE of the whole object, its new status in place (update.go `UpdateResource`).
  const verb = call.route.subresource === 'status' ? 'patch' : call.verb;
  switch (verb) {
    case 'create': {
      const object = parsedObject(call.body);
      if (!object) return undefined;
      const dryRun = call.url.searchParams.getAll('dryRun').includes('All');
      // createHandler fills the request's namespace into an object that names none before admission sees it.
      const filled = namespace && !object.metadata?.namespace ? { ...object, metadata: { ...object.metadata, namespace } } : object;
      const options = requestOptions('CreateOptions', call, dryRun);
      return { ...base, name: filled.metadata?.name ?? '', operation: 'CREATE', object: filled, oldObject: null, dryRun, options };
    }
    case 'update': {
      const object = parsedObject(call.body);
      const oldObject = stored();
      if (!object || !oldObject) return undefined;
      const dryRun = call.url.searchParams.getAll('dryRun').includes('All');
      return { ...base, operation: 'UPDATE', object, oldObject, dryRun, options: requestOptions('UpdateOptions', call, dryRun) };
    }
    case 'patch': {
      const oldObject = stored();
      if (!oldObject) return undefined;
      // The patched object, as patchResource hands it to admission: the patch applied (and the registry's
      // stage run) without storing it.
      const patched = serveRest({ ...call, url: withQuery(call.url, 'dryRun', 'All') }, store, authorizer).body as KubeObject;
      const dryRun = call.url.searchParams.getAll('dryRun').includes('All');
      return { ...base, operation: 'UPDATE', object: patched, oldObject, dryRun, options: requestOptions('UpdateOptions', call, dryRun) };
    }
    case 'delete': {
      const oldObject = stored();
      if (!oldObject) return undefined;
      const options = requestOptions('DeleteOptions', call, false);
      const dryRun = isDryRun(call, options);
      return { ...base, operation: 'DELETE', object: null, oldObject, dryRun, options: requestOptions('DeleteOptions', call, dryRun) };
    }
    default:
      return undefined;
  }
}

/**
 * Serves a write through admission: refused, the client gets the chain's Status with its code; admitted
 * unchanged, the request is served as it came; mutated, the mutated object is what is stored (a patch is
 * then stored as an update of the patched and mutated object).
 */
export async function serveAdmitted(
  call: RestCall,
  store: ObjectStore,
  authorizer: Authorizer,
  admit: WriteAdmitter,
  inFlight: AdmissionsInFlight,
): Promise<RestAnswer> {
  const attributes = attributesOf(call, store, authorizer);
  if (!attributes) return serveRest(call, store, authorizer);
  const result = await inFlight.run(attributes, () => admit(attributes));
  // The chain's warnings reach the client whatever the outcome (k8s.io/apiserver/pkg/endpoints/filters/warning.go).
  const warned = (answer: RestAnswer): RestAnswer => (result.warnings?.length ? { ...answer, warnings: result.warnings } : answer);
  if (result.rejection) return warned({ code: result.rejection.code ?? 500, body: result.rejection });
  const mutated = result.object;
  if (call.verb === 'delete' || !mutated || JSON.stringify(mutated) === JSON.stringify(attributes.object)) return warned(serveRest(call, store, authorizer));
  const body = JSON.stringify(mutated);
  if (call.verb === 'create') return warned(serveRest({ ...call, body, contentType: 'application/json' }, store, authorizer));
  // An update or a patch stores the mutated object in place of the request's.
  return warned(serveRest({ ...call, verb: 'update', body, contentType: 'application/json' }, store, authorizer));
}
