import { encodeReview, type InvocationView } from '../review/encode';
import type { AdmissionAttributes } from '../review/attributes';
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
  return callWebhook(webhook, encodeReview(attributes, version, uid, invocation), context);
}
