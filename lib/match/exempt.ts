import type { MatchAttributes } from './request';

// Admission configuration kinds are never sent to webhooks, so a broken webhook cannot lock an
// administrator out of fixing it (`IsExemptAdmissionConfigurationResource`).
const EXEMPT_CONFIGURATION_KINDS = new Set([
  'ValidatingWebhookConfiguration',
  'MutatingWebhookConfiguration',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionPolicyBinding',
  'MutatingAdmissionPolicy',
  'MutatingAdmissionPolicyBinding',
]);

// With ExcludeAdmissionWebhookVirtualResources (on by default from 1.37) review resources skip all webhooks.
const VIRTUAL_REVIEW_RESOURCES: Record<string, readonly string[]> = {
  'authentication.k8s.io': ['tokenreviews', 'selfsubjectreviews'],
  'authorization.k8s.io': ['subjectaccessreviews', 'selfsubjectaccessreviews', 'localsubjectaccessreviews', 'selfsubjectrulesreviews'],
};

/** Why no webhook ever sees this request, or undefined when webhooks may (k8s.io/apiserver/pkg/admission/plugin/webhook/predicates/rules/rules.go `IsExemptAdmissionConfigurationResource`). */
export function exemptionOf(attributes: MatchAttributes): string | undefined {
  const { kind, resource } = attributes;
  if (kind.group === 'admissionregistration.k8s.io' && EXEMPT_CONFIGURATION_KINDS.has(kind.kind)) {
    return `${kind.kind} objects are never sent to admission webhooks`;
  }
  if (VIRTUAL_REVIEW_RESOURCES[resource.group]?.includes(resource.resource)) {
    return `${resource.resource}.${resource.group} are virtual review resources, skipped by all webhooks`;
  }
  return undefined;
}
