import type { Operation } from '../kube/admission';
import type { CatalogEntry, SubresourceInfo } from '../kube/catalog';
import type { SkipReason } from './skip';

/** Which handler served the request, which decides where its object and options come from. */
export type Handler = 'create' | 'update' | 'patch' | 'delete' | 'deletecollection' | 'connect';

export type Route = { operation: Operation; handler: Handler } | { skip: SkipReason; detail: string };

const READS = new Set(['get', 'list', 'watch']);

/** Whether the verb only reads: endpoints/handlers get.go and watch.go call no admission. */
export function isReadVerb(verb: string): boolean {
  return READS.has(verb);
}

/**
 * The admission operation of an audited request, as the endpoint handlers choose it:
 * - any verb on a connecter subresource (exec, attach, portforward, proxy; GET for a WebSocket, POST for
 *   SPDY, any method for a proxy) goes through ConnectResource, admitted as CONNECT (handlers/rest.go);
 * - create is CREATE (create.go); update and patch are UPDATE (update.go, patch.go), or CREATE when the
 *   object did not exist and the request created it, which the response's 201 tells;
 * - delete and deletecollection are DELETE, the latter once per deleted item (delete.go);
 * - reads never reach admission.
 * The operation must then be one the resource or subresource admits, as the catalog says.
 */
export function routeOf(verb: string, responseCode: number | undefined, entry: CatalogEntry, sub: SubresourceInfo | undefined): Route {
  let route: { operation: Operation; handler: Handler };
  if (sub?.connect) route = { operation: 'CONNECT', handler: 'connect' };
  else if (isReadVerb(verb)) return { skip: 'read-only-verb', detail: `${verb} requests never reach admission` };
  else if (verb === 'create') route = { operation: 'CREATE', handler: 'create' };
  else if (verb === 'update' || verb === 'patch') route = { operation: responseCode === 201 ? 'CREATE' : 'UPDATE', handler: verb };
  else if (verb === 'delete' || verb === 'deletecollection') route = { operation: 'DELETE', handler: verb };
  else return { skip: 'verb-not-admitted', detail: `the verb ${JSON.stringify(verb)} is not admitted` };
  const what = sub ? `${entry.resource}/${sub.name}` : entry.resource;
  const admitted = sub ? sub.operations : entry.operations;
  if (!admitted.includes(route.operation)) {
    const which = admitted.length > 0 ? `only ${admitted.join(', ')}` : 'nothing (it is only read)';
    return { skip: 'operation-not-admitted', detail: `${what} admits ${which}, not ${route.operation}` };
  }
  return route;
}
