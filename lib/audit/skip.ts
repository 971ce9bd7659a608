/**
 * Why an audited request gave no review. Most never reached an admission webhook; the last three
 * (`no-request-object`, `patch-without-result`, `deletecollection-without-items`) may have, but the
 * audit does not hold the object a webhook was sent.
 */
export type SkipReason =
  /** Only RequestReceived was logged (omitStages, or a log cut short): nothing says what was sent. */
  | 'no-response-stage'
  /** The handler panicked; whether admission ran is unknown. */
  | 'panicked'
  /** /healthz, /version, /openapi…: only resource requests are admitted. */
  | 'non-resource-request'
  /** Logged at None or Metadata: no request body, so no object. */
  | 'level-below-request'
  /** get, list, watch (and any other read): reads never reach admission (endpoints/handlers get.go, watch.go). */
  | 'read-only-verb'
  /** A verb no handler admits (e.g. the legacy `proxy` verb, or one the harness does not know). */
  | 'verb-not-admitted'
  /** The catalog serves no such group/version/resource (a custom resource whose CRD was not registered?). */
  | 'resource-not-in-catalog'
  /** The resource has no such subresource in the catalog. */
  | 'subresource-not-in-catalog'
  /** The resource or subresource is never admitted for this operation (pods/log, componentstatuses, an UPDATE of bindings…). */
  | 'operation-not-admitted'
  /** Admission configuration kinds (and the review resources, as the harness models them) are never sent to webhooks. */
  | 'exempt-from-webhooks'
  /** 401: authentication failed, the request went no further. */
  | 'unauthenticated'
  /** The authorizer refused the request (annotation authorization.k8s.io/decision: forbid): admission never ran. */
  | 'forbidden-by-authorization'
  /** 404 of an update, patch or delete (the registry reads the object before admission) or of a create (its namespace is missing). */
  | 'not-found'
  /** 405: the resource does not serve the verb (a deletecollection of namespaces). */
  | 'method-not-allowed'
  /** A CONNECT with dryRun is refused with 400 before admission (endpoints/handlers/rest.go). */
  | 'connect-dry-run'
  /** A create or update without requestObject: the body was not decoded (a 4xx before admission) or not logged. */
  | 'no-request-object'
  /** A patch whose result is not in the audit (Request level, or a failed request): the patched object cannot be rebuilt. */
  | 'patch-without-result'
  /** A deletecollection without the deleted items in responseObject: there is one admission call per item. */
  | 'deletecollection-without-items';

/** One audited request that gave no review. */
export interface SkippedRequest {
  auditID: string;
  verb: string;
  requestURI: string;
  reason: SkipReason;
  /** The specifics: which resource, which status code… */
  detail: string;
}
