/**
 * admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy and its binding, as k8s.io/api v1.36 declares
 * them (the fields the harness reads). `kubernetes-types` 1.30 has these types too, but its
 * NamedRuleWithOperations lacks `resources` and `scope` like its webhook rules do, so they are kept here
 * beside the webhook configuration types.
 */
import type { LabelSelector } from 'kubernetes-types/meta/v1.js';
import type { FailurePolicy, MatchCondition, RuleWithOperations } from './webhook-config';

export interface NamedRuleWithOperations extends RuleWithOperations {
  /** Names the rule is limited to; empty: every name. */
  resourceNames?: string[];
}

export interface MatchResources {
  namespaceSelector?: LabelSelector;
  objectSelector?: LabelSelector;
  resourceRules?: NamedRuleWithOperations[];
  excludeResourceRules?: NamedRuleWithOperations[];
  matchPolicy?: 'Exact' | 'Equivalent';
}

export interface ParamKind {
  apiVersion?: string;
  kind?: string;
}

export interface Validation {
  expression: string;
  message?: string;
  reason?: 'Unauthorized' | 'Forbidden' | 'Invalid' | 'RequestEntityTooLarge';
  messageExpression?: string;
}

export interface AuditAnnotation {
  key: string;
  valueExpression: string;
}

export interface Variable {
  name: string;
  expression: string;
}

export interface ValidatingAdmissionPolicySpec {
  paramKind?: ParamKind;
  matchConstraints?: MatchResources;
  validations?: Validation[];
  failurePolicy?: FailurePolicy;
  auditAnnotations?: AuditAnnotation[];
  matchConditions?: MatchCondition[];
  variables?: Variable[];
}

export interface ValidatingAdmissionPolicy {
  apiVersion: string;
  kind: 'ValidatingAdmissionPolicy';
  metadata: { name: string; [key: string]: unknown };
  spec: ValidatingAdmissionPolicySpec;
}

export interface ParamRef {
  name?: string;
  namespace?: string;
  selector?: LabelSelector;
  parameterNotFoundAction?: 'Allow' | 'Deny';
}

export type ValidationAction = 'Deny' | 'Warn' | 'Audit';

export interface ValidatingAdmissionPolicyBindingSpec {
  policyName: string;
  paramRef?: ParamRef;
  matchResources?: MatchResources;
  validationActions: ValidationAction[];
}

export interface ValidatingAdmissionPolicyBinding {
  apiVersion: string;
  kind: 'ValidatingAdmissionPolicyBinding';
  metadata: { name: string; [key: string]: unknown };
  spec: ValidatingAdmissionPolicyBindingSpec;
}

/** One mutation of a MutatingAdmissionPolicy: a CEL expression giving an apply configuration or JSON patch operations. */
export interface Mutation {
  patchType: 'ApplyConfiguration' | 'JSONPatch';
  applyConfiguration?: { expression: string };
  jsonPatch?: { expression: string };
}

export interface MutatingAdmissionPolicySpec {
  paramKind?: ParamKind;
  matchConstraints?: MatchResources;
  variables?: Variable[];
  mutations?: Mutation[];
  failurePolicy?: FailurePolicy;
  matchConditions?: MatchCondition[];
  reinvocationPolicy?: 'Never' | 'IfNeeded';
}

export interface MutatingAdmissionPolicy {
  apiVersion: string;
  kind: 'MutatingAdmissionPolicy';
  metadata: { name: string; [key: string]: unknown };
  spec: MutatingAdmissionPolicySpec;
}

export interface MutatingAdmissionPolicyBindingSpec {
  policyName: string;
  paramRef?: ParamRef;
  matchResources?: MatchResources;
}

export interface MutatingAdmissionPolicyBinding {
  apiVersion: string;
  kind: 'MutatingAdmissionPolicyBinding';
  metadata: { name: string; [key: string]: unknown };
  spec: MutatingAdmissionPolicyBindingSpec;
}
