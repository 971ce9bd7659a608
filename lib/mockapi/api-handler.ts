import type { Authorizer } from '../authz/authorizer';
import type { Registry } from '../registry';
import type { UserInfo } from '../kube/admission';
import { authorizeRequest } from './authorization';
import type { Faults, FaultSpec, Verb } from './faults';
import { negotiateResource, rawJson, resourceNotAcceptable, resourceRepresentation } from './negotiation';
import { servedAsPartialObjectMetadata } from './partial-object-metadata';
import { servedAsTable, tableConverterFor, tableOptionsError } from './tables';
import { authorizeNonResource, serveNonResource } from './non-resource';
import { parseApiPath, type Route } from './paths';
import { readRequestBody, type RequestBody } from './request-body';
import { type RestAnswer, type RestCall, serveRest, verbOf } from './rest';
import { kubeYaml } from './yaml-encoding';
import { ApiError, internalError, methodNotAllowed, pathNotFound, statusForCode, unauthorized, type ApiStatus } from '../kube/status';
import type { ObjectStore } from './store';
import type { WriteLog, WriteVerb } from './write-log';
import type { WatchHub } from './watch/watch-hub';
import type { ConversionLayer } from './conversion';
import { type AdmissionsInFlight, isAdmittedWrite, serveAdmitted, type WriteAdmitter } from './writes/admission';

/** Timers for injected latency, all cancelled at close() so no handle outlives the mock API. */
export class Delays {
  readonly #pending = new Set<() => void>();
  #closed = false;

  /** `timeScale`: real time per configured second, as the harness's call deadlines and stub delays run. */
  constructor(readonly timeScale = 1) {}

  /** Resolves true after `ms` configured milliseconds (scaled), or false as soon as the mock API closes. */
  wait(ms: number): Promise<boolean> {
    if (this.#closed) return Promise.resolve(false);
    return new Promise((resolve) => {
      const cancel = (): void => {
        clearTimeout(timer);
        this.#pending.delete(cancel);
        resolve(false);
      };
      const timer = setTimeout(() => {
        this.#pending.delete(cancel);
        resolve(true);
      }, ms * this.timeScale);
      this.#pending.add(cancel);
    });
  }

  cancelAll(): void {
    this.#closed = true;
    for (const cancel of [...this.#pending]) cancel();
  }
}

export interface ApiHandlerContext {
  store: ObjectStore;
  faults: Faults;
  writes: WriteLog;
  delays: Delays;
  watches: WatchHub;
  /** The registry stage every create, update and patch goes through (decode, defaults, strategy, validation). */
  registry: Registry;
  authorizer(): Authorizer;
  /** The user a request's Authorization header authenticates, or undefined for a token the API does not know. */
  authenticate(authorization: string | null): UserInfo | undefined;
  /** Serves the requests at a version a CRD's webhook converts from (lib/mockapi/conversion). */
  conversion?: ConversionLayer;
  /** The admission chain writes go through (`admitWrites`, once a harness holds the API), and the admissions in flight. */
  admission?: { admitter(): WriteAdmitter | undefined; inFlight: AdmissionsInFlight };
}

/** What to send back: a JSON body, plain text, or nothing at all (the connection drops). */
type Outcome =
  | { code: number; json: unknown; warnings?: readonly string[] }
  | { code: number; text: string | Uint8Array | null; headers: Record<string, string> }
  | { code: number; stream: ReadableStream<Uint8Array> }
  | { code: undefined };

const WRITES: ReadonlySet<Verb> = new Set<Verb>(['create', 'update', 'patch', 'delete', 'deletecollection']);
const isWrite = (verb: Verb): verb is WriteVerb => WRITES.has(verb);
// For faults on paths no resource serves, which have no RequestInfo verb.
const METHOD_VERBS: Readonly<Record<string, Verb>> = { GET: 'get', POST: 'create', PUT: 'update', PATCH: 'patch', DELETE: 'delete' };

function faultOutcome(fault: Readonly<FaultSpec>): Outcome | undefined {
  if (fault.networkError) return { code: undefined };
  if (fault.throttle) {
    // API Priority and Fairness rejects with http.Error: plain text, not a Status.
    const retryAfter = typeof fault.throttle === 'object' ? fault.throttle.retryAfterSeconds : 1;
    return {
      code: 429,
      text: 'Too many requests, please try again later.\n',
      headers: { 'Retry-After': String(retryAfter), 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' },
    };
  }
  if (fault.status !== undefined) return { code: fault.status, json: statusForCode(fault.status, fault.message) };
  return undefined;
}

function toResponse(outcome: Outcome): Response {
  if (outcome.code === undefined) return Response.error();
  // genericfilters.WithCacheControl: every answer not marked otherwise is `no-cache, private`.
  const cacheControl = { 'Cache-Control': 'no-cache, private' };
  // A watch is chunked, one event a line; every other answer is whole and says its length, as kube-apiserver's do.
  if ('stream' in outcome) return new Response(outcome.stream, { status: outcome.code, headers: { 'Content-Type': 'application/json', ...cacheControl } });
  const length = (body: string | Uint8Array): string => String(Buffer.byteLength(body));
  if ('text' in outcome) {
    const text = outcome.code === 304 ? null : outcome.text;
    return new Response(text, {
      status: outcome.code,
      headers: { ...cacheControl, ...outcome.headers, ...(text === null ? {} : { 'Content-Length': length(text) }) },
    });
  }
  const body = JSON.stringify(outcome.json);
  const headers = new Headers({ 'Content-Type': 'application/json', ...cacheControl, 'Content-Length': length(body) });
  for (const warning of outcome.warnings ?? []) headers.append('Warning', warning);
  return new Response(body, { status: outcome.code, headers });
}

/** Whether a write asked for a dry run, in its query or (for deletes) its DeleteOptions body. */
function dryRunRequested(url: URL, verb: Verb, body: unknown): boolean {
  const deleting = verb === 'delete' || verb === 'deletecollection';
  const options = deleting && typeof body === 'object' && body !== null && 'dryRun' in body && Array.isArray(body.dryRun) ? body.dryRun : [];
  return [...url.searchParams.getAll('dryRun'), ...options].includes('All');
}

function parsed(body: string): unknown {
  try {
    return body ? JSON.parse(body) : undefined;
  } catch {
    return body;
  }
}

async function resolve(
  request: Request,
  body: RequestBody,
  url: URL,
  route: Route | undefined,
  verb: Verb | undefined,
  context: ApiHandlerContext,
): Promise<Outcome> {
  const fault = context.faults.take(url.pathname, verb ?? METHOD_VERBS[request.method] ?? 'get');
  if (fault?.latencyMs && !(await context.delays.wait(fault.latencyMs))) return { code: undefined };
  const injected = fault && faultOutcome(fault);
  if (injected) return injected;
  const failure = (status: ApiStatus): Outcome => ({ code: status.code, json: status });
  const user = context.authenticate(request.headers.get('authorization'));
  if (!user) return failure(unauthorized());
  if (!route) {
    const headers = request.headers;
    const other =
      request.method === 'GET'
        ? serveNonResource(context.store.catalog, { url, accept: headers.get('accept'), ifNoneMatch: headers.get('if-none-match'), serverAddress: url.host })
        : undefined;
    return other ? (authorizeNonResource(context.authorizer(), user, url.pathname) ?? other) : failure(pathNotFound());
  }
  if (!verb) return failure(methodNotAllowed());
  const denied = authorizeRequest(context.authorizer(), user, verb, route);
  if (denied) return failure(denied);
  const converter = tableConverterFor(route);
  const accept = request.headers.get('accept');
  const negotiated = negotiateResource(accept, converter !== undefined);
  if (!negotiated) return { code: 406, text: rawJson(resourceNotAcceptable()), headers: { 'Content-Type': 'application/json' } };
  const table = negotiated.table && converter ? { version: negotiated.table, converter } : undefined;
  const refused = table && tableOptionsError(url, verb);
  if (refused) return encodedError(refused, accept);
  const served = await serveResource(body, route, verb, url, user, context, request.headers.get('user-agent'));
  const succeeded = ('json' in served || 'stream' in served) && served.code >= 200 && served.code < 300;
  const converted = !succeeded
    ? served
    : table
      ? servedAsTable(served, route, url, table.version, table.converter)
      : negotiated.partial
        ? servedAsPartialObjectMetadata(served, route, negotiated.partial)
        : served;
  // An error is written as negotiation.DefaultEndpointRestrictions allow: in no converted representation.
  if ((table || negotiated.partial) && 'json' in converted && converted.code >= 400) return encodedError(converted, accept);
  return encodedAs(converted, negotiated.encoding);
}

/** A JSON answer in the representation negotiated: YAML when asked for, else as it is. */
function encodedAs(outcome: Outcome, representation: 'json' | 'yaml'): Outcome {
  if (representation !== 'yaml' || !('json' in outcome)) return outcome;
  return {
    code: outcome.code,
    text: kubeYaml(outcome.json),
    // Several Warning headers are one, their values joined by commas (RFC 9110 §5.3).
    headers: { 'Content-Type': 'application/yaml', ...(outcome.warnings?.length ? { Warning: outcome.warnings.join(', ') } : {}) },
  };
}

/**
 * responsewriters.ErrorNegotiated: an error goes out in the first plain representation the Accept header takes;
 * when it takes none (only conversions), as raw JSON indented by two spaces (WriteRawJSON).
 */
function encodedError(outcome: Outcome, accept: string | null): Outcome {
  const plain = resourceRepresentation(accept);
  if (plain) return encodedAs(outcome, plain);
  return 'json' in outcome ? { code: outcome.code, text: rawJson(outcome.json), headers: { 'Content-Type': 'application/json' } } : outcome;
}

async function serveResource(
  body: RequestBody,
  route: Route,
  verb: Verb,
  url: URL,
  user: UserInfo,
  context: ApiHandlerContext,
  userAgent: string | null,
): Promise<Outcome> {
  const failure = (status: ApiStatus): Outcome => ({ code: status.code, json: status });
  try {
    if (body.error) return failure(body.error);
    if (isWrite(verb)) await context.registry.ready();
    const call = {
      route,
      verb,
      url,
      contentType: body.contentType,
      body: body.text,
      ...(body.yamlRepeatedKeys?.length ? { yamlRepeatedKeys: body.yamlRepeatedKeys } : {}),
      user,
      watches: context.watches,
      registry: context.registry,
      userAgent,
    };
    const authorizer = context.authorizer();
    // Below admission: the conversion layer for a version a CRD's webhook converts, else the REST semantics.
    const serve = async (next: RestCall): Promise<RestAnswer> =>
      (await context.conversion?.serve(next, authorizer)) ?? serveRest(next, context.store, authorizer);
    const admission = context.admission;
    const admitter = admission?.admitter();
    const answer = admission && admitter && isAdmittedWrite(call) ? await serveAdmitted(call, serve, admitter, admission.inFlight) : await serve(call);
    if (answer.stream) return { code: answer.code, stream: answer.stream };
    return { code: answer.code, json: answer.body, ...(answer.warnings ? { warnings: answer.warnings } : {}) };
  } catch (error) {
    if (error instanceof ApiError) return failure(error.status);
    // As kube-apiserver's panic recovery would, answer a bug with a 500 rather than hang the client.
    return failure(internalError((error as Error).message));
  }
}

/**
 * The mock API as one fetch-style function, Request in and Response out: the msw handlers and the loopback
 * server both call it. Faults apply first, then authentication, authorization and the REST semantics; every
 * mutating call is logged with the admission requests in flight when it arrived.
 */
export function createApiHandler(context: ApiHandlerContext): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url);
    const admission = context.writes.inFlight();
    const route = parseApiPath(url.pathname, context.store.catalog);
    const verb = route && verbOf(request.method, route, url);
    const read = readRequestBody(new Uint8Array(await request.arrayBuffer()), request.headers.get('content-type'));
    const body = read.text;
    const outcome = await resolve(request, read, url, route, verb, context);
    // Reviews are POSTs that store nothing, so they are questions, not writes.
    if (route && verb && isWrite(verb) && !route.entry.resource.endsWith('reviews')) {
      const sent = parsed(body);
      context.writes.record({
        verb,
        method: request.method,
        path: url.pathname + url.search,
        resource: { group: route.entry.group, version: route.entry.version, resource: route.entry.resource },
        namespace: route.namespace,
        name: route.name,
        dryRun: dryRunRequested(url, verb, sent),
        code: outcome.code,
        request: sent,
        response: 'json' in outcome ? outcome.json : 'text' in outcome ? outcome.text : undefined,
        admission,
      });
    }
    return toResponse(outcome);
  };
}
