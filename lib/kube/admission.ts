/**
 * AdmissionReview types (admission.k8s.io v1 and v1beta1). No published package carries them, so they
 * are defined once here, field for field from k8s.io/api/admission/v1/types.go.
 */

/** Group/version/kind as the AdmissionRequest carries it (`kind`, `requestKind`). */
export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

/** Group/version/resource as the AdmissionRequest carries it (`resource`, `requestResource`). */
export interface GroupVersionResource {
  group: string;
  version: string;
  resource: string;
}

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

/** authentication.k8s.io/v1 UserInfo. */
export interface UserInfo {
  username?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

/** Any Kubernetes object as JSON; typed objects from `kubernetes-types` fit it. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: {
    name?: string;
    generateName?: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

export interface AdmissionRequest {
  uid: string;
  kind: GroupVersionKind;
  resource: GroupVersionResource;
  subResource?: string;
  requestKind?: GroupVersionKind;
  requestResource?: GroupVersionResource;
  requestSubResource?: string;
  name?: string;
  namespace?: string;
  operation: Operation;
  userInfo: UserInfo;
  object: KubeObject | null;
  oldObject: KubeObject | null;
  dryRun?: boolean;
  options: KubeObject | null;
}

/** meta/v1 Status, as webhooks return it in a denial and as the client receives errors. */
export interface Status {
  kind?: 'Status';
  apiVersion?: 'v1';
  metadata?: Record<string, unknown>;
  status?: string;
  message?: string;
  reason?: string;
  details?: {
    name?: string;
    group?: string;
    kind?: string;
    uid?: string;
    /** Go's StatusCause.Type, which JSON names `reason`. */
    causes?: { reason?: string; message?: string; field?: string }[];
    retryAfterSeconds?: number;
  };
  code?: number;
}

export interface AdmissionResponse {
  uid: string;
  allowed: boolean;
  status?: Status;
  /** base64 of a JSON Patch document. */
  patch?: string;
  patchType?: string;
  auditAnnotations?: Record<string, string>;
  warnings?: string[];
}

export type AdmissionReviewVersion = 'v1' | 'v1beta1';

export interface AdmissionReview {
  apiVersion: `admission.k8s.io/${AdmissionReviewVersion}`;
  kind: 'AdmissionReview';
  request?: AdmissionRequest;
  response?: AdmissionResponse;
}

/** One RFC 6902 operation. */
export interface JsonPatchOperation {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test' | (string & {});
  path: string;
  value?: unknown;
  from?: string;
}
