import type { AdmissionRequest, AdmissionReview, AdmissionReviewVersion } from '../kube/admission';
import type { AdmissionAttributes } from './attributes';

/**
 * The AdmissionReview kube-apiserver sends for `attributes`, with the member order of a real
 * apiserver's JSON (fixtures/apiserver-captures): empty name, namespace and subresources are left
 * out, absent objects and options are `null`, `dryRun` is always present.
 */
export function encodeReview(attributes: AdmissionAttributes, version: AdmissionReviewVersion, uid: string): AdmissionReview {
  const a = attributes;
  const request: AdmissionRequest = {
    uid,
    kind: a.kind,
    resource: a.resource,
    ...(a.subResource ? { subResource: a.subResource } : {}),
    requestKind: a.kind,
    requestResource: a.resource,
    ...(a.subResource ? { requestSubResource: a.subResource } : {}),
    ...(a.name ? { name: a.name } : {}),
    ...(a.namespace ? { namespace: a.namespace } : {}),
    operation: a.operation,
    userInfo: a.userInfo,
    object: a.object,
    oldObject: a.oldObject,
    dryRun: a.dryRun,
    options: a.options,
  };
  return { kind: 'AdmissionReview', apiVersion: `admission.k8s.io/${version}`, request } as AdmissionReview;
}
