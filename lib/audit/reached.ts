import type { Operation } from '../kube/admission';
import type { AuditEvent } from './event';
import type { SkipReason } from './skip';

/** The annotation the authorization filter sets on every audited request (endpoints/filters/authorization.go). */
export const AUTHORIZATION_DECISION = 'authorization.k8s.io/decision';

/** Whether the response status is a success (101 for the upgraded connections of exec, attach, port-forward). */
export function succeeded(code: number | undefined): boolean {
  return code === undefined || code === 101 || (code >= 200 && code < 300);
}

/**
 * Why an audited request cannot have reached admission, judged by its outcome, or undefined when it may
 * have: authentication and authorization run before the handler; 405 means no handler; an update, patch
 * or delete reads the stored object before admission, so its 404 came first; a create's 404 is the
 * namespace's, refused by NamespaceLifecycle, which runs before webhooks. A CONNECT is admitted before its
 * target is looked up, and a subresource create (eviction, binding) may be admitted before its 404.
 */
export function unreachedBy(
  event: Pick<AuditEvent, 'responseStatus' | 'annotations'>,
  operation: Operation,
  subresource: string,
): { reason: SkipReason; detail: string } | undefined {
  const code = event.responseStatus?.code;
  const message = event.responseStatus?.message;
  const said = message ? `: ${message}` : '';
  if (code === 401) return { reason: 'unauthenticated', detail: `401${said}` };
  if (event.annotations?.[AUTHORIZATION_DECISION] === 'forbid') return { reason: 'forbidden-by-authorization', detail: `${code ?? 403}${said}` };
  if (code === 405) return { reason: 'method-not-allowed', detail: `405${said}` };
  if (code === 404 && (operation === 'UPDATE' || operation === 'DELETE' || (operation === 'CREATE' && !subresource))) {
    return { reason: 'not-found', detail: `404${said}` };
  }
  return undefined;
}
