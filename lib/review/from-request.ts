import { HarnessError } from '../errors';
import type { AdmissionRequest, KubeObject, Operation } from '../kube/admission';
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
    throw new HarnessError('REVIEW_INVALID', `${field('operation')}: Unsupported value: ${JSON.stringify(operation)}: supported values: "CREATE", "UPDATE", "DELETE", "CONNECT"`);
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
  // kube-apiserver always gives a namespace's requests its own name as namespace; a hand-written request may leave it out.
  const namespace = str('namespace') || (isNamespaceResource(resource) ? str('name') : '');
  return new Review({
    operation: operation as Operation,
    kind: { group: k.group, version: k.version, kind: k.value },
    resource,
    subResource: str('requestSubResource') || str('subResource'),
    name: str('name'),
    namespace,
    userInfo: isObject(request.userInfo) ? cloneJson(request.userInfo as AdmissionRequest['userInfo']) : DEFAULT_USER,
    object,
    oldObject,
    dryRun: request.dryRun === true,
    options: cloneJson(request.options ?? null) as KubeObject | null,
  });
}
