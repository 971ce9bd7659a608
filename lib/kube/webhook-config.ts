/**
 * admissionregistration.k8s.io webhook configuration types. `kubernetes-types` lacks `resources` and
 * `scope` on RuleWithOperations, so the harness keeps its own, matching k8s.io/api v1.
 */
import type { LabelSelector } from 'kubernetes-types/meta/v1.js';

export interface ServiceReference {
  namespace: string;
  name: string;
  path?: string;
  port?: number;
}

export interface WebhookClientConfig {
  url?: string;
  service?: ServiceReference;
  caBundle?: string;
}

export interface RuleWithOperations {
  operations?: string[];
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  scope?: 'Cluster' | 'Namespaced' | '*';
}

export interface MatchCondition {
  name: string;
  expression: string;
}

export type FailurePolicy = 'Fail' | 'Ignore';
export type SideEffectClass = 'None' | 'NoneOnDryRun' | 'Some' | 'Unknown';

export interface ValidatingWebhook {
  name: string;
  clientConfig: WebhookClientConfig;
  rules?: RuleWithOperations[];
  failurePolicy?: FailurePolicy;
  matchPolicy?: 'Exact' | 'Equivalent';
  namespaceSelector?: LabelSelector;
  objectSelector?: LabelSelector;
  sideEffects?: SideEffectClass;
  timeoutSeconds?: number;
  admissionReviewVersions?: string[];
  matchConditions?: MatchCondition[];
}

export interface MutatingWebhook extends ValidatingWebhook {
  reinvocationPolicy?: 'Never' | 'IfNeeded';
}

export interface WebhookConfiguration<W> {
  apiVersion: string;
  kind: string;
  metadata: { name: string; [key: string]: unknown };
  webhooks?: W[];
}

export type MutatingWebhookConfiguration = WebhookConfiguration<MutatingWebhook> & {
  kind: 'MutatingWebhookConfiguration';
};
export type ValidatingWebhookConfiguration = WebhookConfiguration<ValidatingWebhook> & {
  kind: 'ValidatingWebhookConfiguration';
};

export type WebhookType = 'mutating' | 'validating';
