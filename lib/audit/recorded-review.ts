import type { AdmissionRequest, AdmissionResponse, AdmissionReviewVersion } from '../kube/admission';

export const RECORDED_REVIEW_API_VERSION = 'admission-harness/v1alpha1';
export const RECORDED_REVIEW_KIND = 'RecordedReview';
export const RECORDED_ADMISSION_KIND = 'RecordedAdmission';

/** Where a review's object came from: the audit's request body, its response body, the URI (connect options), or nowhere (a DELETE). */
export type ObjectOrigin = 'requestObject' | 'responseObject' | 'requestURI' | 'none';

/** A review rebuilt from a kube-apiserver audit event. */
export interface AuditSource {
  from: 'audit';
  auditID: string;
  /** The stage of the event the review was built from. */
  stage: 'ResponseComplete' | 'ResponseStarted';
  requestURI: string;
  /** When the request reached the apiserver (the event's requestReceivedTimestamp). */
  timestamp?: string;
  /** Which part of the event `request.object` was taken from. */
  objectFrom: ObjectOrigin;
  /** Which part of the event `request.oldObject` was taken from, when it was recovered at all (`responseObject.items[0]`). */
  oldObjectFrom?: string;
}

/**
 * Where a recorded review came from when `record` received it from kube-apiserver (or from anything
 * calling like it).
 */
export interface RecordSource {
  from: 'record';
  /** When the request's head arrived, as an RFC 3339 time with milliseconds (UTC). */
  receivedAt: string;
  /**
   * The request target as received: path and query, e.g. `/validate?timeout=10s`. The query keeps
   * kube-apiserver's `?timeout=`, the time it gave the webhook, which a replay may want to reproduce.
   */
  path: string;
  /** The AdmissionReview version the request came in; the fixture's request reads the same in both. */
  reviewVersion: AdmissionReviewVersion;
  /** In upstream mode: the webhook the request was forwarded to (its URL as given, without credentials). */
  upstream?: string;
}

/**
 * A review `review --out` built from objects the user gave (e.g. `kubectl get -o yaml` output) or
 * generated from a seed: what kube-apiserver would send for that request, not a recording of one.
 */
export interface ObjectsSource {
  from: 'objects';
  /** The request as the command line named it: `pods CREATE`, `deployments/scale UPDATE`. */
  request: string;
  /** The files the object and the old object were read from; generated from `seed` where absent. */
  object?: string;
  oldObject?: string;
  seed: number;
}

/** Where a recorded review came from: an audit event, `record` receiving it, or `review` building it. */
export type RecordedSource = AuditSource | RecordSource | ObjectsSource;

/**
 * One recorded review, as a fixture file holds it (apiVersion admission-harness/v1alpha1, kind
 * RecordedReview): one call, the AdmissionRequest kube-apiserver sent (or would have sent) to one
 * webhook, that webhook's response when one was recorded, and what the source could not tell (`limits`).
 */
export interface RecordedReview {
  apiVersion: typeof RECORDED_REVIEW_API_VERSION;
  kind: typeof RECORDED_REVIEW_KIND;
  source: RecordedSource;
  /**
   * The webhook the response is from (`configuration/name`, or a name). Without it the request goes to
   * every webhook whose rules match, and each answer is compared with the one response.
   */
  webhook?: string;
  request: AdmissionRequest;
  response?: AdmissionResponse;
  limits: string[];
}

/** One webhook's answer within a recorded admission. */
export interface RecordedAnswer {
  /** `configuration/name`. */
  webhook: string;
  /** The mutating round it answered in: 1 for a reinvocation (reinvocationPolicy IfNeeded). */
  round: 0 | 1;
  response: AdmissionResponse;
}

/**
 * One recorded admission (kind RecordedAdmission): the client's request, as an AdmissionRequest, run
 * through the whole chain (built-in plugins, mutating webhooks with reinvocation, validating webhooks),
 * and the answer of every webhook it reached, in the order they were called. Without `answers` it is new.
 */
export interface RecordedAdmission {
  apiVersion: typeof RECORDED_REVIEW_API_VERSION;
  kind: typeof RECORDED_ADMISSION_KIND;
  source: RecordedSource;
  request: AdmissionRequest;
  answers?: RecordedAnswer[];
  limits: string[];
}

/** What can be written as a RecordedReview: a converted audit review (its harness Review aside) or a recorded one. */
export interface Recordable {
  source: RecordedSource;
  request: AdmissionRequest;
  response?: AdmissionResponse;
  limits: readonly string[];
  /** Write a RecordedAdmission (the request through the whole chain) instead of a RecordedReview (one call). */
  admission?: boolean;
}

/** The fixture document of `review`, members in the format's order. */
export function recordedReview(review: Recordable): RecordedReview | RecordedAdmission {
  if (review.admission)
    return {
      apiVersion: RECORDED_REVIEW_API_VERSION,
      kind: RECORDED_ADMISSION_KIND,
      source: review.source,
      request: review.request,
      limits: [...review.limits],
    };
  return {
    apiVersion: RECORDED_REVIEW_API_VERSION,
    kind: RECORDED_REVIEW_KIND,
    source: review.source,
    request: review.request,
    ...(review.response ? { response: review.response } : {}),
    limits: [...review.limits],
  };
}
