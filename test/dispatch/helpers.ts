import { configuration } from '../webhooks/manifests';
import type { MutatingWebhook } from '../../lib/kube/webhook-config';

type Hook = Partial<MutatingWebhook> & { name: string };

/** A MutatingWebhookConfiguration of URL webhooks named `<name>` at https://<name>/ (stubbed in tests). */
export function mutating(config: string, ...hooks: Hook[]): Record<string, unknown> {
  return configuration(
    'MutatingWebhookConfiguration',
    config,
    hooks.map((h) => ({ clientConfig: { url: `https://${h.name}/` }, ...h })),
  );
}

export function validating(config: string, ...hooks: Hook[]): Record<string, unknown> {
  return configuration(
    'ValidatingWebhookConfiguration',
    config,
    hooks.map((h) => ({ clientConfig: { url: `https://${h.name}/` }, ...h })),
  );
}

/** A JSON Patch that sets label `key` to `value` (replace of a missing key adds it, as in v4). */
export const setLabel = (key: string, value: string) => [{ op: 'replace' as const, path: `/metadata/labels/${key}`, value }];
