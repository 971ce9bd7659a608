import type { AdmissionRequest, UserInfo } from '../kube/admission';

/**
 * A JSON value as CEL sees it. kube-apiserver decodes JSON integers as int64 and other numbers as
 * double; the CEL library represents int as bigint, so integral numbers become bigints. (A JSON `1.0`
 * is a double in Go but reaches JavaScript as the integer 1: the harness cannot tell them apart.)
 */
export function celValue(json: unknown): unknown {
  if (typeof json === 'number') return Number.isInteger(json) ? BigInt(json) : json;
  if (Array.isArray(json)) return json.map(celValue);
  if (json !== null && typeof json === 'object') {
    // fromEntries defines own properties, so a `__proto__` key stays a key.
    return Object.fromEntries(
      Object.entries(json)
        .filter(([, value]) => value !== undefined)
        .map(([key, value]) => [key, celValue(value)]),
    );
  }
  return json;
}

/**
 * The `request` variable: `CreateAdmissionRequest` of k8s.io/apiserver/pkg/admission/plugin/cel, which
 * carries no uid, object or oldObject and always sets dryRun. CEL reads it as its JSON form, so fields
 * with `omitempty` and an empty value are absent: reading them is a "no such key" error.
 */
export function requestValue(request: AdmissionRequest): Record<string, unknown> {
  const subResource = request.subResource ?? '';
  const requestSubResource = request.requestSubResource ?? subResource;
  return {
    kind: { ...request.kind },
    resource: { ...request.resource },
    ...(subResource ? { subResource } : {}),
    requestKind: { ...(request.requestKind ?? request.kind) },
    requestResource: { ...(request.requestResource ?? request.resource) },
    ...(requestSubResource ? { requestSubResource } : {}),
    ...(request.name ? { name: request.name } : {}),
    ...(request.namespace ? { namespace: request.namespace } : {}),
    operation: request.operation,
    userInfo: userInfoValue(request.userInfo),
    dryRun: request.dryRun ?? false,
    options: celValue(request.options ?? null),
  };
}

function userInfoValue(user: UserInfo): Record<string, unknown> {
  const extra = Object.entries(user.extra ?? {});
  return {
    ...(user.username ? { username: user.username } : {}),
    ...(user.uid ? { uid: user.uid } : {}),
    ...(user.groups?.length ? { groups: [...user.groups] } : {}),
    ...(extra.length ? { extra: Object.fromEntries(extra.map(([key, values]) => [key, [...values]])) } : {}),
  };
}
