import type { GroupVersionKind, GroupVersionResource, Status } from '../kube/admission';
import type { MatchResources, NamedRuleWithOperations } from '../kube/admission-policy';
import { formatGvr } from '../kube/gvr';
import { internalError } from '../kube/status';
import { matchNamespaceSelector, type NamespaceLookup } from '../match/namespace-selector';
import { matchObjectSelector } from '../match/object-selector';
import type { MatchAttributes } from '../match/request';
import { ruleMatches } from '../match/rules';
import { formatResource, type EquivalentResourceMapper } from '../match/should-call';

/** What a policy's matchConstraints (or a binding's matchResources) decided, and why. */
export type ResourcesVerdict =
  | { matches: true; resource: GroupVersionResource; kind: GroupVersionKind; why: string[]; error?: undefined }
  | { matches: false; why: string[]; error?: Status };

export interface PolicyMatchContext {
  namespaces: NamespaceLookup;
  resources: EquivalentResourceMapper;
}

/**
 * apiserver plugin/policy/matching `Matcher.Matches`, in its order: namespaceSelector, objectSelector,
 * excludeResourceRules, resourceRules (empty: everything) with matchPolicy, then the selector errors
 * deferred until the rules matched. Unlike a webhook's, these rules may name resources
 * (`resourceNames`), and an excluded request is never an error.
 */
export function matchResources(match: MatchResources, attributes: MatchAttributes, context: PolicyMatchContext): ResourcesVerdict {
  const why: string[] = [];
  const namespace = matchNamespaceSelector(match, attributes, context.namespaces);
  why.push(namespace.why);
  if (!namespace.matches && !namespace.error) return { matches: false, why };
  const object = matchObjectSelector(match, attributes);
  why.push(object.why);
  if (!object.matches && !object.error) return { matches: false, why };

  const excluded = matchNamedRules(match.excludeResourceRules ?? [], match.matchPolicy, attributes, context.resources);
  if ('error' in excluded) return { matches: false, why: [...why, excluded.why], error: excluded.error };
  if (excluded.matched) return { matches: false, why: [...why, `excluded: excludeResourceRules[${excluded.index}] matched ${describe(attributes)}`] };

  let resource = attributes.resource;
  let kind = attributes.kind;
  const rules = match.resourceRules ?? [];
  if (rules.length === 0) why.push('no resourceRules: every resource matches');
  else {
    const matched = matchNamedRules(rules, match.matchPolicy, attributes, context.resources);
    if ('error' in matched) return { matches: false, why: [...why, matched.why], error: matched.error };
    why.push(matched.why);
    if (!matched.matched) return { matches: false, why };
    resource = matched.resource;
    kind = matched.kind;
  }
  if (namespace.error) return { matches: false, why, error: namespace.error };
  if (object.error) return { matches: false, why, error: object.error };
  return { matches: true, resource, kind, why };
}

type RulesVerdict =
  | { matched: true; index: number; resource: GroupVersionResource; kind: GroupVersionKind; why: string }
  | { matched: false; why: string }
  | { error: Status; why: string };

/** matching.go `matchesResourceRules`: exact first (with resourceNames), then, for Equivalent, each rule against every equivalent resource. */
function matchNamedRules(
  rules: readonly NamedRuleWithOperations[],
  matchPolicy: MatchResources['matchPolicy'],
  attributes: MatchAttributes,
  resources: EquivalentResourceMapper,
): RulesVerdict {
  const { operation, namespace, subResource } = attributes;
  const requested = describe(attributes);
  for (const [index, rule] of rules.entries()) {
    if (!ruleMatches(rule, { operation, namespace, subResource, resource: attributes.resource })) continue;
    const names = rule.resourceNames ?? [];
    if (names.length === 0) return { matched: true, index, resource: attributes.resource, kind: attributes.kind, why: `rules[${index}] matched ${requested}` };
    if (names.includes(attributes.name))
      return {
        matched: true,
        index,
        resource: attributes.resource,
        kind: attributes.kind,
        why: `rules[${index}] matched ${requested} named ${JSON.stringify(attributes.name)}`,
      };
  }
  if (matchPolicy !== 'Equivalent') return { matched: false, why: `no rule matched ${requested} (matchPolicy ${matchPolicy ?? 'Exact'})` };
  const equivalents = resources.equivalentResources(attributes.resource, subResource).filter((gvr) => formatGvr(gvr) !== formatGvr(attributes.resource));
  // As in kube, resourceNames are not consulted for an equivalent resource.
  for (const [index, rule] of rules.entries()) {
    for (const equivalent of equivalents) {
      if (!ruleMatches(rule, { operation, namespace, subResource, resource: equivalent })) continue;
      const kind = resources.kindFor(equivalent, subResource);
      if (!kind)
        return {
          error: internalError(`unable to convert to ${formatGvr(equivalent)}: unknown kind`),
          why: `rules[${index}] matched the equivalent ${formatResource(equivalent, subResource)}, whose kind is unknown`,
        };
      return {
        matched: true,
        index,
        resource: equivalent,
        kind,
        why: `rules[${index}] matched ${requested} through its equivalent ${formatResource(equivalent, subResource)} (matchPolicy Equivalent)`,
      };
    }
  }
  return { matched: false, why: `no rule matched ${requested} or any equivalent resource` };
}

function describe(attributes: MatchAttributes): string {
  return `${attributes.operation} ${formatResource(attributes.resource, attributes.subResource)}`;
}
