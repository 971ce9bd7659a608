import type { MutatingWebhook, ValidatingWebhook } from '../../lib/kube/webhook-config';

/** A v1 configuration object around the given webhooks, with the required fields filled in. */
export function configuration(
  kind: 'MutatingWebhookConfiguration' | 'ValidatingWebhookConfiguration',
  name: string,
  webhooks: (Partial<MutatingWebhook> & Pick<ValidatingWebhook, 'name' | 'clientConfig'>)[],
): Record<string, unknown> {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind,
    metadata: { name },
    webhooks: webhooks.map((w) => ({
      sideEffects: 'None',
      admissionReviewVersions: ['v1'],
      rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'] }],
      ...w,
    })),
  };
}
