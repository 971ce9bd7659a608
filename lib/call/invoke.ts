import { encodeReview, type InvocationView } from '../review/encode';
import type { AdmissionAttributes } from '../review/attributes';
import type { AdmissionReviewVersion } from '../kube/admission';
import { callWebhook, negotiateVersion, type CallableWebhook, type CallContext, type CallOutcome } from './call-webhook';
import { CallingError } from './calling-error';

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
    return {
      webhook: webhook.name,
      ...(webhook.configuration ? { configuration: webhook.configuration } : {}),
      type: webhook.type,
      review: encodeReview(attributes, 'v1', uid, invocation),
      url: '',
      allowed: false,
      error: new CallingError(webhook.name, 'could not create admission objects: webhook does not accept known AdmissionReview versions (v1, v1beta1)', 400, 'list "v1" in admissionReviewVersions'),
      warnings: [],
      auditAnnotations: {},
      durationMs: 0,
    };
  }
  const review = encodeReview(attributes, version, uid, invocation);
  return callWebhook(webhook, review, context, invocation ? undefined : encodedBody(attributes, version, uid));
}

// A Review is immutable, so its JSON differs between calls only by the uid (the first member of the
// request): the serialised halves are kept per attributes and version, and the uid spliced in.
const UID_MARK = '\u0000uid\u0000';
const bodies = new WeakMap<AdmissionAttributes, Map<string, [string, string]>>();
function encodedBody(attributes: AdmissionAttributes, version: AdmissionReviewVersion, uid: string): Buffer {
  let byVersion = bodies.get(attributes);
  if (!byVersion) {
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
  return Buffer.from(`${halves[0]}${JSON.stringify(uid)}${halves[1]}`);
}
