import type { Authorizer } from '../authz/authorizer';
import type { WebhookEntry } from '../config/load';
import type { AdmissionMetrics } from '../dispatch/metrics';
import type { ResourceCatalog } from '../kube/catalog';
import { prepareMatchConditions } from '../match/conditions';
import type { NamespaceRegistry } from '../match/namespace-store';
import type { MatchContext } from '../match/should-call';

/**
 * What deciding whether a webhook is called reads: the cluster's namespaces, its resources, and the
 * webhooks' matchConditions compiled, each evaluation counted in the admission metrics.
 */
export async function matchContextFor(
  webhooks: readonly WebhookEntry[],
  shared: { namespaces: NamespaceRegistry; catalog: ResourceCatalog; metrics: AdmissionMetrics; authorizer?: Authorizer },
): Promise<MatchContext> {
  const { metrics } = shared;
  const conditions = await prepareMatchConditions(webhooks, {
    ...(shared.authorizer ? { authorizer: shared.authorizer } : {}),
    observer: {
      evaluated(entry, operation, seconds, verdict) {
        const type = entry.type === 'mutating' ? 'admit' : 'validating';
        metrics.matchConditionLatency(entry.spec.name, type, operation, seconds);
        if (verdict.evaluationError) metrics.matchConditionError(entry.spec.name, type, operation);
        // As in kube-apiserver, a failed condition skipped by failurePolicy Ignore is an exclusion too.
        if (!verdict.matches && !verdict.error) metrics.matchConditionExclusion(entry.spec.name, type, operation);
      },
    },
  });
  return { namespaces: shared.namespaces, resources: shared.catalog, ...(conditions ? { conditions } : {}) };
}
