import { encodeReview, type InvocationView } from '../review/encode';
import type { AdmissionAttributes } from '../kube/attributes';
import type { AdmissionReviewVersion, KubeObject } from '../kube/admission';
import { callWebhook, emptyOutcome, negotiateVersion, type CallableWebhook, type CallContext, type CallOutcome } from './call-webhook';
import { CallingError } from './calling-error';
import { deepFreeze } from '../kube/json';

/**
 * One webhook call from request attributes, as the dispatchers make it: negotiate the review version
 * (KUBE-FACTS §2.1), encode with a fresh uid, call. A webhook accepting no known version fails here,
 * without a request, with kube-apiserver's text.
 */
export async function invokeWebhook(
  webhook: CallableWebhook,
  attributes: AdmissionAttributes,
  invocation: InvocationView | undefined,
  uid: string,
  context: CallContext,
): Promise<CallOutcome> {
  const version = negotiateVersion(webhook.admissionReviewVersions);
  if (!version) {
    const outcome = emptyOutcome(webhook, encodeReview(attributes, 'v1', uid, invocation));
    outcome.error = new CallingError(webhook.name, 'could not create admission objects: webhook does not accept known AdmissionReview versions (v1, v1beta1)', 400, 'list "v1" in admissionReviewVersions');
    return outcome;
  }
  const review = encodeReview(attributes, version, uid, invocation);
  return callWebhook(webhook, review, context, reviewJson(attributes, version, uid, invocation));
}

/**
 * `JSON.stringify(encodeReview(...))`, byte for byte, built from cached pieces: the body is most of a
 * call's own cost, and Reviews and their objects are immutable.
 */
export function reviewJson(attributes: AdmissionAttributes, version: AdmissionReviewVersion, uid: string, invocation?: InvocationView): string {
  return invocation ? invocationBody(attributes, version, uid, invocation) : encodedBody(attributes, version, uid);
}

// A Review is immutable, so its JSON differs between calls only by the uid (the first member of the
// request): the serialised halves are kept per attributes and version, and the uid spliced in. What
// is cached is frozen when first sent: a test that changes it afterwards gets a TypeError, not calls
// that carry the JSON from before the change.
const UID_MARK = '\u0000uid\u0000';
const bodies = new WeakMap<AdmissionAttributes, Map<string, [string, string]>>();
function encodedBody(attributes: AdmissionAttributes, version: AdmissionReviewVersion, uid: string): string {
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
    halves = [text.slice(0, at), text.slice(at + JSON.stringify(UID_MARK).length)];
    byVersion.set(version, halves);
  }
  return `${halves[0]}${JSON.stringify(uid)}${halves[1]}`;
}

// Dispatchers call with a view per webhook and, along a mutating chain, a new object after each
// patch; but most webhooks see an object some other call has already sent (unpatched chains, every
// validating webhook, reinvocation). Each object's JSON is kept, and spliced into the rest of the review.
const OBJECT_MARK = '\u0000object\u0000';
const OLD_OBJECT_MARK = '\u0000oldObject\u0000';
const objectTexts = new WeakMap<KubeObject, string>();
function objectJson(object: KubeObject): string {
  let text = objectTexts.get(object);
  if (text === undefined) {
    deepFreeze(object);
    text = JSON.stringify(object);
    objectTexts.set(object, text);
  }
  return text;
}
function invocationBody(attributes: AdmissionAttributes, version: AdmissionReviewVersion, uid: string, invocation: InvocationView): string {
  const { object, oldObject } = invocation;
  const marked = { ...invocation, object: object && (OBJECT_MARK as unknown as KubeObject), oldObject: oldObject && (OLD_OBJECT_MARK as unknown as KubeObject) };
  let text = JSON.stringify(encodeReview(attributes, version, uid, marked));
  if (object) text = text.replace(`"object":${JSON.stringify(OBJECT_MARK)}`, () => `"object":${objectJson(object)}`);
  if (oldObject) text = text.replace(`"oldObject":${JSON.stringify(OLD_OBJECT_MARK)}`, () => `"oldObject":${objectJson(oldObject)}`);
  return text;
}
