import type { MutatingWebhook } from '../kube/webhook-config';
import type { ConditionOutcome, CoverageDecision, PredicateName, PredicateResults, SelectorResult } from './event';

/**
 * Reads kube-apiserver's predicates back from the `why` sentences `shouldCallHook` writes (and the
 * trace, `h.explain` and `MatchDecision` carry): one sentence per predicate evaluated, in its order.
 * The sentences are lib/match's; test/coverage produces them with the real shouldCallHook, so a
 * change of wording fails there rather than silently covering nothing.
 */

type RulesResult = 'matched' | 'not-matched' | 'error';

interface ParsedWhy extends PredicateResults {
  rules?: RulesResult;
  /** Whether a matchConditions sentence was there, even if no single condition's result could be read. */
  conditionsEvaluated?: 'all-true' | 'false' | 'error';
}

// lib/match/namespace-selector.ts
function namespaceSelector(why: string): SelectorResult | undefined {
  if (why === 'cluster-scoped request: namespaceSelector does not apply') return 'not-applicable';
  if (why === 'namespaceSelector {} matches every namespace') return 'matched';
  const verdict = /^namespaceSelector \{[^}]*\} (matched|did not match) /.exec(why);
  if (verdict) return verdict[1] === 'matched' ? 'matched' : 'not-matched';
  if (/^namespace ".*" does not exist$/.test(why) || why.startsWith('namespaceSelector is invalid: ')) return 'error';
  return undefined;
}

// lib/match/object-selector.ts
function objectSelector(why: string): SelectorResult | undefined {
  if (why === 'objectSelector {} matches every object') return 'matched';
  if (/^objectSelector \{[^}]*\} matched neither object nor oldObject$/.test(why)) return 'not-matched';
  if (/^objectSelector \{[^}]*\} matched$/.test(why)) return 'matched';
  if (why.startsWith('objectSelector is invalid: ')) return 'error';
  return undefined;
}

// lib/match/should-call.ts matchRules: a match through an equivalent whose kind is unknown is a 500.
function rules(why: string): RulesResult | undefined {
  if (/^rules\[\d+\] matched .*, whose kind is unknown$/.test(why)) return 'error';
  if (/^rules\[\d+\] matched /.test(why)) return 'matched';
  if (why.startsWith('no rule matched ')) return 'not-matched';
  return undefined;
}

const FAILED = [
  /^matchConditions failed and failurePolicy Ignore skips the webhook: (.*)$/s,
  /^matchConditions failed with failurePolicy Fail, rejecting the request: (.*)$/s,
];

/**
 * lib/cel/match-conditions.ts. Every condition is evaluated, but the sentence tells only so much:
 * all true; the first false one (the others unknown: true or failed); or the failures, joined as
 * `expression '<expression>' resulted in error: …` — so a condition whose expression is not among
 * them was true (no condition was false, or that would have been the sentence).
 */
function matchConditions(why: string, spec: MutatingWebhook): { outcomes: ConditionOutcome[]; evaluated: ParsedWhy['conditionsEvaluated'] } | undefined {
  const conditions = spec.matchConditions ?? [];
  if (/^all \d+ matchConditions evaluated to true$/.test(why))
    return { outcomes: conditions.map(({ name }) => ({ name, result: 'true' })), evaluated: 'all-true' };
  const falsy = /^matchConditions (".*") evaluated to false$/.exec(why);
  if (falsy) {
    const name = JSON.parse(falsy[1] as string) as string;
    return { outcomes: conditions.some((c) => c.name === name) ? [{ name, result: 'false' }] : [], evaluated: 'false' };
  }
  for (const pattern of FAILED) {
    const failed = pattern.exec(why);
    if (!failed) continue;
    const message = failed[1] as string;
    return {
      outcomes: conditions.map(({ name, expression }) => ({
        name,
        result: message.includes(`expression '${expression}' resulted in error: `) ? 'error' : 'true',
      })),
      evaluated: 'error',
    };
  }
  return undefined;
}

/** Each predicate's verdict from the sentences, whatever order they come in (each is recognised by its wording). */
export function parseWhy(why: readonly string[], spec: MutatingWebhook): ParsedWhy {
  const parsed: ParsedWhy = {};
  for (const sentence of why) {
    const ns = parsed.namespaceSelector === undefined ? namespaceSelector(sentence) : undefined;
    if (ns) {
      parsed.namespaceSelector = ns;
      continue;
    }
    const object = parsed.objectSelector === undefined ? objectSelector(sentence) : undefined;
    if (object) {
      parsed.objectSelector = object;
      continue;
    }
    const rule = parsed.rules === undefined ? rules(sentence) : undefined;
    if (rule) {
      parsed.rules = rule;
      continue;
    }
    const conditions = matchConditions(sentence, spec);
    if (conditions) {
      parsed.matchConditions = conditions.outcomes;
      parsed.conditionsEvaluated = conditions.evaluated;
    }
  }
  return parsed;
}

/**
 * The predicate that turned the request away, in `shouldCallHook`'s order: a selector that did not
 * match stops everything after it, while a selector's error waits for the rules (it fails the
 * request only if they match); undefined when every predicate let the request through.
 */
export function decidingPredicate(parsed: ParsedWhy): PredicateName | undefined {
  if (parsed.namespaceSelector === 'not-matched') return 'namespaceSelector';
  if (parsed.objectSelector === 'not-matched') return 'objectSelector';
  if (parsed.rules !== 'matched') return 'rules';
  if (parsed.namespaceSelector === 'error') return 'namespaceSelector';
  if (parsed.objectSelector === 'error') return 'objectSelector';
  if (parsed.conditionsEvaluated && parsed.conditionsEvaluated !== 'all-true') return 'matchConditions';
  return undefined;
}

/**
 * The decision the sentences describe. `called`, when known (a trace step that was called or not
 * reinvoked, a MatchDecision's `call`), wins over the sentences; otherwise a decision whose every
 * predicate passed is a call (a dryRun refusal traced as rejected-without-call).
 */
export function decisionFromWhy(why: readonly string[], spec: MutatingWebhook, called?: boolean, structured?: readonly ConditionOutcome[]): CoverageDecision {
  const parsed = parseWhy(why, spec);
  const predicates: PredicateResults = {
    ...(parsed.namespaceSelector ? { namespaceSelector: parsed.namespaceSelector } : {}),
    ...(parsed.objectSelector ? { objectSelector: parsed.objectSelector } : {}),
    ...(structured ? { matchConditions: structured } : parsed.matchConditions ? { matchConditions: parsed.matchConditions } : {}),
  };
  if (called === true) return { outcome: 'called', predicates };
  const by = decidingPredicate(parsed);
  if (by) return { outcome: 'skipped', by, predicates };
  // The sentences say every predicate passed, yet the caller says it was not called: trust the caller.
  if (called === false) return { outcome: 'skipped', by: parsed.conditionsEvaluated ? 'matchConditions' : 'rules', predicates };
  return { outcome: 'called', predicates };
}
