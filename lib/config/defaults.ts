import type { FailurePolicy, MutatingWebhook, RuleWithOperations } from '../kube/webhook-config';
import type {
  MatchResources,
  MutatingAdmissionPolicy,
  MutatingAdmissionPolicyBinding,
  NamedRuleWithOperations,
  ValidatingAdmissionPolicy,
  ValidatingAdmissionPolicyBinding,
} from '../kube/admission-policy';

/**
 * Applies the API's defaults to one webhook (k8s.io/kubernetes/pkg/apis/admissionregistration/v1/defaults.go). v1beta1 objects get that version's
 * older defaults, as the API server stores them.
 */
export function defaultWebhook(webhook: MutatingWebhook, apiVersion: string, mutating: boolean): MutatingWebhook {
  const v1 = apiVersion === 'admissionregistration.k8s.io/v1';
  const service = webhook.clientConfig.service;
  return {
    ...webhook,
    clientConfig: {
      ...webhook.clientConfig,
      ...(service ? { service: { ...service, port: service.port ?? 443 } } : {}),
    },
    rules: (webhook.rules ?? []).map((rule): RuleWithOperations => ({ ...rule, scope: rule.scope ?? '*' })),
    failurePolicy: webhook.failurePolicy ?? (v1 ? 'Fail' : 'Ignore'),
    matchPolicy: webhook.matchPolicy ?? (v1 ? 'Equivalent' : 'Exact'),
    namespaceSelector: webhook.namespaceSelector ?? {},
    objectSelector: webhook.objectSelector ?? {},
    timeoutSeconds: webhook.timeoutSeconds ?? (v1 ? 10 : 30),
    ...(v1 ? {} : { sideEffects: webhook.sideEffects ?? 'Unknown', admissionReviewVersions: webhook.admissionReviewVersions ?? ['v1beta1'] }),
    ...(mutating ? { reinvocationPolicy: webhook.reinvocationPolicy ?? 'Never' } : {}),
  };
}

/** `SetDefaults_MatchResources` and the rules' scope: what a policy's or binding's matchResources hold once stored. */
export function defaultMatchResources(match: MatchResources): MatchResources {
  const rules = (list: NamedRuleWithOperations[] | undefined) => list?.map((rule): NamedRuleWithOperations => ({ ...rule, scope: rule.scope ?? '*' }));
  const resourceRules = rules(match.resourceRules);
  const excludeResourceRules = rules(match.excludeResourceRules);
  return {
    ...match,
    matchPolicy: match.matchPolicy ?? 'Equivalent',
    namespaceSelector: match.namespaceSelector ?? {},
    objectSelector: match.objectSelector ?? {},
    ...(resourceRules ? { resourceRules } : {}),
    ...(excludeResourceRules ? { excludeResourceRules } : {}),
  };
}

/** What every policy's spec gets (`SetDefaults_ValidatingAdmissionPolicySpec`, `…MutatingAdmissionPolicySpec`): failurePolicy Fail, matchConstraints' defaults. */
function defaultPolicySpec<S extends { failurePolicy?: FailurePolicy; matchConstraints?: MatchResources }>(spec: S): S {
  return {
    ...spec,
    failurePolicy: spec.failurePolicy ?? 'Fail',
    ...(spec.matchConstraints ? { matchConstraints: defaultMatchResources(spec.matchConstraints) } : {}),
  };
}

/** A binding's matchResources get the same defaults as a policy's matchConstraints. */
function defaultBindingSpec<S extends { matchResources?: MatchResources }>(spec: S): S {
  return { ...spec, ...(spec.matchResources ? { matchResources: defaultMatchResources(spec.matchResources) } : {}) };
}

export function defaultValidatingPolicy(policy: ValidatingAdmissionPolicy): ValidatingAdmissionPolicy {
  return { ...policy, spec: defaultPolicySpec(policy.spec) };
}

export function defaultValidatingPolicyBinding(binding: ValidatingAdmissionPolicyBinding): ValidatingAdmissionPolicyBinding {
  return { ...binding, spec: defaultBindingSpec(binding.spec) };
}

/** A MutatingAdmissionPolicy is also reinvocationPolicy Never unless it says otherwise. */
export function defaultMutatingPolicy(policy: MutatingAdmissionPolicy): MutatingAdmissionPolicy {
  return { ...policy, spec: { ...defaultPolicySpec(policy.spec), reinvocationPolicy: policy.spec.reinvocationPolicy ?? 'Never' } };
}

export function defaultMutatingPolicyBinding(binding: MutatingAdmissionPolicyBinding): MutatingAdmissionPolicyBinding {
  return { ...binding, spec: defaultBindingSpec(binding.spec) };
}
