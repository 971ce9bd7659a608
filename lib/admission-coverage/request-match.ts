import type { GroupVersionResource } from '../kube/admission';
import type { ResourceCatalog } from '../kube/catalog';
import { isNamespaceResource } from '../kube/gvr';
import type { MutatingWebhook } from '../kube/webhook-config';
import { firstMatchingRule, ruleMatches, type RuleSubject } from '../match/rules';
import type { CoverageRequest } from './event';
import { splitEntry } from './rule-targets';

/** Which rule of a webhook a request meets, and as which resource. */
export interface RuleMatch {
  rule: number;
  /** The resource the rule matched: the request's, or (matchPolicy Equivalent) an equivalent one. */
  resource: GroupVersionResource;
  /** Only a resource wildcard (`*`, `*\/*`…) of the rule matched it, no entry naming the resource. */
  viaWildcard: boolean;
}

/** How scope reads for a request, as rules' `scope` judges it: a namespace is Cluster though it carries its own name. */
export function requestScope(request: Pick<CoverageRequest, 'resource' | 'namespace'>): 'Namespaced' | 'Cluster' {
  return isNamespaceResource(request.resource) || request.namespace === '' ? 'Cluster' : 'Namespaced';
}

/**
 * The rule a request meets, as kube-apiserver's `matchRules` finds it (lib/match/should-call.ts):
 * the first rule matching the request itself, else, with matchPolicy Equivalent, each rule in turn
 * against every equivalent resource. The collector works this out itself because kube-apiserver
 * does not: a request the namespaceSelector turned away never reaches the rules, yet coverage must
 * know whether the webhook was registered for it (a configmap turned away proves nothing about a
 * pods webhook's selector).
 */
export function matchRequest(spec: MutatingWebhook, request: CoverageRequest, catalog: ResourceCatalog): RuleMatch | undefined {
  const rules = spec.rules ?? [];
  const subject = (resource: GroupVersionResource): RuleSubject => ({
    operation: request.operation,
    resource,
    subResource: request.subResource,
    namespace: request.namespace,
  });
  const found = (rule: number, resource: GroupVersionResource): RuleMatch => ({
    rule,
    resource,
    viaWildcard: !namesResource(rules[rule]?.resources ?? [], resource.resource, request.subResource),
  });
  const exact = firstMatchingRule(rules, subject(request.resource));
  if (exact >= 0) return found(exact, request.resource);
  if (spec.matchPolicy !== 'Equivalent') return undefined;
  const equivalents = catalog.equivalentResources(request.resource, request.subResource);
  for (const [index, rule] of rules.entries()) {
    for (const equivalent of equivalents) if (ruleMatches(rule, subject(equivalent))) return found(index, equivalent);
  }
  return undefined;
}

// Whether an entry naming the resource itself (not `*`) matches resource/subResource.
function namesResource(entries: readonly string[], resource: string, subResource: string): boolean {
  return entries.some((entry) => {
    const split = splitEntry(entry);
    return split.resource === resource && (split.subResource === '*' || split.subResource === subResource);
  });
}
