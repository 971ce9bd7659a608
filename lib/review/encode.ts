import type { AdmissionRequest, AdmissionReview, AdmissionReviewVersion, GroupVersionKind, GroupVersionResource, KubeObject } from '../kube/admission';
import type { AdmissionAttributes } from '../kube/attributes';

/** How one webhook sees the request when its rules matched an equivalent resource (matchPolicy). */
export interface InvocationView {
  kind: GroupVersionKind;
  resource: GroupVersionResource;
  subResource: string;
  object: KubeObject | null;
  oldObject: KubeObject | null;
}

/**
 * The AdmissionReview kube-apiserver sends for `attributes`, with the member order of a real
 * apiserver's JSON (fixtures/apiserver-captures): empty name, namespace and subresources are left
 * out, absent objects and options are `null`, `dryRun` is always present. `kind`/`resource` are what
 * the webhook matched; `requestKind`/`requestResource` what the client asked for.
 */
export function encodeReview(attributes: AdmissionAttributes, version: AdmissionReviewVersion, uid: string, invocation?: InvocationView): AdmissionReview {
  const a = attributes;
  const seen = invocation ?? a;
  const request: AdmissionRequest = {
    uid,
    kind: seen.kind,
    resource: seen.resource,
    ...(seen.subResource ? { subResource: seen.subResource } : {}),
    requestKind: a.kind,
    requestResource: a.resource,
    ...(a.subResource ? { requestSubResource: a.subResource } : {}),
    ...(a.name ? { name: a.name } : {}),
    ...(a.namespace ? { namespace: a.namespace } : {}),
    operation: a.operation,
    userInfo: a.userInfo,
    object: seen.object,
    oldObject: seen.oldObject,
    dryRun: a.dryRun,
    options: a.options,
  };
  return { kind: 'AdmissionReview', apiVersion: `admission.k8s.io/${version}`, request } as AdmissionReview;
}
