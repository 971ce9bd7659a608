/**
 * Which objects a ResourceQuota's scopes select.
 *
 * Upstream: `getScopeSelectorsFromQuota` (in both `staging/src/k8s.io/apiserver/pkg/admission/plugin/
 * resourcequota/controller.go` and `staging/src/k8s.io/apiserver/pkg/quota/v1/generic/evaluator.go`)
 * and `ScopedResourceSelectorRequirementsAsSelector` (`pkg/apis/core/v1/helper/helpers.go`): each
 * `spec.scopes` entry is an `Exists` requirement, followed by `spec.scopeSelector.matchExpressions`.
 */
import { compileSelector } from '../../kube/label-selector';
import { listAt, objectAt, stringAt, type JsonRecord } from '../../kube/record';

/** A ScopedResourceSelectorRequirement. */
export interface ScopeSelector {
  scopeName: string;
  operator: string;
  values: string[];
}

/** getScopeSelectorsFromQuota. */
export function scopeSelectorsOf(quota: JsonRecord): ScopeSelector[] {
  const spec = objectAt(quota, 'spec');
  const scopes = Array.isArray(spec.scopes) ? spec.scopes.filter((s): s is string => typeof s === 'string') : [];
  const expressions = listAt(objectAt(spec, 'scopeSelector'), 'matchExpressions');
  return [
    ...scopes.map((scopeName) => ({ scopeName, operator: 'Exists', values: [] })),
    ...expressions.map((e) => ({
      scopeName: stringAt(e, 'scopeName') ?? '',
      operator: stringAt(e, 'operator') ?? '',
      values: Array.isArray(e.values) ? e.values.filter((v): v is string => typeof v === 'string') : [],
    })),
  ];
}

/**
 * The requirement as a label selector on the key `scopeName`, matched against `labels` (e.g.
 * `{ PriorityClass: "high" }`, or none when the object has no value for the scope). ResourceQuota
 * validation has already refused malformed requirements; one that still cannot compile matches nothing.
 */
export function scopeSelectorMatches(selector: ScopeSelector, labels: Record<string, string> | undefined): boolean {
  try {
    const compiled = compileSelector({ matchExpressions: [{ key: selector.scopeName, operator: selector.operator, values: selector.values }] });
    return compiled.matches(labels);
  } catch {
    return false;
  }
}
