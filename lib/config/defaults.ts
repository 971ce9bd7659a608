import type { MutatingWebhook, RuleWithOperations } from '../kube/webhook-config';

/**
 * Applies the API's defaults to one webhook (KUBE-FACTS §6.6). v1beta1 objects get that version's
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
