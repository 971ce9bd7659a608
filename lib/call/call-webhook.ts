import type { AdmissionResponse, AdmissionReview, AdmissionReviewVersion, JsonPatchOperation, Status } from '../kube/admission';
import type { WebhookClientConfig, WebhookType } from '../kube/webhook-config';
import { goQuote } from '../go/strconv';
import type { AgentPool } from './agents';
import { CallingError } from './calling-error';
import { decodeReview } from './decode';
import { decodeJsonPatch } from '../patch';
import { ClientConfigError, resolveEndpoint, type Route } from './endpoint';
import { httpStatusError } from './http-status';
import { timeoutParameter } from './go-duration';
import { denialStatus } from './status';
import { postWithRetries } from './retries';
import { TransportError, type HttpReply } from './transport';
import { verifyResponse } from './verify';

/** What one call needs to know about the webhook: the fields of a (defaulted) configuration entry. */
export interface CallableWebhook {
  name: string;
  type: WebhookType;
  configuration?: string;
  clientConfig: WebhookClientConfig;
  timeoutSeconds: number;
  admissionReviewVersions: string[];
}

export interface CallContext {
  /** PEM CA bundle to verify the serving certificate with (the webhook's caBundle). */
  ca: string;
  agents: AgentPool;
  route: Route;
  clientCertificate?: { key: string; cert: string };
  bearerToken?: string;
  /** Compresses real deadlines (0.01 turns 10 s into 100 ms); `?timeout=` still shows kube's value. */
  timeScale: number;
  /** Time left on the API request itself, in (unscaled) ms, if the client gave a timeout. */
  requestDeadlineMs?: number;
}

/** The raw result of one webhook call, before failurePolicy decides what it means for the request. */
export interface CallOutcome {
  webhook: string;
  configuration?: string;
  type: WebhookType;
  /** The AdmissionReview as sent. */
  review: AdmissionReview;
  /** The URL as kube-apiserver prints it, with `?timeout=`. */
  url: string;
  httpStatus?: number;
  /** The decoded response member, when the reply decoded. */
  response?: AdmissionResponse;
  /** The reply body as received (decompressed), for reports. */
  body?: string;
  /** True only when the webhook answered validly with `allowed: true`. */
  allowed: boolean;
  /** The Status a client receives for this webhook's denial (`allowed: false`). */
  denial?: Status;
  /** A failure subject to failurePolicy, with kube-apiserver's text. */
  error?: CallingError;
  /** The decoded JSON Patch of an allowed mutating response. */
  patch?: JsonPatchOperation[];
  warnings: string[];
  auditAnnotations: Record<string, string>;
  durationMs: number;
}

/** A request body as sent, with its length in UTF-8 bytes when the caller already knows it. */
export interface RequestBody {
  text: string;
  bytes?: number;
}

const KNOWN_VERSIONS: readonly AdmissionReviewVersion[] = ['v1', 'v1beta1'];

/**
 * An outcome before anything happened, filled in as the call proceeds: every call's outcome has the
 * same shape, which keeps the call path free of object spreads (each costs microseconds there, a raw
 * HTTPS POST costs ~100).
 */
export function emptyOutcome(webhook: CallableWebhook, review: AdmissionReview): CallOutcome {
  return {
    webhook: webhook.name,
    configuration: webhook.configuration,
    type: webhook.type,
    review,
    url: '',
    httpStatus: undefined,
    response: undefined,
    body: undefined,
    allowed: false,
    denial: undefined,
    error: undefined,
    patch: undefined,
    warnings: [],
    auditAnnotations: {},
    durationMs: 0,
  };
}

/** The first version in admissionReviewVersions that kube-apiserver knows (k8s.io/apiserver/pkg/admission/plugin/webhook/request/admissionreview.go `CreateAdmissionObjects`). */
export function negotiateVersion(versions: readonly string[]): AdmissionReviewVersion | undefined {
  return versions.find((v): v is AdmissionReviewVersion => (KNOWN_VERSIONS as readonly string[]).includes(v));
}

/**
 * Calls one webhook with `review` (sent as `body` when given, its JSON otherwise) as kube-apiserver would: same URL, headers, `?timeout=`, deadline,
 * TLS verification, decoding and response checks. Never throws for webhook misbehaviour: failures
 * come back as `outcome.error` with kube-apiserver's text.
 */
export async function callWebhook(webhook: CallableWebhook, review: AdmissionReview, context: CallContext, body?: RequestBody): Promise<CallOutcome> {
  const started = performance.now();
  const sentVersion = review.apiVersion === 'admission.k8s.io/v1beta1' ? 'v1beta1' : 'v1';
  const budgetMs = Math.min(webhook.timeoutSeconds * 1000, context.requestDeadlineMs ?? Infinity);
  const timeoutParam = timeoutParameter(budgetMs);
  const outcome = emptyOutcome(webhook, review);
  const finish = (allowed: boolean): CallOutcome => {
    outcome.allowed = allowed;
    outcome.durationMs = performance.now() - started;
    return outcome;
  };
  const fail = (reason: string, code: number, hint: string, transport?: TransportError['kind'], certificate?: TransportError['certificate']): CallOutcome => {
    outcome.error = new CallingError(webhook.name, reason, code, hint, transport, certificate);
    return finish(false);
  };

  let endpoint;
  try {
    // The route is applied per call: a stub's address changes with its behavior.
    const logical = resolveEndpoint(webhook.clientConfig);
    endpoint = { ...logical, address: context.route(logical.address) };
  } catch (error) {
    if (error instanceof ClientConfigError) {
      return fail(`could not get REST client: ${error.message}`, 500, 'give clientConfig either a url or a service');
    }
    throw error;
  }
  outcome.url = `${endpoint.url}?timeout=${timeoutParam}`;

  let reply: HttpReply;
  const payload = body ?? { text: JSON.stringify(review) };
  const deadline = started + budgetMs * context.timeScale;
  try {
    reply = await postWithRetries(
      endpoint,
      payload.text,
      {
        ca: context.ca,
        agents: context.agents,
        deadlineMs: 0,
        timeoutParam,
        clientCertificate: context.clientCertificate,
        bearerToken: context.bearerToken,
        contentLength: payload.bytes,
      },
      deadline,
      context.timeScale,
    );
  } catch (error) {
    if (error instanceof TransportError) {
      return fail(`failed to call webhook: Post ${goQuote(outcome.url)}: ${error.goText}`, 503, error.hint, error.kind, error.certificate);
    }
    throw error;
  }
  outcome.httpStatus = reply.status;
  outcome.body = reply.body.toString('utf8');

  // client-go treats only 200–206 as success.
  if (reply.status < 200 || reply.status > 206) {
    const text = httpStatusError(reply);
    return fail(
      `failed to call webhook: ${text}`,
      reply.status,
      `the webhook answered HTTP ${reply.status}; admission webhooks answer 200 with an AdmissionReview, denials included`,
    );
  }
  const decoded = decodeReview(reply.body, outcome.body, sentVersion, String(reply.headers['content-type'] ?? ''));
  if (!decoded.ok) {
    return fail(
      `failed to call webhook: ${decoded.text}`,
      503,
      `answer with a JSON AdmissionReview, apiVersion admission.k8s.io/${sentVersion}, kind AdmissionReview`,
    );
  }
  const response = decoded.review.response;
  outcome.response = response;
  const uid = review.request?.uid ?? '';
  const invalid = verifyResponse(decoded.review, { uid, version: sentVersion, type: webhook.type });
  if (invalid) {
    return fail(`received invalid webhook response: ${invalid}`, 503, responseHint(invalid));
  }
  const answer = response as AdmissionResponse;
  outcome.warnings = answer.warnings ?? [];
  outcome.auditAnnotations = answer.auditAnnotations ?? {};
  if (!answer.allowed) {
    outcome.denial = denialStatus(webhook.name, answer.status);
    return finish(false);
  }
  if (webhook.type === 'mutating' && answer.patch) {
    const decoded = decodeJsonPatch(Buffer.from(answer.patch, 'base64'));
    if (!decoded.ok) {
      return fail(
        `received undecodable patch in webhook response: ${decoded.error}`,
        503,
        'response.patch must be base64 of a JSON array of RFC 6902 operations',
      );
    }
    // Operations are only checked when applied, as in kube-apiserver: a malformed one fails there.
    const patch = decoded.ops as unknown as JsonPatchOperation[];
    if (sentVersion === 'v1' && patch.length > 0 && answer.patchType !== 'JSONPatch') {
      return fail(
        `unsupported patch type ${goQuote(answer.patchType ?? '')}`,
        denialStatus(webhook.name, answer.status).code ?? 400,
        'the only patchType kube-apiserver accepts is "JSONPatch"',
      );
    }
    outcome.patch = patch;
  }
  return finish(true);
}

function responseHint(invalid: string): string {
  if (invalid.startsWith('expected response.uid')) return 'copy request.uid into response.uid';
  if (invalid.startsWith('expected webhook response of'))
    return 'set apiVersion and kind of the reply to those of the request (admission.k8s.io/v1, AdmissionReview)';
  if (invalid === 'webhook response was absent') return 'put the answer in a `response` member';
  if (invalid.startsWith('validating')) return 'validating webhooks may not patch; move the mutation to a MutatingWebhookConfiguration';
  return 'send response.patch (base64 JSON Patch) together with response.patchType "JSONPatch", or neither';
}
