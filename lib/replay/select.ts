import type { WebhookEntry } from '../config/load';
import { findWebhook } from '../config/find';
import type { Harness } from '../harness';
import { matchRules } from '../match/should-call';
import type { Review } from '../review/review';

/** The webhooks a recorded request goes to, or why none of the manifests' webhooks would get it. */
export type Selection = { webhooks: WebhookEntry[] } | { none: string };

/**
 * The webhook named (a name, or `configuration/name`), or else every webhook of the harness's manifests
 * whose rules match the request, in the harness's order. Rules only: a recorded request is one the API
 * did send, so the namespace and object selectors (which depend on the mock cluster's namespaces) and
 * matchConditions are not asked again.
 */
export function selectWebhooks(harness: Harness, review: Review, webhook?: string): Selection {
  if (webhook !== undefined) return { webhooks: [findWebhook(harness.webhooks, webhook)] };
  if (harness.webhooks.length === 0) return { none: 'the harness has no webhooks: create it with the manifests declaring them' };
  const reasons: string[] = [];
  const webhooks = harness.webhooks.filter((entry) => {
    const verdict = matchRules(entry.spec, review.attributes, harness.catalog);
    if (!('error' in verdict) && verdict.invocation) return true;
    reasons.push(`${entry.spec.name}: ${verdict.why}`);
    return false;
  });
  return webhooks.length > 0 ? { webhooks } : { none: `no webhook of the manifests matches ${review.summary()}:\n    ${reasons.join('\n    ')}` };
}
