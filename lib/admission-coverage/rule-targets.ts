import type { GroupVersionResource, Operation } from '../kube/admission';
import { gvkOf, gvrOf, type CatalogEntry, type ResourceCatalog, type SubresourceInfo } from '../kube/catalog';
import type { RuleWithOperations } from '../kube/webhook-config';
import { exemptionOf } from '../match/exempt';
import { resourceCell, type CellScope, type ResourceCell } from './cell';

/**
 * A resource (or subresource) a rule may send to the webhook, with what the catalog knows of it.
 * `operations` and `scope` are undefined for a resource the catalog does not know (a CRD the
 * harness was not given): the rule alone then says which operations and scope its cells have.
 */
export interface RuleTarget {
  group: string;
  resource: string;
  subResource: string;
  /** The operations under which its requests reach admission at all (`pods/log`: none). */
  operations?: readonly Operation[];
  scope?: 'Namespaced' | 'Cluster';
}

const anyOf = (values: readonly string[] | undefined, wanted: string): boolean => (values ?? []).some((v) => v === '*' || v === wanted);

/** A `resources` entry split as apiserver splits it: at the first slash; no slash is the resource itself. */
export function splitEntry(entry: string): { resource: string; subResource: string } {
  const slash = entry.indexOf('/');
  return slash < 0 ? { resource: entry, subResource: '' } : { resource: entry.slice(0, slash), subResource: entry.slice(slash + 1) };
}

/**
 * The entries whose resource part is `*` (`*`, `*\/*`, `*\/status`). They are not expanded against
 * the catalog: a rule that names no resource says the webhook does not care which, and one cell per
 * served resource × operation (well over a hundred) would ask for tests nobody means to write.
 */
export function wildcardEntries(rule: RuleWithOperations): string[] {
  // A rule without operations, groups or versions matches nothing, wildcard or not.
  if ((rule.operations ?? []).length === 0 || (rule.apiGroups ?? []).length === 0 || (rule.apiVersions ?? []).length === 0) return [];
  return (rule.resources ?? []).filter((entry) => splitEntry(entry).resource === '*');
}

function scopeOf(entry: CatalogEntry): 'Namespaced' | 'Cluster' {
  return entry.namespaced ? 'Namespaced' : 'Cluster';
}

// Requests kube-apiserver never sends to any webhook (the admission configuration kinds, the
// virtual review resources) have no cell: no test could cover them.
function exempt(entry: CatalogEntry, sub: SubresourceInfo | undefined): boolean {
  const kind = sub ? sub.kind : gvkOf(entry);
  const attributes = {
    operation: 'CREATE' as const,
    kind,
    resource: gvrOf(entry),
    subResource: sub?.name ?? '',
    name: '',
    namespace: '',
    object: null,
    oldObject: null,
  };
  return exemptionOf(attributes) !== undefined;
}

function targetOf(entry: CatalogEntry, sub: SubresourceInfo | undefined): RuleTarget {
  return {
    group: entry.group,
    resource: entry.resource,
    subResource: sub?.name ?? '',
    operations: sub ? sub.operations : entry.operations,
    scope: scopeOf(entry),
  };
}

/**
 * What one concrete entry (`pods`, `pods/exec`, `deployments/*`) of a rule names in the catalog.
 * A resource served, but in none of the rule's versions, or a subresource the catalog's resource
 * does not have, yields nothing: kube-apiserver could never match it (lint's business, not a cell
 * no test can cover). A resource the catalog does not know at all is kept, scope and operations
 * unknown, since the manifest names it on purpose.
 */
function entryTargets(rule: RuleWithOperations, entry: string, catalog: ResourceCatalog): RuleTarget[] {
  const { resource, subResource } = splitEntry(entry);
  const groups = rule.apiGroups ?? [];
  const named = catalog.resources().filter((e) => e.resource === resource && anyOf(groups, e.group));
  const served = named.filter((e) => anyOf(rule.apiVersions, e.version));
  if (served.length === 0) {
    if (named.length > 0) return [];
    return (groups.includes('*') ? ['*'] : groups).map((group) => ({ group, resource, subResource }));
  }
  // One target per group: the versions of a group/resource are one resource to a test (see ResourceCell).
  const byGroup = new Map<string, CatalogEntry>();
  for (const e of served) if (!byGroup.has(e.group)) byGroup.set(e.group, e);
  const targets: RuleTarget[] = [];
  for (const e of byGroup.values()) {
    const subs: (SubresourceInfo | undefined)[] =
      subResource === '' ? [undefined] : subResource === '*' ? [undefined, ...e.subresources] : e.subresources.filter((s) => s.name === subResource);
    for (const sub of subs) if (!exempt(e, sub)) targets.push(targetOf(e, sub));
  }
  return targets;
}

/** Every concrete target of a rule, in entry order; wildcard entries are left to `wildcardEntries`. */
export function ruleTargets(rule: RuleWithOperations, catalog: ResourceCatalog): RuleTarget[] {
  if ((rule.apiVersions ?? []).length === 0) return [];
  return (rule.resources ?? []).filter((entry) => splitEntry(entry).resource !== '*').flatMap((entry) => entryTargets(rule, entry, catalog));
}

/**
 * The target a request showed: the resource its rule matched (after matchPolicy Equivalent), with
 * what the catalog knows of it. An unknown resource's scope is the request's own.
 */
export function requestTarget(resource: GroupVersionResource, subResource: string, scope: 'Namespaced' | 'Cluster', catalog: ResourceCatalog): RuleTarget {
  const entry =
    catalog.resourceByName(resource.group, resource.version, resource.resource) ??
    catalog.resources().find((e) => e.group === resource.group && e.resource === resource.resource);
  if (!entry) return { group: resource.group, resource: resource.resource, subResource, scope };
  if (subResource === '') return targetOf(entry, undefined);
  const sub = entry.subresources.find((s) => s.name === subResource);
  return sub ? targetOf(entry, sub) : { group: entry.group, resource: entry.resource, subResource, scope: scopeOf(entry) };
}

/**
 * The cells rule `index` gives `target`: its operations, intersected with those the catalog admits
 * (pods are never CONNECTed, pods/exec only is), in the target's scope if the rule's scope allows it.
 */
export function targetCells(rule: RuleWithOperations, index: number, target: RuleTarget): ResourceCell[] {
  const ruleScope = rule.scope ?? '*';
  let scope: CellScope = ruleScope;
  if (target.scope) {
    if (ruleScope !== '*' && ruleScope !== target.scope) return [];
    scope = target.scope;
  }
  const operations = (rule.operations ?? []) as (Operation | '*')[];
  const admitted = target.operations;
  const cellOperations: (Operation | '*')[] = operations.includes('*')
    ? admitted
      ? [...admitted]
      : ['*']
    : operations.filter((op) => !admitted || admitted.includes(op as Operation));
  return [...new Set(cellOperations)].map((operation) =>
    resourceCell({ operation, group: target.group, resource: target.resource, subResource: target.subResource, scope, rules: [index] }),
  );
}
