import { matchNamespaceSelector } from '../../lib/match/namespace-selector';
import type { MatchAttributes } from '../../lib/match/request';
import type { MutatingWebhook } from '../../lib/kube/webhook-config';
import { startMockApi, type MockApi } from '../../lib/mockapi';
import { call } from './client';

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi({ seed: 11, namespaces: [{ name: 'prod', labels: { env: 'prod' } }] });
});
afterAll(() => api.close());

const webhook: MutatingWebhook = { name: 'w', clientConfig: { url: 'https://localhost/' }, namespaceSelector: { matchLabels: { env: 'prod' } } };
const podIn = (namespace: string): MatchAttributes => ({
  operation: 'CREATE',
  kind: { group: '', version: 'v1', kind: 'Pod' },
  resource: { group: '', version: 'v1', resource: 'pods' },
  subResource: '',
  name: 'p',
  namespace,
  object: { metadata: { name: 'p', namespace } },
  oldObject: null,
});

it('has the built-in namespaces and the declared ones, with the kubernetes.io/metadata.name label', () => {
  expect(api.namespaces.labels('kube-system')).toEqual({ 'kubernetes.io/metadata.name': 'kube-system' });
  expect(api.namespaces.labels('prod')).toEqual({ env: 'prod', 'kubernetes.io/metadata.name': 'prod' });
  expect(api.namespaces.labels('nope')).toBeUndefined();
});

it('is what namespaceSelectors read: a namespace created or relabelled through the API is matched as it now is', async () => {
  expect(matchNamespaceSelector(webhook, podIn('staging'), api.namespaces).error?.code).toBe(404);
  await call(api, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'staging', labels: { env: 'staging' } } });
  expect(matchNamespaceSelector(webhook, podIn('staging'), api.namespaces).matches).toBe(false);
  await call(api, 'PATCH', '/api/v1/namespaces/staging', { metadata: { labels: { env: 'prod' } } }, 'application/merge-patch+json');
  expect(matchNamespaceSelector(webhook, podIn('staging'), api.namespaces).matches).toBe(true);
});

it('keeps NamespaceStore methods: set replaces the labels, delete removes the namespace', () => {
  api.namespaces.set({ name: 'prod', labels: { tier: 'gold' } });
  expect(api.namespaces.labels('prod')).toEqual({ tier: 'gold', 'kubernetes.io/metadata.name': 'prod' });
  api.namespaces.delete('prod');
  api.namespaces.delete('prod');
  expect(api.namespaces.labels('prod')).toBeUndefined();
});
