import type { AdmissionReviewVersion } from '../kube/admission';

/**
 * Where a recorded review came from when `record` received it from kube-apiserver (or from anything
 * calling like it): one of lib/audit/recorded-review.ts's `RecordedSource`s.
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
