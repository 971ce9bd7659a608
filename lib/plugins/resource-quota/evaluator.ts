/**
 * What quota admission asks of the evaluator for a kind of object, and the request it describes.
 *
 * Upstream: the `quota.Evaluator` interface (`staging/src/k8s.io/apiserver/pkg/quota/v1/interfaces.go`)
 * and `generic.Matches` (`staging/src/k8s.io/apiserver/pkg/quota/v1/generic/evaluator.go`). The parts
 * that only serve the admission configuration's limitedResources (MatchingScopes,
 * UncoveredQuotaScopes) and the quota controller (UsageStats) are left out.
 */
import type { Operation } from '../../kube/admission';
import type { JsonRecord } from '../../kube/record';
import type { PluginCluster } from '../plugin';
import type { ResourceList } from './resource-list';
import { scopeSelectorsOf, type ScopeSelector } from './scope-selectors';

/** The parts of a request's admission attributes quota admission reads. */
export interface QuotaAttributes {
  operation: Operation;
  /** The request's group and plural resource (`{ group: '', resource: 'pods' }`). */
  resource: { group: string; resource: string };
  /** `''` for the object itself, else e.g. `resize` or `status`. */
  subResource?: string;
  /** The request's kind; only `Namespace` matters (a namespace's creation is never charged). */
  kind?: { group: string; kind: string };
  /** The request's name (the object's name on create); the 403 names it. */
  name?: string;
  namespace: string;
  /** The object as it would be stored: after every mutation, defaulting and validating webhook. */
  object: JsonRecord | null;
  /** The stored object, on update. */
  oldObject: JsonRecord | null;
  dryRun?: boolean;
}

/** Settings of the evaluation itself. */
export interface QuotaContext {
  /** The time a pod past its deletion grace period is judged against (QuotaV1Pod). */
  now: Date;
  /**
   * The cluster's objects, as the evaluators' informers see them: the claim evaluator reads the
   * DeviceClasses, and the pod and sibling claims of a claim made for a pod's extended resources.
   */
  cluster?: PluginCluster;
}

/** quota.Evaluator, as admission uses it. Usage and Constraints take the (non-null) object. */
export interface QuotaEvaluator {
  /** Whether this request can change the usage this evaluator measures. */
  handles(attributes: QuotaAttributes): boolean;
  /** The names among a quota's hard limits that this evaluator measures. */
  matchingResources(names: readonly string[]): string[];
  /** Whether an object falls under one scope requirement (false for kinds without scopes). */
  matchesScope(selector: ScopeSelector, object: JsonRecord): boolean;
  /** The `must specify …` error when the object leaves out what a quota requires, else undefined. */
  constraints(required: readonly string[], object: JsonRecord): string | undefined;
  usage(object: JsonRecord, context: QuotaContext): ResourceList;
}

/**
 * generic.Matches: the quota limits at least one resource the evaluator measures (judged on
 * `status.hard`, so a quota without status matches nothing) and the object falls under every scope.
 */
export function quotaMatches(evaluator: QuotaEvaluator, quota: JsonRecord, hard: ResourceList, object: JsonRecord): boolean {
  if (evaluator.matchingResources([...hard.keys()]).length === 0) return false;
  return scopeSelectorsOf(quota).every((selector) => evaluator.matchesScope(selector, object));
}

/** `generic.ObjectCountQuotaResourceNameFor`: `count/<resource>` or `count/<resource>.<group>`. */
export function objectCountName(resource: { group: string; resource: string }): string {
  return resource.group === '' ? `count/${resource.resource}` : `count/${resource.resource}.${resource.group}`;
}
