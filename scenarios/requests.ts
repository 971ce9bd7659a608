import type { WebhookEntry } from '../lib/config/load';
import { objects } from '../lib/review/objects';
import { review } from '../lib/review/builders';
import type { SeededRandom } from '../lib/review/random';
import type { Review } from '../lib/review/review';

/** One request of the battery, with the words a report uses for it. */
export interface Scenario {
  title: string;
  review: Review;
}

function ruleMatches(entry: WebhookEntry, operation: string, group: string, version: string, resource: string): boolean {
  return (entry.spec.rules ?? []).some(
    (rule) =>
      (rule.operations ?? []).some((op) => op === '*' || op === operation) &&
      (rule.apiGroups ?? []).some((g) => g === '*' || g === group) &&
      (rule.apiVersions ?? []).some((v) => v === '*' || v === version) &&
      (rule.resources ?? []).some((r) => r === '*' || r === '*/*' || r === resource || r === `${resource}/*`),
  );
}

/**
 * The requests the battery sends to a webhook: what its rules can match, among the requests the
 * harness can build so far (pod CREATE, plain and dryRun, with pinned and unpinned images).
 */
export function scenariosFor(entry: WebhookEntry, random: SeededRandom): { scenarios: Scenario[]; unsupported: string[] } {
  if (!ruleMatches(entry, 'CREATE', '', 'v1', 'pods')) {
    return { scenarios: [], unsupported: ['its rules match no request the harness builds yet (pod CREATE)'] };
  }
  const pod = objects.pod({ random, namespace: 'default' });
  const latest = objects.pod({ random, namespace: 'default', images: ['nginx:latest'] });
  const sidecars = objects.pod({ random, namespace: 'default', images: ['ghcr.io/acme/api:v2.3.1', 'envoyproxy/envoy:v1.31.0'] });
  return {
    scenarios: [
      { title: 'CREATE pods (one pinned image)', review: review.create(pod) },
      { title: 'CREATE pods (dryRun)', review: review.create(pod).dryRun() },
      { title: 'CREATE pods (two containers)', review: review.create(sidecars) },
      { title: 'CREATE pods (image :latest)', review: review.create(latest) },
    ],
    unsupported: [],
  };
}
