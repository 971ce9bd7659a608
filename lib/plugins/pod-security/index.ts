/**
 * PodSecurity (k8s.io/pod-security-admission as kube-apiserver v1.36 runs it): the Pod Security
 * Standards checks, their evaluation, namespace label policies, and the plugin's decision on a request.
 */
export { podSecurityAdmit } from './admission';
export type { PodSecurityAttributes, PodSecurityDecision, PodSecurityRequest } from './admission';
export { AUDIT_ANNOTATION_PREFIX } from './audit-annotations';
export { ALLOWED, forbidden } from './check';
export type { Check, CheckLevel, CheckPodFn, CheckResult, VersionedCheck } from './check';
export { DEFAULT_CHECKS } from './checks';
export { DEFAULT_CONFIGURATION, resolveConfiguration } from './configuration';
export type { PodSecurityConfiguration, PodSecurityDefaults, PodSecurityExemptions, ResolvedConfiguration } from './configuration';
export { evaluatePod, violatesMessage, wouldViolateMessage } from './evaluate';
export type { FailedCheck, PodEvaluation } from './evaluate';
export { LATEST, levelVersionString, parseLevel, parseVersion, v1 } from './level-version';
export type { Level, LevelVersion, PolicyVersion } from './level-version';
export { evaluatePodsInNamespace } from './namespace-pods';
export { DEFAULT_POLICY, policyToEvaluate } from './namespace-policy';
export type { NamespacePolicy, Policy } from './namespace-policy';
export { extractPodTemplate, hasPodSpec } from './pod-spec-extractor';
export { createEvaluator, DEFAULT_EVALUATOR, KUBE_MINOR_VERSION } from './registry';
export type { Evaluator, IdentifiedResult } from './registry';
export { isSignificantPodUpdate } from './significant-update';
