import type { AgentPool } from '../call/agents';
import { ClientConfigError, resolveEndpoint, type Route } from '../call/endpoint';
import { timeoutParameter } from '../call/go-duration';
import { httpStatusError } from '../call/http-status';
import { postWithRetries } from '../call/retries';
import { TransportError, type HttpReply } from '../call/transport';
import { goQuote } from '../go/strconv';
import type { KubeObject } from '../kube/admission';
import type { WebhookClientConfig } from '../kube/webhook-config';
import { internalError, unknownError, type ApiStatus } from '../kube/status';
import { decodeConversionReview, type DecodedConversionReview } from './decode';
import { conversionReview, conversionReviewBody, negotiateReviewVersion, type ConversionReview, type ConversionReviewVersion } from './review';
import { gvkText, verifyConversion, type ConversionCheck } from './verify';

/**
 * kube-apiserver's conversion webhook client has a fixed 30 s timeout (the webhook client manager's
 * default), sent as `?timeout=30s`: a CRD cannot configure it.
 */
export const CONVERSION_TIMEOUT_SECONDS = 30;

/** A CRD's conversion webhook, as webhook_converter.go's `webhookClientConfigForCRD` reads it. */
export interface ConversionWebhook {
  /** metadata.name of the CustomResourceDefinition. */
  crd: string;
  clientConfig: WebhookClientConfig;
  conversionReviewVersions: readonly string[];
}

export interface ConversionCallContext {
  /** PEM CA bundle the serving certificate must chain to. */
  ca: string;
  agents: AgentPool;
  route: Route;
  /** Real time per configured second: 0.001 turns the 30 s deadline into 30 ms; `?timeout=` still says 30s. */
  timeScale: number;
}

/** A conversion that failed, with kube-apiserver's text and what a client sees. */
export class ConversionError extends Error {
  override readonly name = 'ConversionError';
  /** What a GET, LIST or update answers when this conversion fails: a 500 without a reason, the text as is. */
  readonly status: ApiStatus;
  /** What a create answers: the text wrapped twice as an internal error (the create path wraps it on the way out). */
  readonly createStatus: ApiStatus;

  constructor(
    message: string,
    /** Which check failed. */
    readonly check: ConversionCheck,
    /** The harness's advice on what to fix. */
    readonly hint: string,
  ) {
    super(message);
    this.status = unknownError(message);
    this.createStatus = internalError(`Internal error occurred: ${message}`);
  }
}

/** One object's conversion: the review sent, the answer, and the object kube-apiserver keeps or the error. */
export interface ConversionOutcome {
  crd: string;
  /** The object as sent. */
  object: KubeObject;
  desiredAPIVersion: string;
  /** The ConversionReview sent, and its bytes. */
  review?: ConversionReview;
  body?: string;
  /** The URL as kube-apiserver prints it, with `?timeout=30s`. */
  url: string;
  httpStatus?: number;
  /** The reply body as received. */
  reply?: string;
  /** For a failure on the connection: its kind, and for a refused certificate, why. */
  transport?: TransportError['kind'];
  certificate?: TransportError['certificate'];
  response?: DecodedConversionReview['response'];
  /** The converted object, metadata restored from the original but for labels and annotations. */
  converted?: KubeObject;
  error?: ConversionError;
  durationMs: number;
}

const HINTS: Readonly<Record<ConversionCheck, string>> = {
  'review-version': 'list "v1" in spec.conversion.webhook.conversionReviewVersions',
  'client-config': 'give spec.conversion.webhook.clientConfig a valid https url, or a service',
  transport: 'the webhook must answer over HTTPS, with a certificate of the caBundle, within 30 s',
  'http-status': 'answer 200 with a ConversionReview; report a failed conversion in response.result (status Failure, message)',
  decode: 'answer with a JSON ConversionReview of the apiVersion sent (apiextensions.k8s.io/v1)',
  'review-kind': 'set apiVersion apiextensions.k8s.io/v1 and kind ConversionReview on the answer',
  'response-missing': 'put the answer in a `response` member',
  uid: 'copy request.uid into response.uid',
  result: 'a successful conversion answers response.result.status "Success"',
  count: 'return exactly one converted object per object in request.objects, in order',
  'object-decode': 'each converted object needs apiVersion and kind',
  'api-version': "set each converted object's apiVersion to request.desiredAPIVersion",
  kind: "keep each object's kind",
  identity: 'keep metadata.name, namespace and uid as received; only labels and annotations may change',
  metadata: 'return metadata as an object; labels and annotations must be maps of valid strings',
};

/** One ConversionReview sent and its answer decoded: what both a single object's and a list's conversion start with. */
export interface ReviewExchange {
  url: string;
  review?: ConversionReview;
  body?: string;
  httpStatus?: number;
  reply?: string;
  /** For a failure on the connection: its kind, and for a refused certificate, why. */
  transport?: TransportError['kind'];
  certificate?: TransportError['certificate'];
  version?: ConversionReviewVersion;
  decoded?: DecodedConversionReview;
  /** The failure before the answer's own checks, with kube's text. */
  failure?: { check: ConversionCheck; message: string };
}

/**
 * POSTs the ConversionReview of `objects` as kube-apiserver does (webhook_converter.go `Convert`) over
 * lib/call's transport — same headers, TLS verification, deadline and retry rule as admission calls —
 * and decodes the answer; `prefix` names the object or list in kube's texts. Never throws for webhook misbehaviour.
 */
export async function exchangeReview(
  webhook: ConversionWebhook,
  objects: KubeObject | readonly KubeObject[],
  desiredAPIVersion: string,
  uid: string,
  context: ConversionCallContext,
  prefix: string,
): Promise<ReviewExchange> {
  const started = performance.now();
  const exchange: ReviewExchange = { url: '' };
  const fail = (check: ConversionCheck, message: string): ReviewExchange => ({ ...exchange, failure: { check, message } });
  const version = negotiateReviewVersion(webhook.conversionReviewVersions);
  if (!version) return fail('review-version', 'no supported conversion review versions');
  exchange.version = version;
  let endpoint;
  try {
    const logical = resolveEndpoint(webhook.clientConfig);
    endpoint = { ...logical, address: context.route(logical.address) };
  } catch (error) {
    if (error instanceof ClientConfigError) return fail('client-config', `${prefix} failed: ${error.message}`);
    throw error;
  }
  const timeoutParam = timeoutParameter(CONVERSION_TIMEOUT_SECONDS * 1000);
  exchange.url = `${endpoint.url}?timeout=${timeoutParam}`;
  exchange.review = conversionReview(version, uid, desiredAPIVersion, objects);
  exchange.body = conversionReviewBody(exchange.review);
  let reply: HttpReply;
  try {
    const deadline = started + CONVERSION_TIMEOUT_SECONDS * 1000 * context.timeScale;
    reply = await postWithRetries(
      endpoint,
      exchange.body,
      { ca: context.ca, agents: context.agents, deadlineMs: 0, timeoutParam },
      deadline,
      context.timeScale,
    );
  } catch (error) {
    if (!(error instanceof TransportError)) throw error;
    exchange.transport = error.kind;
    if (error.certificate) exchange.certificate = error.certificate;
    return fail('transport', `${prefix} failed: Post ${goQuote(exchange.url)}: ${error.goText}`);
  }
  exchange.httpStatus = reply.status;
  exchange.reply = reply.body.toString('utf8');
  if (reply.status < 200 || reply.status > 206) return fail('http-status', `${prefix} failed: ${httpStatusError(reply)}`);
  const decoded = decodeConversionReview(reply.body, version, String(reply.headers['content-type'] ?? ''));
  if (!decoded.ok) return fail('decode', `${prefix} failed: ${decoded.text}`);
  exchange.decoded = decoded.review;
  return exchange;
}

/** A ConversionError for a failed check, with the harness's hint. */
export function conversionError(check: ConversionCheck, message: string): ConversionError {
  return new ConversionError(message, check, HINTS[check]);
}

/**
 * Sends one object's ConversionReview as kube-apiserver does and verifies the answer with kube's texts
 * (webhook_converter.go `Convert` for a single object). Never throws for webhook misbehaviour.
 */
export async function convertObject(
  webhook: ConversionWebhook,
  object: KubeObject,
  desiredAPIVersion: string,
  uid: string,
  context: ConversionCallContext,
): Promise<ConversionOutcome> {
  const started = performance.now();
  const exchange = await exchangeReview(webhook, object, desiredAPIVersion, uid, context, `conversion webhook for ${gvkText(object)}`);
  const { decoded, failure, version } = exchange;
  const outcome: ConversionOutcome = { crd: webhook.crd, object, desiredAPIVersion, url: exchange.url, durationMs: 0 };
  for (const key of ['review', 'body', 'httpStatus', 'reply', 'transport', 'certificate'] as const) {
    if (exchange[key] !== undefined) Object.assign(outcome, { [key]: exchange[key] });
  }
  if (decoded) outcome.response = decoded.response;
  const verified = failure ?? (decoded && version ? verifyConversion(decoded, { uid, version, object, desiredAPIVersion }) : undefined);
  if (verified && 'message' in verified) outcome.error = conversionError(verified.check, verified.message);
  else if (verified?.ok) outcome.converted = verified.object;
  outcome.durationMs = performance.now() - started;
  return outcome;
}
