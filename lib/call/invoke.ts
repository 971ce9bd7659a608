import { encodeReview, type InvocationView } from '../review/encode';
import type { AdmissionAttributes } from '../kube/attributes';
import type { AdmissionReviewVersion, KubeObject } from '../kube/admission';
import { callWebhook, emptyOutcome, negotiateVersion, type CallableWebhook, type CallContext, type CallOutcome, type RequestBody } from './call-webhook';
import { CallingError } from './calling-error';
import { deepFreeze } from '../kube/json';

/**
 * One webhook call from request attributes, as the dispatchers make it: negotiate the review version
 * (k8s.io/apiserver/pkg/admission/plugin/webhook/request/admissionreview.go), encode with a fresh uid, call. A webhook accepting no known version fails here,
 * without a request, with kube-apiserver's text.
 */
export function invokeWebhook(
  webhook: CallableWebhook,
  attributes: AdmissionAttributes,
  invocation: InvocationView | undefined,
  uid: string,
  context: CallContext,
): Promise<CallOutcome> {
  const version = negotiateVersion(webhook.admissionReviewVersions);
  if (!version) {
    const outcome = emptyOutcome(webhook, encodeReview(attributes, 'v1', uid, invocation));
    outcome.error = new CallingError(
      webhook.name,
      'could not create admission objects: webhook does not accept known AdmissionReview versions (v1, v1beta1)',
      400,
      'list "v1" in admissionReviewVersions',
    );
    return Promise.resolve(outcome);
  }
  const review = encodeReview(attributes, version, uid, invocation);
  return callWebhook(webhook, review, context, reviewJson(attributes, version, uid, invocation));
}

/**
 * `JSON.stringify(encodeReview(...))`, byte for byte, built from cached pieces, with its length in UTF-8
 * bytes (the Content-Length) summed from theirs: the body is most of a call's own cost, and Reviews and
 * their objects are immutable, so neither the text nor its bytes are worked out again per call.
 */
export function reviewJson(attributes: AdmissionAttributes, version: AdmissionReviewVersion, uid: string, invocation?: InvocationView): RequestBody {
  return invocation ? invocationBody(attributes, version, uid, invocation) : encodedBody(attributes, version, uid);
}

/** A piece of a request body and its length in UTF-8 bytes. */
interface Piece {
  text: string;
  bytes: number;
}
const piece = (text: string): Piece => ({ text, bytes: Buffer.byteLength(text) });

// A Review is immutable, so its JSON differs between calls only by the uid (the first member of the
// request): the serialised halves are kept per attributes and version, and the uid spliced in. What
// is cached is frozen when first sent: a test that changes it afterwards gets a TypeError, not calls
// that carry the JSON from before the change.
const UID_MARK = '\u0000uid\u0000';
const bodies = new WeakMap<AdmissionAttributes, Map<string, [Piece, Piece]>>();
function encodedBody(attributes: AdmissionAttributes, version: AdmissionReviewVersion, uid: string): RequestBody {
  let byVersion = bodies.get(attributes);
  if (!byVersion) {
    deepFreeze(attributes);
    byVersion = new Map();
    bodies.set(attributes, byVersion);
  }
  let halves = byVersion.get(version);
  if (!halves) {
    const text = JSON.stringify(encodeReview(attributes, version, UID_MARK));
    const at = text.indexOf(JSON.stringify(UID_MARK));
    halves = [piece(text.slice(0, at)), piece(text.slice(at + JSON.stringify(UID_MARK).length))];
    byVersion.set(version, halves);
  }
  const quotedUid = piece(JSON.stringify(uid));
  return { text: `${halves[0].text}${quotedUid.text}${halves[1].text}`, bytes: halves[0].bytes + quotedUid.bytes + halves[1].bytes };
}

// Dispatchers call with a view per webhook and, along a mutating chain, a new object after each
// patch; but most webhooks see an object some other call has already sent (unpatched chains, every
// validating webhook, reinvocation). Each object's JSON is kept, and spliced into the rest of the review.
const OBJECT_MARK = '\u0000object\u0000';
const OLD_OBJECT_MARK = '\u0000oldObject\u0000';
const objectTexts = new WeakMap<KubeObject, Piece>();
function objectJson(object: KubeObject): Piece {
  let text = objectTexts.get(object);
  if (text === undefined) {
    deepFreeze(object);
    text = piece(JSON.stringify(object));
    objectTexts.set(object, text);
  }
  return text;
}

// The rest of the review (user, options, kinds) is the same for every call of one request, though the
// dispatchers hand each call attributes of its own: the last request's review is kept as the text
// around its uid and objects, and reused while every member it was made from is the same value. Those
// members are frozen when kept, so a later change fails loudly instead of sending the old text.
interface Segments {
  from: unknown[];
  /** The review's text cut at the uid, then at the object and at the oldObject where present (absent ones are `null` in the text). */
  parts: Piece[];
}
let lastSegments: Segments | undefined;

function segmentSources(attributes: AdmissionAttributes, version: AdmissionReviewVersion, invocation: InvocationView): unknown[] {
  const a = attributes;
  return [
    version,
    a.operation,
    a.kind,
    a.resource,
    a.subResource,
    a.name,
    a.namespace,
    a.userInfo,
    a.dryRun,
    a.options,
    invocation.kind,
    invocation.resource,
    invocation.subResource,
    invocation.object === null,
    invocation.oldObject === null,
  ];
}

function segmentsFor(attributes: AdmissionAttributes, version: AdmissionReviewVersion, invocation: InvocationView): Piece[] {
  const from = segmentSources(attributes, version, invocation);
  if (lastSegments?.from.every((value, i) => value === from[i])) return lastSegments.parts;
  for (const value of from) deepFreeze(value);
  const { object, oldObject } = invocation;
  const marked = {
    ...invocation,
    object: object && (OBJECT_MARK as unknown as KubeObject),
    oldObject: oldObject && (OLD_OBJECT_MARK as unknown as KubeObject),
  };
  let rest = JSON.stringify(encodeReview(attributes, version, UID_MARK, marked));
  const parts: Piece[] = [];
  for (const mark of [UID_MARK, ...(object ? [OBJECT_MARK] : []), ...(oldObject ? [OLD_OBJECT_MARK] : [])]) {
    const quoted = JSON.stringify(mark);
    const at = rest.indexOf(quoted);
    parts.push(piece(rest.slice(0, at)));
    rest = rest.slice(at + quoted.length);
  }
  parts.push(piece(rest));
  lastSegments = { from, parts };
  return parts;
}

function invocationBody(attributes: AdmissionAttributes, version: AdmissionReviewVersion, uid: string, invocation: InvocationView): RequestBody {
  const parts = segmentsFor(attributes, version, invocation);
  const { object, oldObject } = invocation;
  const quotedUid = JSON.stringify(uid);
  let text = parts[0]!.text + quotedUid;
  let bytes = parts[0]!.bytes + Buffer.byteLength(quotedUid);
  let next = 1;
  for (const present of [object, oldObject]) {
    if (!present) continue;
    const json = objectJson(present);
    const before = parts[next++]!;
    text += before.text + json.text;
    bytes += before.bytes + json.bytes;
  }
  const last = parts[next]!;
  return { text: text + last.text, bytes: bytes + last.bytes };
}
