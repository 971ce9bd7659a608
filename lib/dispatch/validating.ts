import type { WebhookEntry } from '../config/load';
import type { Status } from '../kube/admission';
import { requestTimeout } from '../kube/status';
import { shouldCallHook, type Invocation } from '../match/should-call';
import type { AdmissionAttributes } from '../kube/attributes';
import { failedOpenAnnotation } from './annotations';
import { chainOrder } from '../config/order';
import type { DispatchContext } from './context';
import { callMatched } from './call-matched';
import { versionedInvocation } from './versioned';
import { observeTurn, type TurnResult } from './observe';
import type { TraceStep } from './trace';

/**
 * The validating webhooks (apiserver `validating.Dispatch`): every matching one is called in
 * parallel on the final object; errors are collected and the first to arrive is the request's
 * (k8s.io/apiserver/pkg/admission/plugin/webhook/validating/dispatcher.go).
 */
export async function dispatchValidating(attributes: AdmissionAttributes, context: DispatchContext): Promise<Status | undefined> {
  const relevant: { entry: WebhookEntry; invocation: Invocation; step: TraceStep }[] = [];
  for (const { entry, index } of chainOrder(context.webhooks, 'validating')) {
    const decision = shouldCallHook(entry.spec, attributes, context.match);
    if (!decision.call) {
      const step: TraceStep = {
        phase: 'validating',
        round: 0,
        index,
        configuration: entry.configuration,
        webhook: entry.spec.name,
        decision: 'skipped',
        why: decision.why,
      };
      context.trace.steps.push(step);
      if (decision.error) {
        step.decision = 'rejected-without-call';
        step.rejection = decision.error;
        return decision.error;
      }
      continue;
    }
    // Validating indexes (for failed-open annotations) count only the matching webhooks.
    const step: TraceStep = {
      phase: 'validating',
      round: 0,
      index: relevant.length,
      configuration: entry.configuration,
      webhook: entry.spec.name,
      decision: 'called',
      why: decision.why,
    };
    context.trace.steps.push(step);
    relevant.push({ entry, invocation: decision.invocation, step });
  }
  if (relevant.length === 0) return undefined;
  if (context.requestExpired()) return requestTimeout();

  const errors: Status[] = [];
  await Promise.all(
    relevant.map(async ({ entry, invocation, step }) => {
      const error = await callOne(entry, invocation, attributes, step, context);
      if (error) errors.push(error);
    }),
  );
  return errors[0];
}

async function callOne(
  entry: WebhookEntry,
  matched: Invocation,
  attributes: AdmissionAttributes,
  step: TraceStep,
  context: DispatchContext,
): Promise<Status | undefined> {
  const spec = entry.spec;
  const finish = (turn: TurnResult, rejection?: Status): Status | undefined => {
    observeTurn(context.metrics, spec.name, 'validating', attributes.operation, (step.durationMs ?? 0) / 1000, turn);
    if (rejection) step.rejection = rejection;
    return rejection;
  };
  const versioned = await versionedInvocation(matched, attributes, context);
  if ('rejection' in versioned) {
    step.decision = 'rejected-without-call';
    return finish({ kind: 'internal' }, versioned.rejection);
  }
  const call = await callMatched(entry, versioned.invocation, attributes, step, context);
  if (call.kind === 'refused') return finish({ kind: 'internal' }, call.rejection);
  if (call.kind === 'failed') {
    const failedOpen = spec.failurePolicy === 'Ignore';
    if (!failedOpen) return finish({ kind: 'calling-error', code: call.error.code, failedOpen }, call.error.status);
    step.failedOpen = true;
    context.annotations.add(...failedOpenAnnotation('validating', 0, step.index, spec.name));
    return finish({ kind: 'calling-error', code: call.error.code, failedOpen });
  }
  const denial = call.outcome.denial;
  return denial ? finish({ kind: 'denied', code: denial.code ?? 400 }, denial) : finish({ kind: 'ok' });
}
