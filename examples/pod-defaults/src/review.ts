/**
 * The few AdmissionReview (admission.k8s.io/v1 and v1beta1) types this webhook needs, and the
 * helpers that turn a decision into the reply kube-apiserver expects.
 */
import type { Pod } from 'kubernetes-types/core/v1';

export interface AdmissionRequest {
  uid: string;
  kind: { group: string; version: string; kind: string };
  subResource?: string;
  operation: 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';
  namespace?: string;
  object: unknown;
  oldObject: unknown;
  dryRun?: boolean;
}

export interface Status {
  code?: number;
  reason?: string;
  message?: string;
}

export interface AdmissionResponse {
  uid: string;
  allowed: boolean;
  status?: Status;
  /** base64 of a JSON Patch document. */
  patch?: string;
  patchType?: 'JSONPatch';
  warnings?: string[];
}

export interface AdmissionReview {
  apiVersion: string;
  kind: 'AdmissionReview';
  request?: AdmissionRequest;
  response?: AdmissionResponse;
}

/** One RFC 6902 operation. */
export interface PatchOperation {
  op: 'add' | 'replace' | 'remove';
  path: string;
  value?: unknown;
}

/** The review's apiVersion when it is one kube-apiserver sends; the reply must carry the same. */
const VERSIONS = ['admission.k8s.io/v1', 'admission.k8s.io/v1beta1'];

/** The request of a well-formed AdmissionReview body, or undefined. */
export function requestOf(body: unknown): AdmissionRequest | undefined {
  const review = body as Partial<AdmissionReview> | undefined;
  if (review?.kind !== 'AdmissionReview' || !VERSIONS.includes(review.apiVersion ?? '')) return undefined;
  const request = review.request;
  return request && typeof request.uid === 'string' ? request : undefined;
}

/** The request's object when it is a core/v1 Pod (not a subresource such as pods/binding). */
export function podOf(request: AdmissionRequest): Pod | undefined {
  const { kind, subResource, object } = request;
  if (kind.group !== '' || kind.kind !== 'Pod' || subResource) return undefined;
  if (typeof object !== 'object' || object === null || (object as Pod).kind !== 'Pod') return undefined;
  return object as Pod;
}

/** The AdmissionReview to send back for `request`, in the version the request came in. */
export function reply(received: AdmissionReview, response: Omit<AdmissionResponse, 'uid'>): AdmissionReview {
  return {
    apiVersion: received.apiVersion,
    kind: 'AdmissionReview',
    response: { uid: received.request?.uid ?? '', ...response },
  };
}

/** An allowed response carrying `patch`, or no patch at all when there is nothing to change. */
export function patched(patch: PatchOperation[]): Omit<AdmissionResponse, 'uid'> {
  if (patch.length === 0) return { allowed: true };
  return { allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(patch)).toString('base64') };
}
