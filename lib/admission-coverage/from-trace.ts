import type { WebhookEntry } from '../config/load';
import type { TraceStep } from '../dispatch/trace';
import type { MatchDecision } from '../match/should-call';
import type { ConditionOutcome, CoverageEvent, CoverageRequest } from './event';
import { webhookId } from './event';
import { decisionFromWhy } from './from-why';

/**
 * A trace step as coverage reads it. `matchConditions` is not (yet) a TraceStep field: the trace's
 * sentence names only the first false condition, so until the dispatchers copy every condition's
 * result onto the step, a `false` verdict covers that one condition's `false` cell and no other.
 */
export type CoverageTraceStep = Pick<TraceStep, 'phase' | 'configuration' | 'webhook' | 'decision' | 'why' | 'plugin' | 'policy' | 'rejection'> & {
  matchConditions?: readonly ConditionOutcome[];
};

/**
 * What coverage reads of a trace step, and nothing else: a harness keeps these for every h.admit until
 * its coverage is read, and the step's outcome (review, body) is not for it to hold on to.
 */
export function coverageStep(step: CoverageTraceStep): CoverageTraceStep {
  const { phase, configuration, webhook, decision, why, plugin, policy, rejection, matchConditions } = step;
  return { phase, configuration, webhook, decision, why, plugin, policy, rejection, ...(matchConditions ? { matchConditions } : {}) };
}

/** Whether a step is a webhook's (not a built-in plugin's, a policy's or the registry's). */
function webhookStep(step: CoverageTraceStep): step is CoverageTraceStep & { phase: 'mutating' | 'validating' } {
  return (step.phase === 'mutating' || step.phase === 'validating') && !step.plugin && !step.policy;
}

/**
 * The event for one step of an `h.admit` trace: `called` and `not-reinvoked` steps met every
 * predicate; `skipped` ones did not; `rejected-without-call` is either (a predicate's error, or the
 * dryRun refusal of a webhook with side effects), which the sentences tell apart. Undefined for a
 * step that is no decision of `entry`'s.
 */
export function eventFromTraceStep(entry: WebhookEntry, step: CoverageTraceStep, request: CoverageRequest): CoverageEvent | undefined {
  if (!webhookStep(step) || step.phase !== entry.type || step.configuration !== entry.configuration || step.webhook !== entry.spec.name) return undefined;
  const called = step.decision === 'called' || step.decision === 'not-reinvoked' ? true : step.decision === 'skipped' ? false : undefined;
  return { webhook: entry, request, decision: decisionFromWhy(step.why, entry.spec, called, step.matchConditions) };
}

/**
 * The events of a whole trace (`h.admit`'s `result.trace.steps`), each step matched to its webhook
 * by phase, configuration and name; steps of plugins, policies, the registry and webhooks not in
 * `webhooks` are left out, but a refusal (by any of them) makes an `unreached` event for each webhook
 * of `webhooks` the chain never came to. `request` is the review's attributes: every step shares its operation,
 * resource, namespace and dryRun.
 */
export function eventsFromTrace(steps: readonly CoverageTraceStep[], request: CoverageRequest, webhooks: readonly WebhookEntry[]): CoverageEvent[] {
  const byId = new Map(webhooks.map((entry) => [webhookId(entry), entry] as const));
  const events: CoverageEvent[] = [];
  const decided = new Set<string>();
  for (const step of steps) {
    if (!webhookStep(step)) continue;
    const id = webhookId({ type: step.phase, configuration: step.configuration, name: step.webhook });
    decided.add(id);
    const entry = byId.get(id);
    const event = entry && eventFromTraceStep(entry, step, request);
    if (event) events.push(event);
  }
  // A refusal ends the chain: every webhook without a step never had its turn.
  const refusal = steps.find((step) => step.rejection);
  if (refusal) {
    const refusedBy = refuserOf(refusal);
    for (const [id, entry] of byId) if (!decided.has(id)) events.push({ webhook: entry, request, decision: { outcome: 'unreached', refusedBy } });
  }
  return events;
}

/** How coverage names the step that refused a request: `ServiceAccount (built-in plugin)`, `validating pod-policy/image.example.com`… */
export function refuserOf(step: CoverageTraceStep): string {
  if (step.plugin) return `${step.webhook} (built-in plugin)`;
  if (step.policy) return `${step.policy.kind} ${step.configuration}`;
  if (step.phase === 'registry') return "the API's validation of the object";
  return `${step.phase} ${step.configuration}/${step.webhook}`;
}

/**
 * The event for a `shouldCallHook` decision, for a caller that matched without the chain; an
 * `h.explain` Explanation reads as `{ call: e.decision === 'called', why: e.reasons }`. `conditions`
 * (every condition's result) is not a MatchDecision field yet; once it is, it is read from there.
 */
export function eventFromDecision(
  entry: WebhookEntry,
  decision: Pick<MatchDecision, 'call' | 'why'> & { conditions?: readonly ConditionOutcome[] },
  request: CoverageRequest,
): CoverageEvent {
  return { webhook: entry, request, decision: decisionFromWhy(decision.why, entry.spec, decision.call, decision.conditions) };
}
