import { goQuote } from '../go/strconv';
import type { AdmissionResponse, AdmissionReviewVersion } from '../kube/admission';
import { splitApiVersion } from '../kube/api-version';
import type { WebhookType } from '../kube/webhook-config';

export interface DecodedReview {
  apiVersion?: unknown;
  kind?: unknown;
  response?: AdmissionResponse;
}

/**
 * kube-apiserver's `VerifyAdmissionResponse` (k8s.io/apiserver/pkg/admission/plugin/webhook/request/admissionreview.go): returns the first failure's text,
 * or undefined when the response is acceptable.
 */
export function verifyResponse(review: DecodedReview, sent: { uid: string; version: AdmissionReviewVersion; type: WebhookType }): string | undefined {
  const response = review.response;
  if (!response) return 'webhook response was absent';
  if (sent.version === 'v1beta1') return undefined;

  if (response.uid !== sent.uid) return `expected response.uid=${goQuote(sent.uid)}, got ${goQuote(response.uid ?? '')}`;
  const [group, version] = splitApiVersion(typeof review.apiVersion === 'string' ? review.apiVersion : '');
  const kind = typeof review.kind === 'string' ? review.kind : '';
  if (group !== 'admission.k8s.io' || version !== 'v1' || kind !== 'AdmissionReview') {
    return `expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got ${group}/${version}, Kind=${kind}`;
  }
  const hasPatch = typeof response.patch === 'string' && response.patch.length > 0;
  // patchType is a pointer in Go: JSON null and absence are both nil, "" is not.
  const hasPatchType = response.patchType !== undefined && response.patchType !== null;
  if (sent.type === 'mutating') {
    if (hasPatch && !hasPatchType) return 'webhook returned response.patch but not response.patchType';
    if (!hasPatch && hasPatchType) return 'webhook returned response.patchType but not response.patch';
    if (response.patchType === '') return 'webhook returned invalid response.patchType of ""';
  } else {
    if (hasPatch) return 'validating webhook may not return response.patch';
    if (hasPatchType) return 'validating webhook may not return response.patchType';
  }
  return undefined;
}
