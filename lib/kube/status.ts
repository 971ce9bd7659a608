import type { Status } from './admission';

/**
 * The meta/v1 Status objects kube-apiserver returns to clients, built as apimachinery's
 * `pkg/api/errors` constructors build them.
 */
function failure(code: number, reason: string, message: string, details?: Status['details']): Status {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, ...(details ? { details } : {}), code };
}

/** `NewInternalError(err)`. */
export function internalError(message: string): Status {
  return failure(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ message }] });
}

/** `NewNotFound(qualifiedResource, name)`. */
export function notFound(resource: { group: string; resource: string }, name: string): Status {
  const qualified = resource.group ? `${resource.resource}.${resource.group}` : resource.resource;
  return failure(404, 'NotFound', `${qualified} ${JSON.stringify(name)} not found`, { name, ...(resource.group ? { group: resource.group } : {}), kind: resource.resource });
}

/** `NewForbidden(qualifiedResource, name, err)`. */
export function forbidden(resource: { group: string; resource: string }, name: string, cause: string): Status {
  const qualified = resource.group ? `${resource.resource}.${resource.group}` : resource.resource;
  const subject = name ? `${qualified} ${JSON.stringify(name)}` : qualified;
  return failure(403, 'Forbidden', `${subject} is forbidden: ${cause}`, { name, ...(resource.group ? { group: resource.group } : {}), kind: resource.resource });
}

/** `NewBadRequest(reason)`. */
export function badRequest(message: string): Status {
  return failure(400, 'BadRequest', message);
}

/** `NewTimeoutError("request did not complete within requested timeout", 0)`: the request's own deadline passed. */
export function requestTimeout(): Status {
  return failure(504, 'Timeout', 'Timeout: request did not complete within requested timeout', { retryAfterSeconds: 0 });
}

/**
 * What a client sees when json-patch panics inside kube-apiserver: the panic-recovery filter answers
 * a plain-text 500, which client-go turns into its generic server-error text.
 */
export function panicked(): Status {
  const text = 'This request caused apiserver to panic. Look in the logs for details.';
  return failure(500, 'InternalError', `an error on the server (${JSON.stringify(text)}) has prevented the request from succeeding`, { causes: [{ reason: 'UnexpectedServerResponse', message: text }] });
}
