import { loadManifests, type WebhookEntry } from '../../lib/config/load';
import type { RuleWithOperations } from '../../lib/kube/webhook-config';
import { mutating, validating } from '../dispatch/helpers';

type Hook = Parameters<typeof validating>[1];

/** One validating webhook of configuration `config`, loaded (validated and defaulted) as the harness loads manifests. */
export function validatingEntry(hook: Hook, config = 'policy'): WebhookEntry {
  const [entry] = loadManifests([validating(config, hook)]);
  if (!entry) throw new Error('no webhook loaded');
  return entry;
}

export function mutatingEntry(hook: Hook, config = 'defaults'): WebhookEntry {
  const [entry] = loadManifests([mutating(config, hook)]);
  if (!entry) throw new Error('no webhook loaded');
  return entry;
}

export const rule = (operations: string[], resources: string[], more: Partial<RuleWithOperations> = {}): RuleWithOperations => ({
  operations,
  apiGroups: [''],
  apiVersions: ['v1'],
  resources,
  ...more,
});

export const podsCreateUpdate = (): WebhookEntry => validatingEntry({ name: 'pods.example.com', rules: [rule(['CREATE', 'UPDATE'], ['pods'])] });
