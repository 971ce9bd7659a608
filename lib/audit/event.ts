/**
 * kube-apiserver's audit events (audit.k8s.io/v1), field for field from
 * staging/src/k8s.io/apiserver/pkg/apis/audit/v1/types.go: what its log backend writes one JSON line
 * per event of, and its webhook backend sends as an EventList.
 */

/** How much of a request was logged: Request adds requestObject, RequestResponse responseObject too. */
export type AuditLevel = 'None' | 'Metadata' | 'Request' | 'RequestResponse';

/**
 * When the event was written. ResponseStarted exists only for long-running requests (watch, exec,
 * proxy…); ResponseComplete is written once the response is done; Panic when the handler panicked.
 */
export type AuditStage = 'RequestReceived' | 'ResponseStarted' | 'ResponseComplete' | 'Panic';

/** authentication.k8s.io/v1 UserInfo, as the event's `user` and `impersonatedUser` hold it. */
export interface AuditUserInfo {
  username?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

/** The event's objectRef: what the request addressed, filled from the request's URL (RequestInfo) and its object. */
export interface AuditObjectReference {
  resource?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  /** "" (or absent) for the core group. */
  apiGroup?: string;
  apiVersion?: string;
  resourceVersion?: string;
  subresource?: string;
}

/** meta/v1 Status, as responseStatus carries it (only code and status for most successes). */
export interface AuditResponseStatus {
  metadata?: Record<string, unknown>;
  status?: string;
  message?: string;
  reason?: string;
  details?: Record<string, unknown>;
  code?: number;
}

/** One audit.k8s.io/v1 Event. */
export interface AuditEvent {
  kind: 'Event';
  apiVersion: 'audit.k8s.io/v1';
  level: AuditLevel;
  auditID: string;
  stage: AuditStage;
  /** The URI as the client sent it, query included (where dryRun, fieldManager and connect options travel). */
  requestURI: string;
  /** The Kubernetes verb (get, list, watch, create, update, patch, delete, deletecollection…); the lower-cased HTTP method of a non-resource request. */
  verb: string;
  /** Who authenticated. */
  user: AuditUserInfo;
  /** Who the request acted as, when the authenticated user impersonated someone: the user admission sees. */
  impersonatedUser?: AuditUserInfo;
  sourceIPs?: string[];
  userAgent?: string;
  /** Absent for non-resource requests (/healthz, /version…) and lists across namespaces of unnamed objects. */
  objectRef?: AuditObjectReference;
  responseStatus?: AuditResponseStatus;
  /**
   * The decoded request body, re-encoded as JSON (Request level and above): the object of a create or
   * update, the DeleteOptions of a delete, the patch document itself of a patch (an array for a JSON patch).
   */
  requestObject?: unknown;
  /** The response body (RequestResponse level): the stored object, a list, or a Status. */
  responseObject?: unknown;
  requestReceivedTimestamp?: string;
  stageTimestamp?: string;
  /** Set by authentication, authorization and admission, e.g. `authorization.k8s.io/decision`. */
  annotations?: Record<string, string>;
}

/** audit.k8s.io/v1 EventList: what the webhook backend sends, and what a saved batch looks like. */
export interface AuditEventList {
  kind: 'EventList';
  apiVersion: 'audit.k8s.io/v1';
  metadata?: Record<string, unknown>;
  items: AuditEvent[];
}
