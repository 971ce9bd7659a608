import type { AdmissionRequest, AdmissionReview, AdmissionReviewVersion } from '../kube/admission';
import { isRecord } from '../kube/json';

/** An AdmissionReview as received: its version and its request, parsed but otherwise untouched. */
export interface ReceivedReview {
  version: AdmissionReviewVersion;
  request: AdmissionRequest;
}

const VERSIONS: Record<string, AdmissionReviewVersion> = {
  'admission.k8s.io/v1': 'v1',
  'admission.k8s.io/v1beta1': 'v1beta1',
};

/**
 * The AdmissionReview in `body`, or why it is not one. Only what a fixture needs is checked: the
 * version and kind (to answer in the same version), a string uid (to echo), and the resource and
 * operation its file is named after. Anything else is taken as sent: the point is to see what
 * kube-apiserver really sends, not to hold it to the harness's idea of it.
 */
export function parseReview(body: Buffer): { ok: true; review: ReceivedReview } | { ok: false; reason: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch (error) {
    return { ok: false, reason: `the body is not JSON: ${(error as Error).message}` };
  }
  if (!isRecord(parsed)) return { ok: false, reason: 'the body is not a JSON object' };
  const version = typeof parsed.apiVersion === 'string' ? VERSIONS[parsed.apiVersion] : undefined;
  if (!version || parsed.kind !== 'AdmissionReview') {
    return {
      ok: false,
      reason: `expected apiVersion admission.k8s.io/v1 or v1beta1 and kind AdmissionReview, got ${JSON.stringify(parsed.apiVersion)} ${JSON.stringify(parsed.kind)}`,
    };
  }
  const request = parsed.request;
  if (!isRecord(request)) return { ok: false, reason: 'the AdmissionReview has no request' };
  if (typeof request.uid !== 'string') return { ok: false, reason: 'request.uid is not a string' };
  if (typeof request.operation !== 'string' || request.operation === '') return { ok: false, reason: 'request.operation is not a string' };
  if (!isRecord(request.resource) || typeof request.resource.resource !== 'string' || request.resource.resource === '') {
    return { ok: false, reason: 'request.resource.resource is not a string' };
  }
  return { ok: true, review: { version, request: request as unknown as AdmissionRequest } };
}

/** The recorder's answer: allowed, no patch, the uid echoed, in the version it was asked in. */
export function allowedAnswer(review: ReceivedReview): AdmissionReview {
  return { apiVersion: `admission.k8s.io/${review.version}`, kind: 'AdmissionReview', response: { uid: review.request.uid, allowed: true } };
}
