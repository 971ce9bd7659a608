import type { WebhookEntry } from '../config/load';
import type { KubeObject, Status } from '../kube/admission';
import { jsonEqual } from '../kube/json';
import { requestTimeout } from '../kube/status';
import { shouldCallHook, type Invocation } from '../match/should-call';
import type { AdmissionAttributes } from '../review/attributes';
import { failedOpenAnnotation, mutationAnnotation, patchAnnotation } from './annotations';
import { chainOrder } from '../config/order';
import type { DispatchContext } from './context';
import { callMatched } from './call-matched';
import { observeTurn, type TurnResult } from './observe';
import { patchObject } from './patch-object';
import type { TraceStep } from './trace';

/** Reinvocation bookkeeping across the two rounds (apiserver `webhookReinvokeContext`). */
class ReinvocationState {
  private previouslyInvoked = new Set<string>();
  readonly toReinvoke = new Set<string>();
  requested = false;

  /** A webhook changed the object: every IfNeeded webhook invoked since the last change runs again. */
  objectChanged(): void {
    for (const id of this.previouslyInvoked) this.toReinvoke.add(id);
    this.previouslyInvoked = new Set();
    this.requested = true;
  }

  invoked(id: string): void {
    this.previouslyInvoked.add(id);
  }
}

export interface MutatingResult {
  object: KubeObject | null;
  rejection?: Status;
}

/**
 * The mutating webhooks of the chain (apiserver `mutating.Dispatch`): called one at a time in order,
 * each seeing the object as earlier ones left it; round 1 re-invokes the IfNeeded webhooks a later
 * change concerned (KUBE-FACTS §9). The first rejection ends the request.
 */
export async function dispatchMutating(attributes: AdmissionAttributes, context: DispatchContext): Promise<MutatingResult> {
  const chain = chainOrder(context.webhooks, 'mutating');
  const state = new ReinvocationState();
  let object = attributes.object;
  for (const round of [0, 1] as const) {
    if (round === 1 && !state.requested) break;
    for (const { entry, index } of chain) {
      const spec = entry.spec;
      const id = `${entry.configuration}/${spec.name}/0`;
      const step: TraceStep = { phase: 'mutating', round, index, configuration: entry.configuration, webhook: spec.name, decision: 'skipped', why: [] };
      context.trace.steps.push(step);
      const current = { ...attributes, object };
      const decision = shouldCallHook(spec, current, context.match);
      step.why = decision.why;
      if (!decision.call) {
        if (decision.error) return reject(step, object, decision.error, 'rejected-without-call');
        continue;
      }
      // A webhook not scheduled in round 0 is never called in round 1, even if it now matches.
      if (round === 1 && !state.toReinvoke.has(id)) {
        step.decision = 'not-reinvoked';
        continue;
      }
      const result = await callOne(entry, decision.invocation, current, round, index, step, context);
      if (result.changed) state.objectChanged();
      if (spec.reinvocationPolicy === 'IfNeeded') state.invoked(id);
      if (result.object !== undefined) object = result.object;
      if (result.rejection) return { object, rejection: result.rejection };
    }
  }
  return { object };
}

interface OneResult {
  changed: boolean;
  object?: KubeObject | null;
  rejection?: Status;
}

function reject(step: TraceStep, object: KubeObject | null, rejection: Status, decision: TraceStep['decision'] = 'called'): MutatingResult {
  step.decision = decision;
  step.rejection = rejection;
  return { object, rejection };
}

/** One matched webhook: `callAttrMutatingHook` plus the dispatcher's failurePolicy handling. */
async function callOne(entry: WebhookEntry, invocation: Invocation, attributes: AdmissionAttributes, round: 0 | 1, index: number, step: TraceStep, context: DispatchContext): Promise<OneResult> {
  const spec = entry.spec;
  let changed = false;
  // Every matched webhook gets its mutation annotation and its metrics, whatever happens to the call.
  const finish = (turn: TurnResult, result: Omit<OneResult, 'changed'> = {}): OneResult => {
    context.annotations.add(...mutationAnnotation(round, index, entry.configuration, spec.name, changed));
    observeTurn(context.metrics, spec.name, 'admit', attributes.operation, (step.durationMs ?? 0) / 1000, turn);
    if (result.rejection) step.rejection = result.rejection;
    return { ...result, changed };
  };

  const call = await callMatched(entry, invocation, attributes, step, context);
  if (call.kind === 'refused') return finish({ kind: 'internal' }, { rejection: call.rejection });
  if (call.kind === 'failed') {
    const failedOpen = spec.failurePolicy === 'Ignore';
    const turn: TurnResult = { kind: 'calling-error', code: call.error.code, failedOpen };
    if (!failedOpen) return finish(turn, { rejection: call.error.status });
    step.failedOpen = true;
    context.annotations.add(...failedOpenAnnotation('mutation', round, index, spec.name));
    // A fail-open call that used up the request's own time ends the request.
    return finish(turn, context.requestExpired() ? { rejection: requestTimeout() } : {});
  }
  const { outcome } = call;
  if (outcome.denial) return finish({ kind: 'denied', code: outcome.denial.code ?? 400 }, { rejection: outcome.denial });
  const patch = outcome.patch ?? [];
  if (patch.length === 0) return finish({ kind: 'ok' });
  const applied = patchObject(spec.name, invocation.object, patch);
  if (!applied.ok) return finish({ kind: 'internal' }, { rejection: applied.status });
  const patched = asRequestVersion(applied.object as KubeObject, attributes.object);
  // Seen as the request's own object, the patch's verdict holds; a converted view is compared again.
  changed = invocation.object === attributes.object && patched === applied.object ? applied.changed : !jsonEqual(attributes.object, patched);
  step.patch = patch;
  step.mutated = changed;
  context.annotations.add(...patchAnnotation(round, index, entry.configuration, spec.name, patch));
  return finish({ kind: 'ok' }, { object: patched });
}

// An object patched in an equivalent version goes back to the version of the request.
function asRequestVersion(patched: KubeObject, original: KubeObject | null): KubeObject {
  if (!original || (patched.apiVersion === original.apiVersion && patched.kind === original.kind)) return patched;
  return { ...patched, apiVersion: original.apiVersion, kind: original.kind };
}
