/**
 * The meta/v1 Status bodies kube-apiserver answers failed (and some successful) requests with, built as
 * apimachinery's `pkg/api/errors` constructors build them — for the admission chain's rejections and the
 * mock API's answers alike. Go omits empty detail fields (`omitempty`), and a
 * cause's type is serialized as `reason`, so these are typed here as they go on the wire.
 */
import { goAggregate } from '../go/aggregate';
import { goQuote } from '../go/strconv';
import type { Status } from './admission';

/** One metav1.StatusCause as serialized. */
export type StatusCause = NonNullable<NonNullable<Status['details']>['causes']>[number];

/** A meta/v1 Status as kube-apiserver serializes it: the fields these builders always set. */
export interface ApiStatus extends Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Success' | 'Failure';
  code: number;
}

/** The group and plural resource an error names: `configmaps`, or `deployments.apps`. */
export interface GroupResource {
  group: string;
  resource: string;
}

/** apimachinery's field.ErrorType, as a StatusCause's `reason` carries it. */
export type FieldErrorType =
  | 'FieldValueNotFound'
  | 'FieldValueRequired'
  | 'FieldValueDuplicate'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'InternalError'
  | 'FieldValueTypeInvalid';

/** A field.Error: `metadata.name: Required value: name or generateName is required`. */
export interface FieldError {
  type: FieldErrorType;
  field: string;
  /** The part after the field: `Invalid value: "x": must be …`. */
  body: string;
}

/** An error a REST operation answers with instead of a result. */
export class ApiError extends Error {
  constructor(readonly status: ApiStatus) {
    super(status.message);
  }
}

type Details = NonNullable<ApiStatus['details']>;

function withoutEmpty(details: Details): Details {
  return Object.fromEntries(Object.entries(details).filter(([, value]) => value !== '' && value !== undefined && value !== 0)) as Details;
}

function failure(code: number, reason: string, message: string, details?: Details): ApiStatus {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, ...(details ? { details: withoutEmpty(details) } : {}), code };
}

/** `schema.GroupResource.String()`. */
function qualified(resource: GroupResource): string {
  return resource.group ? `${resource.resource}.${resource.group}` : resource.resource;
}

/** `NewNotFound`. */
export function notFound(resource: GroupResource, name: string): ApiStatus {
  return failure(404, 'NotFound', `${qualified(resource)} ${goQuote(name)} not found`, { name, group: resource.group, kind: resource.resource });
}

/** `NewAlreadyExists`. */
export function alreadyExists(resource: GroupResource, name: string): ApiStatus {
  return failure(409, 'AlreadyExists', `${qualified(resource)} ${goQuote(name)} already exists`, { name, group: resource.group, kind: resource.resource });
}

/** `NewConflict` with storage's OptimisticLockErrorMsg: a write carried a stale resourceVersion. */
export function conflict(
  resource: GroupResource,
  name: string,
  cause = 'the object has been modified; please apply your changes to the latest version and try again',
): ApiStatus {
  const message = `Operation cannot be fulfilled on ${qualified(resource)} ${goQuote(name)}: ${cause}`;
  return failure(409, 'Conflict', message, { name, group: resource.group, kind: resource.resource });
}

/** `NewInvalid(groupKind, name, errs)`: 422 with one cause per field error. */
export function invalid(kind: { group: string; kind: string }, name: string, errors: readonly FieldError[]): ApiStatus {
  const groupKind = kind.group ? `${kind.kind}.${kind.group}` : kind.kind;
  return failure(422, 'Invalid', `${groupKind} ${goQuote(name)} is invalid: ${goAggregate(errors.map((e) => `${e.field}: ${e.body}`))}`, {
    name,
    group: kind.group,
    kind: kind.kind,
    causes: errors.map((e) => ({ reason: e.type, message: e.body, field: e.field })),
  });
}

/** `NewForbidden(groupResource, name, err)`. */
export function forbidden(resource: GroupResource, name: string, cause: string): ApiStatus {
  const subject = name ? `${qualified(resource)} ${goQuote(name)}` : qualified(resource);
  return failure(403, 'Forbidden', `${subject} is forbidden: ${cause}`, { name, group: resource.group, kind: resource.resource });
}

/**
 * admission `NewForbidden(attributes, err)`: the resource of the request and its name — the request's,
 * else the object's name or generateName (not generated yet), else `Unknown`.
 */
export function admissionForbidden(
  attributes: { name: string; resource: GroupResource; object: { metadata?: { name?: string; generateName?: string } } | null },
  cause: string,
): ApiStatus {
  const metadata = attributes.object?.metadata;
  const name = attributes.name || metadata?.name || metadata?.generateName || 'Unknown';
  return forbidden({ group: attributes.resource.group, resource: attributes.resource.resource }, name, cause);
}

/** `NewBadRequest(message)`. */
export function badRequest(message: string): ApiStatus {
  return failure(400, 'BadRequest', message);
}

/** The authentication filter's answer to a token it does not know. */
export function unauthorized(): ApiStatus {
  return failure(401, 'Unauthorized', 'Unauthorized');
}

/** What go-restful's routing answers for a path no API serves. */
export function pathNotFound(): ApiStatus {
  return failure(404, 'NotFound', 'the server could not find the requested resource', {});
}

/** What go-restful's routing answers for a method the path does not serve (e.g. deletecollection of namespaces). */
export function methodNotAllowed(): ApiStatus {
  return failure(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {});
}

/** The patch handler's answer to a Content-Type it cannot apply (negotiation's errUnsupportedMediaType). */
export function unsupportedMediaType(accepted: readonly string[]): ApiStatus {
  return failure(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`);
}

/**
 * `NewGenericServerResponse(422, …)`, which the patch handler answers a JSON Patch that does not apply with:
 * json-patch's own error text does not reach the client.
 */
export function patchRejected(): ApiStatus {
  return failure(422, 'Invalid', 'the server rejected our request due to an error in our request', {});
}

/**
 * `ErrorToAPIStatus` of an error that is no API status (a plain `fmt.Errorf` out of an admission
 * plugin): 500, no reason (StatusReasonUnknown is empty and omitted), the error's text as it is.
 */
export function unknownError(message: string): ApiStatus {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code: 500 };
}

/** `NewInternalError(err)`. */
export function internalError(message: string): ApiStatus {
  return failure(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ message }] });
}

/**
 * `status: Success` with the deleted object's identity, as a delete without a returned object answers: the
 * registry's Status carries no code (recorded on kube-apiserver v1.36.2, fixture error-responses).
 */
export function deleted(resource: GroupResource, name: string, uid: string): Omit<ApiStatus, 'code'> {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    details: withoutEmpty({ name, group: resource.group, kind: resource.resource, uid }),
  };
}

// metav1.StatusReason for the codes apimachinery gives a reason (NewGenericServerResponse and friends).
const REASONS: Readonly<Record<number, string>> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  406: 'NotAcceptable',
  409: 'Conflict',
  410: 'Expired',
  413: 'RequestEntityTooLarge',
  415: 'UnsupportedMediaType',
  422: 'Invalid',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
  504: 'Timeout',
};

/** `NewTooManyRequestsError` (k8s.io/apimachinery/pkg/api/errors): a 429 without details. */
export function tooManyRequests(message: string): ApiStatus {
  return failure(429, 'TooManyRequests', `Too many requests: ${message}`);
}

/** A Status for an injected failure: the code's reason, and the test's message (or a neutral one). */
export function statusForCode(code: number, message?: string): ApiStatus {
  return failure(code, REASONS[code] ?? 'Unknown', message ?? `injected failure: HTTP ${code}`);
}

/** `NewTimeoutError("request did not complete within requested timeout", 0)`: the request's own deadline passed. */
export function requestTimeout(): ApiStatus {
  return failure(504, 'Timeout', 'Timeout: request did not complete within requested timeout', { retryAfterSeconds: 0 });
}

/**
 * What a client sees when json-patch panics inside kube-apiserver: the panic-recovery filter answers
 * a plain-text 500, which client-go turns into its generic server-error text.
 */
export function panicked(): ApiStatus {
  const text = 'This request caused apiserver to panic. Look in the logs for details.';
  return failure(500, 'InternalError', `an error on the server (${JSON.stringify(text)}) has prevented the request from succeeding`, {
    causes: [{ reason: 'UnexpectedServerResponse', message: text }],
  });
}
