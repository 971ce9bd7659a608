import type { Status } from '../kube/admission';
import type { AdmissionAttributes } from '../kube/attributes';
import { admissionForbidden, badRequest } from '../kube/status';
import type { SeededRandom } from '../random';
import { backendUrl, postImageReview, type BackendContext, type BackendReply } from './backend';
import { AnswerCache } from './cache';
import type { ImagePolicySettings } from './config';
import { buildImageReview, cacheKey, encodeImageReview, ignoredBecause, type ImageReview } from './image-review';

/** `AuditKeyPrefix`: the plugin's audit annotations are `imagepolicywebhook.image-policy.k8s.io/<key>`. */
export const AUDIT_KEY_PREFIX = 'imagepolicywebhook.image-policy.k8s.io/';
/** Set when defaultAllow let a pod through a backend failure. */
export const FAILED_OPEN_ANNOTATION = `${AUDIT_KEY_PREFIX}failed-open`;

/** What the plugin made of one request. */
export interface ImageReviewOutcome {
  /** False when the plugin leaves the request alone (`ignored` says why): it then allows. */
  reviewed: boolean;
  ignored?: string;
  /** The ImageReview sent (or answered from the cache), its status the answer used. */
  review?: ImageReview;
  /** The body as sent, byte for byte. */
  body?: string;
  /** The URL as Go prints it, `?timeout=30s` included. */
  url: string;
  /** Whether the answer came from the cache (no request to the backend). */
  fromCache: boolean;
  /** HTTP requests the backend received for this review (retries included). */
  backendRequests: number;
  /** The waits between the retries, in milliseconds (retryBackoff × 1.5ⁿ, with up to 20% jitter). */
  backoffMs: number[];
  allowed: boolean;
  /** The backend failed and defaultAllow let the pod through. */
  failedOpen: boolean;
  /** The backend failure, as kube-apiserver prints it (whatever defaultAllow made of it). */
  error?: string;
  /** What the client receives when the plugin refuses. */
  status?: Status;
  /** The audit annotations the plugin adds (prefixed keys). */
  auditAnnotations: Record<string, string>;
  /** The last reply's HTTP status and body, when there was one. */
  httpStatus?: number;
  responseBody?: string;
}

/**
 * ImagePolicyWebhook's `Validate` (plugin/pkg/admission/imagepolicy admission.go): builds the
 * ImageReview, answers from the cache or asks the backend (retrying with backoff as the generic
 * webhook's `WithExponentialBackoff` does), and turns the answer into kube's refusal texts.
 */
export class ImagePolicyPlugin {
  readonly cache: AnswerCache;

  constructor(
    readonly settings: ImagePolicySettings,
    private readonly backend: BackendContext,
    private readonly random: SeededRandom,
  ) {
    this.cache = new AnswerCache(backend.clock);
  }

  async validate(attributes: AdmissionAttributes): Promise<ImageReviewOutcome> {
    const outcome: ImageReviewOutcome = {
      reviewed: false,
      url: backendUrl(this.backend.server),
      fromCache: false,
      backendRequests: 0,
      backoffMs: [],
      allowed: true,
      failedOpen: false,
      auditAnnotations: {},
    };
    const ignored = ignoredBecause(attributes);
    if (ignored) return { ...outcome, ignored };
    const pod = attributes.object;
    if (pod?.kind !== 'Pod')
      return { ...outcome, reviewed: true, allowed: false, status: badRequest('Resource was marked with kind Pod but was unable to be converted') };
    outcome.reviewed = true;
    const review = buildImageReview(pod, attributes.subResource, attributes.namespace);
    outcome.review = review;
    outcome.body = encodeImageReview(review);
    const refuse = (cause: string): ImageReviewOutcome => ({ ...outcome, allowed: false, status: admissionForbidden(attributes, cause) });

    const key = cacheKey(review);
    const cached = this.cache.get(key);
    if (cached) {
      outcome.fromCache = true;
      review.status = cached;
    } else {
      const reply = await this.withBackoff(outcome);
      outcome.httpStatus = reply.httpStatus;
      outcome.responseBody = reply.body;
      if (reply.error !== undefined || !reply.status) {
        outcome.error = reply.error;
        if (!this.settings.defaultAllow) return refuse(reply.error ?? '');
        // The plugin also sets alpha.image-policy.k8s.io/failed-open on the pod, but a recorded
        // kube-apiserver v1.36.2 stored the pod without it: only the audit annotation is kept.
        return { ...outcome, failedOpen: true, auditAnnotations: { [FAILED_OPEN_ANNOTATION]: 'true' } };
      }
      review.status = reply.status;
      this.cache.add(key, reply.status, reply.status.allowed ? this.settings.allowTtlMs : this.settings.denyTtlMs);
    }
    for (const [k, v] of Object.entries(review.status.auditAnnotations ?? {})) outcome.auditAnnotations[AUDIT_KEY_PREFIX + k] = v;
    if (!review.status.allowed) {
      return refuse(
        review.status.reason
          ? `image policy webhook backend denied one or more images: ${review.status.reason}`
          : 'one or more images rejected by webhook backend',
      );
    }
    return outcome;
  }

  /**
   * `WithExponentialBackoff` over `DefaultRetryBackoffWithInitialDelay(retryBackoff)`: at most 5
   * attempts, waiting retryBackoff, then ×1.5 each time, each wait lengthened by up to 20% (jitter,
   * from the harness's seed); only retriable errors are retried, and the last error is returned.
   */
  private async withBackoff(outcome: ImageReviewOutcome): Promise<BackendReply> {
    let duration = this.settings.retryBackoffMs;
    for (let steps = 5; ; steps--) {
      const reply = await postImageReview(outcome.body as string, this.backend);
      outcome.backendRequests += reply.requests;
      if (reply.error === undefined || !reply.retriable || steps === 1) return reply;
      const wait = duration + this.random.next() * 0.2 * duration;
      duration *= 1.5;
      outcome.backoffMs.push(wait);
      await this.backend.clock.sleep(wait);
    }
  }
}
