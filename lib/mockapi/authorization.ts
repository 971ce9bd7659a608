import { goQuote } from '../go/strconv';
import { authorize, type AuthorizationAttributes, type Authorizer } from '../authz/authorizer';
import type { KubeObject, UserInfo } from '../kube/admission';
import { isObject, type JsonObject } from '../kube/json';
import type { Route } from './paths';
import { forbidden, type ApiStatus } from '../kube/status';

/** Who a request without credentials is, with anonymous authentication on (kube-apiserver's default). */
export const ANONYMOUS: UserInfo = { username: 'system:anonymous', groups: ['system:unauthenticated'] };

/** responsewriters.forbiddenMessage: who cannot do what, where. */
function forbiddenMessage(a: AuthorizationAttributes): string {
  const who = `User ${goQuote(a.user.username ?? '')}`;
  const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const where = a.namespace ? `in the namespace ${goQuote(a.namespace)}` : 'at the cluster scope';
  return `${who} cannot ${a.verb} resource ${goQuote(resource)} in API group ${goQuote(a.group)} ${where}`;
}

/** The 403 kube-apiserver answers when the authorizer does not allow the request, or undefined when it does. */
export function authorizeRequest(authorizer: Authorizer, user: UserInfo, verb: string, route: Route): ApiStatus | undefined {
  const attributes: AuthorizationAttributes = {
    user,
    verb,
    group: route.entry.group,
    resource: route.entry.resource,
    subresource: route.subresource,
    namespace: route.namespace,
    name: route.name,
    path: '',
  };
  const result = authorize(authorizer, attributes);
  if (result.decision === 'allow') return undefined;
  const reason = result.reason ?? result.error;
  return forbidden(route.entry, route.name, reason ? `${forbiddenMessage(attributes)}: ${reason}` : forbiddenMessage(attributes));
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The AttributesRecord a (Self/Local)SubjectAccessReview spec asks about. */
function reviewAttributes(spec: JsonObject, user: UserInfo): AuthorizationAttributes {
  const resource = isObject(spec.resourceAttributes) ? spec.resourceAttributes : undefined;
  const nonResource = isObject(spec.nonResourceAttributes) ? spec.nonResourceAttributes : {};
  return {
    user,
    verb: text((resource ?? nonResource).verb),
    group: text(resource?.group),
    resource: text(resource?.resource),
    subresource: text(resource?.subresource),
    namespace: text(resource?.namespace),
    name: text(resource?.name),
    path: resource ? '' : text(nonResource.path),
  };
}

/** The user a SubjectAccessReview asks about: spec.user, spec.groups, spec.uid and spec.extra. */
function subjectOf(spec: JsonObject): UserInfo {
  return {
    username: text(spec.user),
    ...(typeof spec.uid === 'string' ? { uid: spec.uid } : {}),
    groups: Array.isArray(spec.groups) ? spec.groups.filter((g): g is string => typeof g === 'string') : [],
    ...(isObject(spec.extra) ? { extra: spec.extra as Record<string, string[]> } : {}),
  };
}

/**
 * Answers a SubjectAccessReview (about spec's user), SelfSubjectAccessReview (about the requester) or
 * LocalSubjectAccessReview (spec's user, in the path's namespace) with the authorizer's decision, echoing
 * the request with `status` filled in as kube-apiserver does. Nothing is stored.
 */
export function answerAccessReview(kind: string, body: KubeObject, requester: UserInfo, namespace: string, authorizer: Authorizer): KubeObject {
  const spec: JsonObject = isObject(body.spec) ? body.spec : {};
  const user = kind === 'SelfSubjectAccessReview' ? requester : subjectOf(spec);
  const attributes = reviewAttributes(spec, user);
  if (kind === 'LocalSubjectAccessReview') attributes.namespace = namespace;
  const result = authorize(authorizer, attributes);
  const status = {
    allowed: result.decision === 'allow',
    ...(result.decision === 'deny' ? { denied: true } : {}),
    ...(result.reason ? { reason: result.reason } : {}),
    ...(result.error ? { evaluationError: result.error } : {}),
  };
  return { ...body, metadata: isObject(body.metadata) ? body.metadata : {}, spec, status };
}
