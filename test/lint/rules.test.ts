import { lint, loadManifests } from '../../lib';
import type { MutatingWebhook } from '../../lib/kube/webhook-config';

function findingsFor(
  hook: Partial<MutatingWebhook>,
  kind: 'MutatingWebhookConfiguration' | 'ValidatingWebhookConfiguration' = 'ValidatingWebhookConfiguration',
): string[] {
  const entries = loadManifests([
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind,
      metadata: { name: 'c' },
      webhooks: [
        {
          name: 'w.example.com',
          clientConfig: { service: { namespace: 'hooks', name: 'w' } },
          rules: [{ operations: ['CREATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] }],
          namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system', 'hooks'] }] },
          sideEffects: 'None',
          timeoutSeconds: 3,
          admissionReviewVersions: ['v1'],
          ...hook,
        },
      ],
    },
  ]);
  return lint(entries).map((f) => f.id);
}

const podRules = [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }];

describe('lint (the Kubernetes documentation’s good practices)', () => {
  it('finds nothing in a careful configuration', () => {
    expect(findingsFor({})).toEqual([]);
  });

  it.each<[string, Partial<MutatingWebhook>, 'MutatingWebhookConfiguration' | 'ValidatingWebhookConfiguration']>([
    ['match-policy-exact', { matchPolicy: 'Exact' }, 'ValidatingWebhookConfiguration'],
    ['kube-system-not-excluded', { rules: podRules, namespaceSelector: {} }, 'ValidatingWebhookConfiguration'],
    [
      'own-namespace-not-excluded',
      { rules: podRules, namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system'] }] } },
      'ValidatingWebhookConfiguration',
    ],
    ['side-effects', { sideEffects: 'NoneOnDryRun' }, 'ValidatingWebhookConfiguration'],
    ['timeout-long', { timeoutSeconds: 10 }, 'ValidatingWebhookConfiguration'],
    ['fail-open-on-policy', { failurePolicy: 'Ignore' }, 'ValidatingWebhookConfiguration'],
    [
      'connect-exec-registered',
      { rules: [{ operations: ['CONNECT'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods/exec'] }] },
      'ValidatingWebhookConfiguration',
    ],
    [
      'wildcard-fail-closed',
      { rules: [{ operations: ['UPDATE'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'] }], namespaceSelector: { matchLabels: { x: 'y' } } },
      'ValidatingWebhookConfiguration',
    ],
    ['reinvocation-needs-idempotence', { reinvocationPolicy: 'IfNeeded' }, 'MutatingWebhookConfiguration'],
    [
      'unstable-version',
      { rules: [{ operations: ['CREATE'], apiGroups: ['example.com'], apiVersions: ['v1beta1', 'v1alpha2'], resources: ['widgets'] }] },
      'ValidatingWebhookConfiguration',
    ],
    ['url-localhost', { clientConfig: { url: 'https://127.0.0.1:8443/validate' } }, 'ValidatingWebhookConfiguration'],
  ])('%s', (id, hook, kind) => {
    expect(findingsFor(hook, kind)).toContain(id);
  });

  it('does not flag its own namespace when the webhook fails open', () => {
    expect(findingsFor({ rules: podRules, failurePolicy: 'Ignore', namespaceSelector: {} })).not.toContain('own-namespace-not-excluded');
  });
});
