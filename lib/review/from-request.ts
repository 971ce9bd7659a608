import { HarnessError } from '../errors';
import type { AdmissionRequest, GroupVersionResource, KubeObject, Operation } from '../kube/admission';
import { defaultCatalog } from '../kube/catalog';
import { isNamespaceResource } from '../kube/gvr';
import { DEFAULT_USER } from '../kube/attributes';
import { Review } from './review';
import { cloneJson, isRecord as isObject } from '../kube/json';

const OPERATIONS: readonly Operation[] = ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'];

/**
 * A Review from an AdmissionRequest written by hand or captured from a cluster (a whole
 * AdmissionReview is accepted too). `where` names the source in errors, e.g. `review.yaml`.
 */
export function reviewFromRequest(input: unknown, where: string): Review {
  const request = isObject(input) && isObject(input.request) ? input.request : input;
  if (!isObject(request)) throw new HarnessError('REVIEW_INVALID', `${where}: expected an AdmissionReview or an AdmissionRequest object`);
  const field = (name: string) => `${where}: request.${name}`;
  const operation = request.operation;
  if (!OPERATIONS.includes(operation as Operation)) {
    throw new HarnessError(
      'REVIEW_INVALID',
      `${field('operation')}: Unsupported value: ${JSON.stringify(operation)}: supported values: "CREATE", "UPDATE", "DELETE", "CONNECT"`,
    );
  }
  // Reads a {group, version, <member>} triple; the client's request is requestKind/requestResource when
  // given, kind/resource being what a webhook matched.
  const triple = (names: [string, string], member: 'kind' | 'resource'): { group: string; version: string; value: string } => {
    const name = names.find((n) => request[n] !== undefined) ?? names[1];
    const value = request[name];
    if (!isObject(value) || typeof value.version !== 'string' || typeof value[member] !== 'string') {
      throw new HarnessError('REVIEW_INVALID', `${field(name)}: Required value: {group, version, ${member}}`);
    }
    return { group: typeof value.group === 'string' ? value.group : '', version: value.version, value: value[member] as string };
  };
  const k = triple(['requestKind', 'kind'], 'kind');
  const r = triple(['requestResource', 'resource'], 'resource');
  // Copies: a review is frozen once sent, and the request given stays the caller's.
  const object = cloneJson(request.object ?? null) as KubeObject | null;
  const oldObject = cloneJson(request.oldObject ?? null) as KubeObject | null;
  const str = (name: string) => (typeof request[name] === 'string' ? (request[name] as string) : '');
  const resource = { group: r.group, version: r.version, resource: r.value };
  const { name, namespace } = identityOf(operation as Operation, resource, str('name'), str('namespace'), object, oldObject);
  return new Review({
    operation: operation as Operation,
    kind: { group: k.group, version: k.version, kind: k.value },
    resource,
    subResource: str('requestSubResource') || str('subResource'),
    name,
    namespace,
    userInfo: isObject(request.userInfo) ? cloneJson(request.userInfo as AdmissionRequest['userInfo']) : DEFAULT_USER,
    object: operation === 'CREATE' || operation === 'UPDATE' ? placedIn(object, resource, namespace) : object,
    oldObject,
    dryRun: request.dryRun === true,
    options: cloneJson(request.options ?? null) as KubeObject | null,
  });
}

/** Whether the resource is cluster-scoped, as far as the built-in catalog knows (a custom resource: not known). */
function clusterScoped(resource: GroupVersionResource): boolean {
  return defaultCatalog.resourceByName(resource.group, resource.version, resource.resource)?.namespaced === false;
}

const metadataOf = (object: KubeObject | null): Record<string, unknown> => (object && isObject(object.metadata) ? object.metadata : {});
const stringIn = (metadata: Record<string, unknown>, key: string): string => (typeof metadata[key] === 'string' ? (metadata[key] as string) : '');

/**
 * The request's name and namespace as kube-apiserver's handlers give them to admission, where a
 * hand-written request leaves them out. A create without a name in its URL takes the object's
 * (endpoints/handlers/create.go: "get name from new object if unset"; a generateName-only object has
 * none until the registry makes it). Every other request names its object in the URL, which a client
 * takes from the object it writes or deletes (kubectl replace, delete): the object's, else the old
 * object's. The namespace likewise; a namespace's requests carry its own name as namespace.
 */
function identityOf(
  operation: Operation,
  resource: GroupVersionResource,
  name: string,
  namespace: string,
  object: KubeObject | null,
  oldObject: KubeObject | null,
): { name: string; namespace: string } {
  // A CONNECT's object is its options, which have no metadata: nothing to take a name from.
  if (operation === 'CONNECT') return { name, namespace: namespace || (isNamespaceResource(resource) ? name : '') };
  const current = metadataOf(object);
  const old = metadataOf(oldObject);
  const filledName = name || stringIn(current, 'name') || stringIn(old, 'name');
  if (isNamespaceResource(resource)) return { name: filledName, namespace: namespace || filledName };
  if (namespace || clusterScoped(resource)) return { name: filledName, namespace };
  return { name: filledName, namespace: stringIn(current, 'namespace') || stringIn(old, 'namespace') };
}

/**
 * The object of a create or update as admission gets it: rest.EnsureObjectNamespaceMatchesRequestNamespace
 * writes the request's namespace into an object that has none, and clears it from the object of a
 * cluster-scoped resource (a namespace's own object included). An object in another namespace than
 * the request's is left as sent: the dispatcher refuses it with kube's 400.
 */
function placedIn(object: KubeObject | null, resource: GroupVersionResource, namespace: string): KubeObject | null {
  if (!object) return object;
  const metadata = metadataOf(object);
  const current = stringIn(metadata, 'namespace');
  const expected = isNamespaceResource(resource) || clusterScoped(resource) ? '' : namespace;
  if (current === expected || (current !== '' && expected !== '')) return object;
  if (expected === '') {
    const { namespace: _cleared, ...rest } = metadata;
    return { ...object, metadata: rest } as KubeObject;
  }
  // name, generateName and namespace are ObjectMeta's first members, in that order.
  const { name, generateName, namespace: _unset, ...rest } = metadata;
  const placed = { ...(name !== undefined ? { name } : {}), ...(generateName !== undefined ? { generateName } : {}), namespace: expected, ...rest };
  if (isObject(object.metadata)) return { ...object, metadata: placed } as KubeObject;
  // An object sent without metadata gets it where ObjectMeta goes, after its TypeMeta.
  const { kind, apiVersion, ...members } = object;
  return { ...(kind !== undefined ? { kind } : {}), ...(apiVersion !== undefined ? { apiVersion } : {}), metadata: placed, ...members } as KubeObject;
}
