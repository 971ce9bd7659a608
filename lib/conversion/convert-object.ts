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
import { conversionReview, conversionReviewBody, negotiateReviewVersion, type ConversionReview } from './review';
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

/**
 * Sends one object's ConversionReview as kube-apiserver does (webhook_converter.go `Convert`) over lib/call's
 * transport — same headers, TLS verification, deadline and retry rule as admission calls — and verifies the
 * answer with kube's texts. Never throws for webhook misbehaviour.
 */
export async function convertObject(
  webhook: ConversionWebhook,
  object: KubeObject,
  desiredAPIVersion: string,
  uid: string,
  context: ConversionCallContext,
): Promise<ConversionOutcome> {
  const started = performance.now();
  const outcome: ConversionOutcome = { crd: webhook.crd, object, desiredAPIVersion, url: '', durationMs: 0 };
  const finish = (): ConversionOutcome => {
    outcome.durationMs = performance.now() - started;
    return outcome;
  };
  const fail = (check: ConversionCheck, message: string): ConversionOutcome => {
    outcome.error = new ConversionError(message, check, HINTS[check]);
    return finish();
  };
  const prefix = `conversion webhook for ${gvkText(object)}`;
  const version = negotiateReviewVersion(webhook.conversionReviewVersions);
  if (!version) return fail('review-version', 'no supported conversion review versions');
  let endpoint;
  try {
    const logical = resolveEndpoint(webhook.clientConfig);
    endpoint = { ...logical, address: context.route(logical.address) };
  } catch (error) {
    if (error instanceof ClientConfigError) return fail('client-config', `${prefix} failed: ${error.message}`);
    throw error;
  }
  const timeoutParam = timeoutParameter(CONVERSION_TIMEOUT_SECONDS * 1000);
  outcome.url = `${endpoint.url}?timeout=${timeoutParam}`;
  outcome.review = conversionReview(version, uid, desiredAPIVersion, object);
  outcome.body = conversionReviewBody(outcome.review);
  let reply: HttpReply;
  try {
    const deadline = started + CONVERSION_TIMEOUT_SECONDS * 1000 * context.timeScale;
    reply = await postWithRetries(endpoint, outcome.body, { ca: context.ca, agents: context.agents, deadlineMs: 0, timeoutParam }, deadline, context.timeScale);
  } catch (error) {
    if (error instanceof TransportError) return fail('transport', `${prefix} failed: Post ${goQuote(outcome.url)}: ${error.goText}`);
    throw error;
  }
  outcome.httpStatus = reply.status;
  outcome.reply = reply.body.toString('utf8');
  if (reply.status < 200 || reply.status > 206) return fail('http-status', `${prefix} failed: ${httpStatusError(reply)}`);
  const decoded = decodeConversionReview(reply.body, version, String(reply.headers['content-type'] ?? ''));
  if (!decoded.ok) return fail('decode', `${prefix} failed: ${decoded.text}`);
  outcome.response = decoded.review.response;
  const verified = verifyConversion(decoded.review, { uid, version, object, desiredAPIVersion });
  if (!verified.ok) return fail(verified.check, verified.message);
  outcome.converted = verified.object;
  return finish();
}
