import type { WebhookEntry } from '../config/load';
import type { AdmissionAttributes } from '../kube/attributes';
import type { WebhookType } from '../kube/webhook-config';
import type { ConditionResult } from './cell';

/**
 * What coverage reads of a request: the fields that pick cells. A Review's `attributes` (or the
 * chain's AdmissionAttributes) can be passed as is; these fields are the same at every step of one
 * `h.admit` (mutation changes the object, not its operation, resource, namespace or dryRun).
 */
export type CoverageRequest = Pick<AdmissionAttributes, 'operation' | 'resource' | 'subResource' | 'namespace' | 'dryRun'>;

/** A webhook named as a TraceStep names it; its type tells a mutating from a validating configuration of the same name. */
export interface WebhookRef {
  type: WebhookType;
  configuration: string;
  name: string;
}

/** kube-apiserver's predicates, in the order it decides them (`shouldCallHook`). */
export type PredicateName = 'namespaceSelector' | 'objectSelector' | 'rules' | 'matchConditions';

/**
 * A selector's verdict. `not-applicable`: a cluster-scoped request, which the namespaceSelector does
 * not look at. `error`: an invalid selector, or a namespace that does not exist. Neither covers a cell.
 */
export type SelectorResult = 'matched' | 'not-matched' | 'not-applicable' | 'error';

export interface ConditionOutcome {
  name: string;
  result: ConditionResult;
}

/** What each predicate said; a predicate that was not evaluated, or whose verdict is unknown, is absent. */
export interface PredicateResults {
  namespaceSelector?: SelectorResult;
  objectSelector?: SelectorResult;
  /** The conditions whose result is known; the others are left out (they cover nothing). */
  matchConditions?: readonly ConditionOutcome[];
}

/**
 * What kube-apiserver decided for one webhook and one request. `called`: every predicate let it
 * through, so the registration matched, whatever became of the call (answered, failed, refused for
 * dryRun because of sideEffects, or not reinvoked in round 1). `skipped`: `by` turned it away (or
 * failed, rejecting the request: see its result in `predicates`). `unreached`: the chain ended before
 * the webhook's turn, refused by `refusedBy` (a built-in plugin, a policy, the registry's validation,
 * an earlier webhook); it covers no cell, and is listed so a suite sees why a webhook was never sent
 * requests its rules match.
 */
export type CoverageDecision =
  | { outcome: 'called'; predicates?: PredicateResults }
  | { outcome: 'skipped'; by: PredicateName; predicates?: PredicateResults }
  | { outcome: 'unreached'; refusedBy: string };

/** One webhook decision, as the harness knows it after making it. */
export interface CoverageEvent {
  webhook: WebhookEntry | WebhookRef;
  request: CoverageRequest;
  decision: CoverageDecision;
}

/** `mutating/config/name`: what tells webhooks apart (a webhook's name is unique within its configuration). */
export function webhookId(webhook: WebhookEntry | WebhookRef): string {
  const name = 'spec' in webhook ? webhook.spec.name : webhook.name;
  return `${webhook.type}/${webhook.configuration}/${name}`;
}
