import type { WebhookEntry } from '../config/load';
import type { MutatingWebhook } from '../kube/webhook-config';
import { matchNamespaceSelector, type NamespaceLookup } from '../match/namespace-selector';
import { matchObjectSelector } from '../match/object-selector';
import type { MatchAttributes } from '../match/request';
import type { CoverageEvent, CoverageRequest, PredicateResults } from './event';
import { parseWhy } from './from-why';

/** What the selectors of a webhook say of a request: the two verdicts `h.call` can know without the chain. */
export type SelectorResults = Pick<PredicateResults, 'namespaceSelector' | 'objectSelector'>;

/**
 * The webhook's namespaceSelector and objectSelector on a request, judged by the match stage's own
 * predicates (lib/match, in `shouldCallHook`'s order) and read back as `h.admit`'s trace is read: the
 * namespace's labels as `namespaces` holds them now, the object's and old object's labels. The
 * objectSelector is left out when the namespaceSelector turned the request away, as kube-apiserver
 * never evaluates it then.
 */
export function selectorResults(spec: MutatingWebhook, attributes: MatchAttributes, namespaces: NamespaceLookup): SelectorResults {
  const namespace = matchNamespaceSelector(spec, attributes, namespaces);
  const why = namespace.matches || namespace.error ? [namespace.why, matchObjectSelector(spec, attributes).why] : [namespace.why];
  const { namespaceSelector, objectSelector } = parseWhy(why, spec);
  return { ...(namespaceSelector ? { namespaceSelector } : {}), ...(objectSelector ? { objectSelector } : {}) };
}

/**
 * The event for `h.call`: the webhook was sent the request directly. With what its selectors say of
 * the request (`selectorResults`), it counts as `h.admit` would count the same request: a selector
 * that did not match covers its own cell and nothing else, since kube-apiserver would not have called
 * the webhook; otherwise the call covers the selector cells and the rule and dryRun cells of the
 * request's shape (or is listed as outside the rules). A verdict the harness cannot know (a namespace
 * it was not told of, as replayed fixtures name) covers no selector cell and stops nothing: the call
 * happened. matchConditions are covered by `h.admit`, where kube-apiserver decides them.
 */
export function directCallEvent(entry: WebhookEntry, request: CoverageRequest, selectors: SelectorResults = {}): CoverageEvent {
  const predicates: PredicateResults = {};
  for (const by of ['namespaceSelector', 'objectSelector'] as const) {
    const result = selectors[by];
    if (result === undefined || result === 'error') continue;
    predicates[by] = result;
    if (result === 'not-matched') return { webhook: entry, request, decision: { outcome: 'skipped', by, predicates } };
  }
  return { webhook: entry, request, decision: { outcome: 'called', ...(Object.keys(predicates).length > 0 ? { predicates } : {}) } };
}
