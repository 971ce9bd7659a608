import type { CallOutcome } from '../call/call-webhook';
import type { CallingError } from '../call/calling-error';
import type { WebhookEntry } from '../config/load';
import type { Status } from '../kube/admission';
import type { Invocation } from '../match/should-call';
import type { AdmissionAttributes } from '../kube/attributes';
import type { DispatchContext } from './context';
import { dryRunRefusal } from './dry-run';
import type { TraceStep } from './trace';

/** How a matched webhook's call went, before failurePolicy and patches are considered. */
export type MatchedCall = { kind: 'refused'; rejection: Status } | { kind: 'failed'; error: CallingError } | { kind: 'answered'; outcome: CallOutcome };

/**
 * What both dispatchers do for a matched webhook: the dryRun check, the call, and, for a valid
 * answer, its audit annotations (as `<webhook>/<key>`) and warnings, which count for denials too.
 */
export async function callMatched(
  entry: WebhookEntry,
  invocation: Invocation,
  attributes: AdmissionAttributes,
  step: TraceStep,
  context: DispatchContext,
): Promise<MatchedCall> {
  step.decision = 'called';
  const refusal = dryRunRefusal(entry.spec, attributes.dryRun);
  if (refusal && 'rejection' in refusal) {
    step.decision = 'rejected-without-call';
    step.rejection = refusal.rejection;
    return { kind: 'refused', rejection: refusal.rejection };
  }
  if (refusal) return { kind: 'failed', error: refusal.error };
  const outcome = await context.call(entry, attributes, invocation);
  step.outcome = outcome;
  step.durationMs = outcome.durationMs;
  if (outcome.error) return { kind: 'failed', error: outcome.error };
  for (const [key, value] of Object.entries(outcome.auditAnnotations)) context.annotations.add(`${entry.spec.name}/${key}`, value);
  for (const warning of outcome.warnings) context.warnings.add(warning);
  if (outcome.denial) step.rejection = outcome.denial;
  return { kind: 'answered', outcome };
}
