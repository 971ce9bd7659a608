// spec.conversion of a CustomResourceDefinition as the catalog reads it (lib/kube/catalog/crd.ts): defaulted,
// validated, and kept on every version's entry for the conversion capability.
import { ResourceCatalog } from '../../lib/kube/catalog';

const crd = (conversion?: unknown): Record<string, unknown> => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.stable.example.com' },
  spec: {
    group: 'stable.example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', kind: 'Widget' },
    versions: [
      { name: 'v1', served: true, storage: true },
      { name: 'v1beta1', served: false, storage: false },
      { name: 'v2', served: true, storage: false },
    ],
    ...(conversion === undefined ? {} : { conversion }),
  },
});

const register = (conversion?: unknown) => new ResourceCatalog([]).registerCustomResourceDefinition(crd(conversion));

it('defaults the strategy to None, and lists every declared version, served or not', () => {
  const entries = register();
  expect(entries.map((e) => e.version)).toEqual(['v1', 'v2']);
  for (const entry of entries) expect(entry.conversion).toEqual({ crd: 'widgets.stable.example.com', strategy: 'None', versions: ['v1', 'v1beta1', 'v2'] });
});

it('keeps a Webhook strategy with its clientConfig, a service port defaulted to 443', () => {
  const [entry] = register({
    strategy: 'Webhook',
    webhook: { conversionReviewVersions: ['v1'], clientConfig: { service: { name: 'conv', namespace: 'ops', path: '/convert' }, caBundle: 'Q0E=' } },
  });
  expect(entry?.conversion?.webhook).toEqual({
    conversionReviewVersions: ['v1'],
    clientConfig: { service: { name: 'conv', namespace: 'ops', port: 443, path: '/convert' }, caBundle: 'Q0E=' },
  });
});

it.each([
  [{ strategy: 'Magic' }, 'spec.conversion.strategy: Unsupported value: "Magic": supported values: "None", "Webhook"'],
  [{ strategy: 'Webhook' }, 'spec.conversion.webhook: Required value'],
  [
    { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: {} } },
    'spec.conversion.webhook.clientConfig: Required value: exactly one of url or service is required',
  ],
  [{ strategy: 'Webhook', webhook: { clientConfig: { url: 'https://c.example.com' } } }, 'spec.conversion.webhook.conversionReviewVersions: Required value'],
  [
    { strategy: 'None', webhook: { clientConfig: { url: 'https://c.example.com' } } },
    'spec.conversion.webhook: Forbidden: should be empty if conversion strategy is other than Webhook',
  ],
])('refuses %j naming the field', (conversion, text) => {
  expect(() => register(conversion)).toThrow(`CustomResourceDefinition "widgets.stable.example.com": ${text}`);
});
