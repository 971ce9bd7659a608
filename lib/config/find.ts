import { HarnessError } from '../errors';
import type { WebhookEntry } from './load';

/**
 * The webhook a test names: `name`, or `configuration/name` when two configurations declare the
 * same name. Throws with the known names when there is no such webhook, or more than one.
 */
export function findWebhook(entries: readonly WebhookEntry[], reference: string): WebhookEntry {
  const [configuration, name] = reference.includes('/') ? reference.split('/', 2) : [undefined, reference];
  const found = entries.filter((e) => e.spec.name === name && (configuration === undefined || e.configuration === configuration));
  if (found.length === 0) {
    const known = entries.map((e) => e.spec.name).join(', ') || '(none: no manifests given)';
    throw new HarnessError(
      'WEBHOOK_NOT_FOUND',
      `no webhook named ${JSON.stringify(reference)} in the manifests; known: ${known}`,
      'pass the webhook name from the configuration, or an inline { type, path }',
    );
  }
  if (found.length > 1) {
    throw new HarnessError(
      'WEBHOOK_AMBIGUOUS',
      `${found.length} configurations declare a webhook named ${JSON.stringify(reference)}`,
      `address it as "<configuration>/<webhook>", e.g. ${JSON.stringify(`${found[0]?.configuration}/${name}`)}`,
    );
  }
  return found[0] as WebhookEntry;
}
