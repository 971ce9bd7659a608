/**
 * The audit annotations PodSecurity leaves on a request (api/constants.go), under the prefix the
 * kube-apiserver plugin adds to every key (plugin/pkg/admission/security/podsecurity/admission.go).
 */
export const AUDIT_ANNOTATION_PREFIX = 'pod-security.kubernetes.io/';

/** `<level>:<version>` enforced on a pod (`privileged:latest` when nothing is). */
export const ENFORCE_POLICY = 'enforce-policy';
/** `would violate PodSecurity "<level>:<version>": …` when the audit level fails. */
export const AUDIT_VIOLATIONS = 'audit-violations';
/** `namespace`, `user` or `runtimeClass`: why the request was not evaluated. */
export const EXEMPT = 'exempt';
/** What went wrong reading the namespace's labels or the object. */
export const ERROR = 'error';

/** The library's annotations as the audit event carries them. */
export function prefixed(annotations: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(annotations).map(([key, value]) => [AUDIT_ANNOTATION_PREFIX + key, value]));
}
