import { authorize, type Authorizer } from '../authz/authorizer';
import type { UserInfo } from '../kube/admission';
import type { ResourceCatalog } from '../kube/catalog';
import { goQuote } from '../go/strconv';
import { aggregatedDiscovery, apiGroupDocument, apiGroupList, apiResourceList, apiVersions } from './discovery/documents';
import { servedGroups } from './discovery/facts';
import { acceptsLegacyDiscovery, discoveryNotAcceptable, discoveryRepresentation, rawJson } from './negotiation';
import { openApiDocument, openApiRoot } from './openapi';
import { serveOpenApiV2 } from './openapi-v2';
import { healthText, isHealthEndpoint, VERSION_INFO } from './server-info';

/** A non-resource answer: status, body text (null for none) and headers. */
export interface NonResourceAnswer {
  code: number;
  text: string | Uint8Array | null;
  headers: Record<string, string>;
}

const JSON_HEADERS = { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private' };
const TEXT_HEADERS = { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-cache, private' };
const AGGREGATED_TYPE = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

const json = (value: unknown): NonResourceAnswer => ({ code: 200, text: `${JSON.stringify(value)}\n`, headers: JSON_HEADERS });
const text = (body: string): NonResourceAnswer => ({ code: 200, text: body, headers: TEXT_HEADERS });

/** The Go mux's NotFound page, which paths outside every API get (an unknown group among them). */
export const NOT_FOUND_PAGE: NonResourceAnswer = { code: 404, text: '404 page not found\n', headers: TEXT_HEADERS };

/** What a non-resource request carries that its answer depends on. */
export interface NonResourceRequest {
  url: URL;
  accept: string | null;
  ifNoneMatch: string | null;
  /** host:port the client reached, for APIVersions' serverAddressByClientCIDRs. */
  serverAddress: string;
}

const notAcceptable = (): NonResourceAnswer => ({ code: 406, text: rawJson(discoveryNotAcceptable()), headers: JSON_HEADERS });

/** A group's or group-version's document, which only the legacy form has: an Accept without plain JSON gets 406. */
const legacyOnly = (request: NonResourceRequest, value: unknown): NonResourceAnswer => (acceptsLegacyDiscovery(request.accept) ? json(value) : notAcceptable());

/** `/api` and `/apis`, aggregated or legacy as the Accept header asks (aggregated/wrapper.go). */
function discoveryRoot(catalog: ResourceCatalog, root: 'api' | 'apis', request: NonResourceRequest): NonResourceAnswer {
  const representation = discoveryRepresentation(request.accept);
  if (!representation) return notAcceptable();
  if (representation === 'legacy') return json(root === 'api' ? apiVersions(request.serverAddress) : apiGroupList(catalog));
  const { body, etag } = aggregatedDiscovery(catalog, root);
  const headers = { 'Content-Type': AGGREGATED_TYPE, 'Cache-Control': 'public', ETag: `"${etag}"`, Vary: 'Accept' };
  if (request.ifNoneMatch === `"${etag}"`) return { code: 304, text: null, headers: { 'Cache-Control': 'public', ETag: `"${etag}"`, Vary: 'Accept' } };
  return { code: 200, text: `${JSON.stringify(body)}\n`, headers };
}

/** The `/openapi/v3` index and documents: served as text/plain, compact, as kube-openapi's handler3 writes them. */
function openApi(catalog: ResourceCatalog, rest: string, hash: string | null): NonResourceAnswer | undefined {
  if (rest === '') return { code: 200, text: JSON.stringify(openApiRoot(catalog)), headers: { 'Content-Type': 'text/plain; charset=utf-8' } };
  const document = openApiDocument(catalog, rest);
  // A document asked for by its current hash never changes, so clients may keep it (handler3's immutable caching).
  const caching: Record<string, string> = hash === document?.hash ? { 'Cache-Control': 'public, immutable' } : {};
  return document && { code: 200, text: document.text, headers: { 'Content-Type': 'application/json', Etag: `"${document.hash}"`, ...caching } };
}

/**
 * Answers the GET paths that are no resource: discovery, `/version`, health checks, OpenAPI v3, and the mux's
 * 404 page for a group the catalog does not serve. Undefined for resource paths and for `/api/v1/<unknown>`,
 * which the REST routes answer with a Status.
 */
export function serveNonResource(catalog: ResourceCatalog, request: NonResourceRequest): NonResourceAnswer | undefined {
  const segments = request.url.pathname.split('/').filter(Boolean);
  const [first, second, third] = segments;
  if (first === 'api') {
    if (segments.length === 1) return discoveryRoot(catalog, 'api', request);
    if (segments.length === 2 && second === 'v1') return legacyOnly(request, apiResourceList(catalog, '', 'v1'));
    return second === 'v1' ? undefined : NOT_FOUND_PAGE;
  }
  if (first === 'apis') {
    if (segments.length === 1) return discoveryRoot(catalog, 'apis', request);
    const group = servedGroups(catalog).find((candidate) => candidate.name === second);
    if (!group || (third !== undefined && !group.versions.includes(third))) return NOT_FOUND_PAGE;
    if (segments.length === 2) return legacyOnly(request, apiGroupDocument(catalog, group.name));
    if (segments.length === 3) return legacyOnly(request, apiResourceList(catalog, group.name, third as string));
    return undefined;
  }
  if (first === 'version' && segments.length === 1) return { code: 200, text: rawJson(VERSION_INFO), headers: JSON_HEADERS };
  if (isHealthEndpoint(first) && segments.length <= 2) {
    const answer = healthText(first, second ?? '', request.url.searchParams.has('verbose'));
    return answer === undefined ? NOT_FOUND_PAGE : text(answer);
  }
  if (first === 'openapi' && second === 'v2' && segments.length === 2) {
    const { code, body, headers } = serveOpenApiV2(catalog, request.accept);
    return { code, text: body, headers };
  }
  if (first === 'openapi' && second === 'v3') return openApi(catalog, segments.slice(2).join('/'), request.url.searchParams.get('hash')) ?? NOT_FOUND_PAGE;
  return NOT_FOUND_PAGE;
}

/** The 403 for a non-resource URL the authorizer refuses (responsewriters.forbiddenMessage), or undefined when allowed. */
export function authorizeNonResource(authorizer: Authorizer, user: UserInfo, path: string): NonResourceAnswer | undefined {
  const result = authorize(authorizer, { user, verb: 'get', group: '', resource: '', subresource: '', namespace: '', name: '', path });
  if (result.decision === 'allow') return undefined;
  const message = `forbidden: User ${goQuote(user.username ?? '')} cannot get path ${goQuote(path)}`;
  const status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'Forbidden', details: {}, code: 403 };
  return { code: 403, text: `${JSON.stringify(status)}\n`, headers: JSON_HEADERS };
}
