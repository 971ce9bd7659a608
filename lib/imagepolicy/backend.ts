import { isIP } from 'node:net';
import type { AgentPool } from '../call/agents';
import type { WebhookCredentials } from '../call/credentials';
import { resolveEndpoint, type Route } from '../call/endpoint';
import { httpStatusError } from '../call/http-status';
import { post, TransportError, type HttpReply } from '../call/transport';
import { goQuote } from '../go/strconv';
import type { ImagePolicyClock } from './clock';
import { decodeImageReviewReply } from './decode';
import type { ImageReviewStatus } from './image-review';

/** `defaultRequestTimeout` of the generic webhook client (k8s.io/apiserver pkg/util/webhook): every call's `?timeout=`. */
const REQUEST_TIMEOUT_SECONDS = 30;
/** client-go's request retries on a Retry-After answer (`maxRetries`). */
const MAX_RETRY_AFTER = 10;

/** How the plugin reaches its backend: the kubeconfig's server, re-pointed at the harness's target. */
export interface BackendContext {
  server: string;
  route: Route;
  ca: string;
  credentials: WebhookCredentials;
  agents: AgentPool;
  timeScale: number;
  clock: ImagePolicyClock;
}

/** One request to the backend as client-go's `Do()` ends it (after its own Retry-After retries). */
export interface BackendReply {
  /** The decoded status of a good answer. */
  status?: ImageReviewStatus;
  /** The error `Do()`/`Into()` returns, as Go prints it. */
  error?: string;
  /** Whether the generic webhook retries this error (`DefaultShouldRetry`). */
  retriable: boolean;
  httpStatus?: number;
  body?: string;
  /** How many HTTP requests this took (more than one after Retry-After answers). */
  requests: number;
  /** For a failure on the connection: its kind, and for a refused certificate, why (the battery's TLS check reads them). */
  transport?: TransportError['kind'];
  certificate?: TransportError['certificate'];
}

/** The URL as Go prints it in errors: the server, its path as client-go joins it, and `?timeout=`. */
export function backendUrl(server: string): string {
  return `${resolveEndpoint({ url: server }).url}?timeout=${REQUEST_TIMEOUT_SECONDS}s`;
}

/**
 * `RestClient.Post().Body(review).Do(ctx)` of the generic webhook: one POST (repeated while the backend
 * answers 429/5xx with a Retry-After, as client-go does), then the reply decoded into an ImageReview.
 */
export async function postImageReview(body: string, context: BackendContext): Promise<BackendReply> {
  const logical = resolveEndpoint({ url: context.server });
  const endpoint = { ...logical, address: context.route(logical.address) };
  const url = backendUrl(context.server);
  let reply: HttpReply;
  let requests = 0;
  for (;;) {
    requests++;
    try {
      reply = await post(endpoint, body, {
        ca: context.ca,
        agents: context.agents,
        deadlineMs: REQUEST_TIMEOUT_SECONDS * 1000 * context.timeScale,
        timeoutParam: `${REQUEST_TIMEOUT_SECONDS}s`,
        ...context.credentials,
        userAgent: 'Go-http-client/1.1',
      });
    } catch (error) {
      if (!(error instanceof TransportError)) throw error;
      return {
        error: `Post ${goQuote(url)}: ${transportText(error, logical.address)}`,
        retriable: false,
        requests,
        transport: error.kind,
        ...(error.certificate ? { certificate: error.certificate } : {}),
      };
    }
    const waitSeconds = retryAfterSeconds(reply);
    if (waitSeconds === undefined || requests > MAX_RETRY_AFTER || (reply.status !== 429 && reply.status < 500)) break;
    await context.clock.sleep(waitSeconds * 1000);
  }
  const text = reply.body.toString('utf8');
  const common = { httpStatus: reply.status, body: text, requests };
  // client-go's Result.Error(): any status outside 200–206 is an error, its text from the reply.
  if (reply.status < 200 || reply.status > 206) {
    return { ...common, error: httpStatusError(reply), retriable: shouldRetry(reply.status, retryAfterSeconds(reply)) };
  }
  const decoded = decodeImageReviewReply(reply.body, text, String(reply.headers['content-type'] ?? ''), reply.status);
  return 'error' in decoded ? { ...common, error: decoded.error, retriable: false } : { ...common, status: decoded.status, retriable: false };
}

/**
 * `DefaultShouldRetry`: an InternalError (500 and any 5xx client-go has no other reason for), a
 * Timeout (504), TooManyRequests (429), or any answer naming a Retry-After.
 */
function shouldRetry(code: number, retryAfter: number | undefined): boolean {
  if (retryAfter !== undefined && retryAfter > 0) return true;
  return code === 429 || code === 504 || (code >= 500 && code !== 503);
}

function retryAfterSeconds(reply: HttpReply): number | undefined {
  const header = reply.headers['retry-after'];
  const text = Array.isArray(header) ? header[0] : header;
  return text !== undefined && /^\d+$/.test(text.trim()) ? Number(text) : undefined;
}

/** Go's dial error names the address it dialled: the server's own, not the loopback port the harness routes it to. */
function transportText(error: TransportError, logical: { host: string; port: number }): string {
  if (error.kind === 'refused' && isIP(logical.host) !== 0) {
    const host = isIP(logical.host) === 6 ? `[${logical.host}]` : logical.host;
    return `dial tcp ${host}:${logical.port}: connect: connection refused`;
  }
  return error.goText;
}
