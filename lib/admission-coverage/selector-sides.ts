import type { LabelSelector, LabelSelectorRequirement } from 'kubernetes-types/meta/v1.js';
import { namespaceLabels } from '../kube/namespaces';
import type { MutatingWebhook } from '../kube/webhook-config';
import { matchNamespaceSelector } from '../match/namespace-selector';
import { matchObjectSelector } from '../match/object-selector';
import type { NamespaceSpec } from '../match/namespace-store';

/** The label every namespace carries, set to its name (namespace defaulting): a namespace cannot be without it. */
const NAME_LABEL = 'kubernetes.io/metadata.name';

/** One side of a selector: what makes it so, or why nothing can. */
export type Side<T> = { made: T } | { impossible: string };

/** Both sides of a webhook's namespaceSelector: a namespace it matches and one it does not. */
export interface NamespaceSides {
  matched: Side<NamespaceSpec>;
  notMatched: Side<NamespaceSpec>;
}

/** Both sides of a webhook's objectSelector: labels it matches and labels it does not. */
export interface ObjectSides {
  matched: Side<Record<string, string>>;
  notMatched: Side<Record<string, string>>;
}

interface Requirement {
  key: string;
  operator: string;
  values: readonly string[];
}

/** matchLabels as the `In` requirements they are, then matchExpressions, as kube's LabelSelectorAsSelector reads them. */
function requirements(selector: LabelSelector): Requirement[] {
  const labels = Object.entries(selector.matchLabels ?? {}).map(([key, value]) => ({ key, operator: 'In', values: [value] }));
  const expressions = (selector.matchExpressions ?? []).map((e: LabelSelectorRequirement) => ({ key: e.key, operator: e.operator, values: e.values ?? [] }));
  return [...labels, ...expressions];
}

/** `{}`, or lists that are empty: every namespace and object matches, so the other side cannot happen. */
export function selectsSomething(selector: LabelSelector | undefined): boolean {
  return !!selector && requirements(selector).length > 0;
}

const selectorText = (selector: LabelSelector): string => JSON.stringify(selector);

/**
 * Labels every requirement is met by, or undefined when two contradict each other. `In` fixes a
 * value (the first no other requirement on its key forbids), `Exists` picks one, `NotIn` and
 * `DoesNotExist` are met by leaving the key out; `present` are keys that are always there. The
 * caller checks the result with the match stage's predicate: this only proposes.
 */
function labelsMeeting(all: readonly Requirement[], present: ReadonlySet<string>): Record<string, string> | undefined {
  const labels: Record<string, string> = {};
  const allowed = (key: string, value: string): boolean =>
    all.every(
      (r) =>
        r.key !== key || (r.operator === 'In' ? r.values.includes(value) : r.operator === 'NotIn' ? !r.values.includes(value) : r.operator !== 'DoesNotExist'),
    );
  // A key always present gets its value elsewhere (a namespace's name), unless `In` fixes it.
  for (const r of all.filter((r) => r.operator === 'In' || (r.operator === 'Exists' && !present.has(r.key)))) {
    if (labels[r.key] !== undefined) continue;
    const value = (r.operator === 'In' ? r.values : ['enabled', 'admission-harness', 'true']).find((v) => allowed(r.key, v));
    if (value === undefined) return undefined;
    labels[r.key] = value;
  }
  return labels;
}

/** Labels that break one requirement (so the selector, an AND of them, fails), for each requirement in turn. */
function labelsBreaking(all: readonly Requirement[], present: ReadonlySet<string>, fresh: string): Record<string, string>[] {
  const out: Record<string, string>[] = [];
  for (const r of all) {
    if (r.operator === 'In') out.push(present.has(r.key) ? { [r.key]: r.values.includes(fresh) ? `${fresh}-x` : fresh } : {});
    else if (r.operator === 'NotIn' && r.values.length > 0) out.push({ [r.key]: r.values[0] as string });
    else if (r.operator === 'Exists' && !present.has(r.key)) out.push({});
    else if (r.operator === 'DoesNotExist') out.push({ [r.key]: present.has(r.key) ? fresh : 'true' });
  }
  return out;
}

/** A namespace of these labels (its name from the name label when a requirement fixes it), judged by the match stage itself. */
function namespaceOf(labels: Record<string, string>, fresh: string): NamespaceSpec {
  const name = labels[NAME_LABEL] ?? fresh;
  const rest = Object.fromEntries(Object.entries(labels).filter(([key]) => key !== NAME_LABEL));
  return { name, labels: rest };
}

function namespaceMatches(spec: Pick<MutatingWebhook, 'namespaceSelector'>, namespace: NamespaceSpec): boolean {
  const lookup = { labels: (name: string) => (name === namespace.name ? namespaceLabels(namespace.name, namespace.labels) : undefined) };
  const request = {
    operation: 'CREATE' as const,
    resource: { group: '', version: 'v1', resource: 'pods' },
    subResource: '',
    name: 'probe',
    namespace: namespace.name,
    kind: { group: '', version: 'v1', kind: 'Pod' },
    object: null,
    oldObject: null,
  };
  return matchNamespaceSelector(spec, request, lookup).matches;
}

function objectMatches(spec: Pick<MutatingWebhook, 'objectSelector'>, labels: Record<string, string>): boolean {
  return matchObjectSelector(spec, { object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'probe', labels } }, oldObject: null }).matches;
}

/**
 * A namespace the webhook's namespaceSelector matches and one it does not, each checked with
 * lib/match's own predicate. `fresh` names a namespace when no requirement fixes the name
 * (`kubernetes.io/metadata.name In [...]` does); every namespace carries that label, so `Exists` on it
 * leaves no namespace outside the selector.
 */
export function namespaceSides(spec: Pick<MutatingWebhook, 'namespaceSelector'>, fresh: { matched: string; notMatched: string }): NamespaceSides {
  const selector = spec.namespaceSelector ?? {};
  const text = selectorText(selector);
  const all = requirements(selector);
  const present = new Set([NAME_LABEL]);
  const meeting = labelsMeeting(all, present);
  const inside = meeting ? namespaceOf(meeting, fresh.matched) : undefined;
  const outside = labelsBreaking(all, present, fresh.notMatched)
    .map((labels) => namespaceOf(labels, fresh.notMatched))
    .find((namespace) => !namespaceMatches(spec, namespace));
  return {
    matched:
      inside && namespaceMatches(spec, inside)
        ? { made: inside }
        : { impossible: `no namespace can match namespaceSelector ${text}: its requirements contradict each other` },
    notMatched: outside
      ? { made: outside }
      : {
          impossible:
            all.length === 0
              ? 'namespaceSelector {} matches every namespace'
              : `every namespace matches namespaceSelector ${text}: each carries the label ${NAME_LABEL}`,
        },
  };
}

/** Labels the webhook's objectSelector matches and labels it does not, each checked with lib/match's own predicate. */
export function objectSides(spec: Pick<MutatingWebhook, 'objectSelector'>): ObjectSides {
  const selector = spec.objectSelector ?? {};
  const text = selectorText(selector);
  const all = requirements(selector);
  const meeting = labelsMeeting(all, new Set());
  const breaking = labelsBreaking(all, new Set(), 'admission-harness').find((labels) => !objectMatches(spec, labels));
  return {
    matched:
      meeting && objectMatches(spec, meeting)
        ? { made: meeting }
        : { impossible: `no object can match objectSelector ${text}: its requirements contradict each other` },
    notMatched: breaking ? { made: breaking } : { impossible: 'objectSelector {} matches every object' },
  };
}
