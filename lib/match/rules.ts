import type { GroupVersionResource, Operation } from '../kube/admission';
import type { RuleWithOperations } from '../kube/webhook-config';
import { isNamespaceResource } from '../kube/gvr';

/** The part of a request a rule looks at; `resource` may be an equivalent of the requested one. */
export interface RuleSubject {
  operation: Operation;
  resource: GroupVersionResource;
  subResource: string;
  namespace: string;
}

const anyOf = (values: readonly string[] | undefined, wanted: string): boolean => (values ?? []).some((v) => v === '*' || v === wanted);

// A `resources` entry is split at its first slash into resource and subresource, either may be
// `*`; no slash means the main resource only, so `*` alone matches no subresource.
function resourceMatches(entries: readonly string[] | undefined, subject: RuleSubject): boolean {
  return (entries ?? []).some((entry) => {
    const slash = entry.indexOf('/');
    const res = slash < 0 ? entry : entry.slice(0, slash);
    const sub = slash < 0 ? '' : entry.slice(slash + 1);
    return (res === '*' || res === subject.resource.resource) && (sub === '*' || sub === subject.subResource);
  });
}

function scopeMatches(scope: RuleWithOperations['scope'], subject: RuleSubject): boolean {
  switch (scope) {
    case 'Namespaced':
      return !isNamespaceResource(subject.resource) && subject.namespace !== '';
    case 'Cluster':
      return isNamespaceResource(subject.resource) || subject.namespace === '';
    default:
      return true;
  }
}

/** One rule (apiserver `rules.Matcher.Matches`): scope, operation, group, version and resource all match. */
export function ruleMatches(rule: RuleWithOperations, subject: RuleSubject): boolean {
  return (
    scopeMatches(rule.scope, subject) &&
    anyOf(rule.operations, subject.operation) &&
    anyOf(rule.apiGroups, subject.resource.group) &&
    anyOf(rule.apiVersions, subject.resource.version) &&
    resourceMatches(rule.resources, subject)
  );
}

/** Index of the first matching rule, or -1. */
export function firstMatchingRule(rules: readonly RuleWithOperations[] | undefined, subject: RuleSubject): number {
  return (rules ?? []).findIndex((rule) => ruleMatches(rule, subject));
}
