import type { WebhookEntry } from '../config/load';
import type { KubeObject, Status } from '../kube/admission';
import { jsonEqual } from '../kube/json';
import { isUnstructured } from '../kube/unstructured';
import type { JsonRecord } from '../kube/record';
import { requestTimeout } from '../kube/status';
import { convertToKind, shouldCallHook, type Invocation } from '../match/should-call';
import { splitApiVersion } from '../kube/api-version';
import { runMutationPlugins } from '../plugins';
import { addedPaths } from '../registry/changes';
import type { AdmissionAttributes } from '../kube/attributes';
import { failedOpenAnnotation, mutationAnnotation, patchAnnotation } from './annotations';
import { chainOrder } from '../config/order';
import type { DispatchContext } from './context';
import { callMatched } from './call-matched';
import { observeTurn, type TurnResult } from './observe';
import { patchObject } from '../patch/patch-object';
import type { TraceStep } from './trace';
import { dispatchMutatingPolicies, PolicyReinvocation } from './mutating-policies';
import { atRequestVersion, versionedInvocation } from './versioned';

/** Reinvocation bookkeeping across the two rounds (apiserver `webhookReinvokeContext`). */
class ReinvocationState {
  private previouslyInvoked = new Set<string>();
  readonly toReinvoke = new Set<string>();
  requested = false;

  /** A webhook changed the object: every IfNeeded webhook invoked since the last change runs again. */
  objectChanged(): void {
    this.requireReinvokingPreviouslyInvoked();
    this.requested = true;
  }

  /** The IfNeeded webhooks invoked since the last change run again (also when plugins changed the object in round 1). */
  requireReinvokingPreviouslyInvoked(): void {
    for (const id of this.previouslyInvoked) this.toReinvoke.add(id);
    this.previouslyInvoked = new Set();
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
 * Whether the request's object still holds the managedFields time the request stamped, with the
 * sub-second precision it has in memory until a JSON round trip: then the request's first patch is
 * a change whatever it does (fixtures/apiserver-outcomes: patch-noop-replace.json, patch-unknown-field.json).
 * The fieldmanager stamps a write that changed something (a create, an update that changed a field),
 * before mutating admission runs.
 */
function hasFreshManagedFields(attributes: AdmissionAttributes): boolean {
  // A custom resource is unstructured: its managedFields times are already whole-second strings.
  if (isUnstructured(attributes.object?.apiVersion)) return false;
  const entries = attributes.object?.metadata?.managedFields;
  if (!Array.isArray(entries) || entries.length === 0) return false;
  return !jsonEqual(entries, attributes.oldObject?.metadata?.managedFields);
}

/**
 * The mutation phase (k8s.io/apiserver/pkg/admission/plugin/webhook/mutating/dispatcher.go, pkg/admission/reinvocation.go): each round runs the enabled built-in mutating
 * plugins, the MutatingAdmissionPolicies, then the mutating webhooks one at a time in order, each seeing the object as earlier ones
 * left it (decoded and defaulted by the registry after every patch); round 1 re-invokes the IfNeeded
 * webhooks a later change concerned, and all of them when the plugins changed the object since the
 * last webhook. The first rejection ends the request.
 */
export async function dispatchMutating(attributes: AdmissionAttributes, context: DispatchContext): Promise<MutatingResult> {
  const chain = chainOrder(context.webhooks, 'mutating');
  const state = new ReinvocationState();
  const policyState = new PolicyReinvocation();
  let object = attributes.object;
  const patching = { freshTimes: hasFreshManagedFields(attributes) };
  let lastWebhookOutput: KubeObject | null = null;
  for (const round of [0, 1] as const) {
    if (round === 1 && !state.requested) break;
    const plugged = runPlugins(round, { ...attributes, object }, context);
    object = plugged.object;
    if (plugged.rejection) return { object, rejection: plugged.rejection };
    // MutatingAdmissionPolicy runs between the built-in plugins and the webhooks, with its own reinvocation state.
    const policies = dispatchMutatingPolicies({ ...attributes, object }, context, {
      round,
      state: policyState,
      requestReinvocation: () => (state.requested = true),
    });
    object = policies.object;
    if (policies.rejection) return { object, rejection: policies.rejection };
    if (round === 1 && object && lastWebhookOutput && !context.registry.equal(attributes.kind, lastWebhookOutput, object))
      state.requireReinvokingPreviouslyInvoked();
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
      const result = await callOne(entry, decision.invocation, current, { round, index, step, patching }, context);
      if (result.changed) state.objectChanged();
      if (spec.reinvocationPolicy === 'IfNeeded') state.invoked(id);
      if (result.object !== undefined) object = result.object;
      if (result.rejection) return { object, rejection: result.rejection };
    }
    lastWebhookOutput = object;
  }
  return { object };
}

/**
 * The enabled built-in mutating plugins on the object, each change traced; the object put back in its
 * kind's shape. A plugin that refuses (Priority, RuntimeClass) ends the request.
 */
function runPlugins(round: 0 | 1, attributes: AdmissionAttributes, context: DispatchContext): { object: KubeObject | null; rejection?: Status } {
  const object = attributes.object;
  if (!object || context.plugins.length === 0) return { object };
  let current = object as JsonRecord;
  for (const plugin of context.plugins) {
    const {
      changedBy,
      object: changed,
      refusal,
    } = runMutationPlugins([plugin], {
      attributes,
      object: current,
      randomSuffix: (n) => context.random.suffix(n),
      ...(context.cluster ? { cluster: context.cluster } : {}),
      ...(context.pluginConfiguration ? { configuration: context.pluginConfiguration } : {}),
    });
    if (refusal) {
      context.trace.steps.push({
        phase: 'mutating',
        round,
        index: -1,
        configuration: '',
        webhook: plugin.name,
        plugin: true,
        decision: 'called',
        why: [],
        rejection: refusal.status,
        ...(refusal.missing ? { missing: refusal.missing } : {}),
      });
      return { object: current as KubeObject, rejection: refusal.status };
    }
    if (changedBy.length === 0) continue;
    context.trace.steps.push({
      phase: 'mutating',
      round,
      index: -1,
      configuration: '',
      webhook: plugin.name,
      plugin: true,
      decision: 'called',
      why: [],
      defaulted: addedPaths(current, changed),
    });
    current = changed;
  }
  // Plugins change the internal object; its conversion back writes the kind's field order.
  return { object: current === object ? object : context.registry.default(attributes.kind, current as KubeObject) };
}

interface OneResult {
  changed: boolean;
  object?: KubeObject | null;
  rejection?: Status;
}

/** Where a call sits in the chain, and the request-wide state of its patches. */
interface Turn {
  round: 0 | 1;
  index: number;
  step: TraceStep;
  /** Whether the object still carries the request's fresh managedFields time (until the first decoded patch). */
  patching: { freshTimes: boolean };
}

function reject(step: TraceStep, object: KubeObject | null, rejection: Status, decision: TraceStep['decision'] = 'called'): MutatingResult {
  step.decision = decision;
  step.rejection = rejection;
  return { object, rejection };
}

/** One matched webhook: `callAttrMutatingHook` plus the dispatcher's failurePolicy handling. */
async function callOne(entry: WebhookEntry, matched: Invocation, attributes: AdmissionAttributes, turn: Turn, context: DispatchContext): Promise<OneResult> {
  const spec = entry.spec;
  const { round, index, step } = turn;
  let changed = false;
  // Every matched webhook gets its mutation annotation and its metrics, whatever happens to the call.
  const finish = (result: TurnResult, outcome: Omit<OneResult, 'changed'> = {}): OneResult => {
    context.annotations.add(...mutationAnnotation(round, index, entry.configuration, spec.name, changed));
    observeTurn(context.metrics, spec.name, 'admit', attributes.operation, (step.durationMs ?? 0) / 1000, result);
    if (outcome.rejection) step.rejection = outcome.rejection;
    return { ...outcome, changed };
  };

  const versioned = await versionedInvocation(matched, attributes, context);
  if ('rejection' in versioned) {
    step.decision = 'rejected-without-call';
    return finish({ kind: 'internal' }, { rejection: versioned.rejection });
  }
  const { invocation } = versioned;
  const call = await callMatched(entry, invocation, attributes, step, context);
  if (call.kind === 'refused') return finish({ kind: 'internal' }, { rejection: call.rejection });
  if (call.kind === 'failed') {
    const failedOpen = spec.failurePolicy === 'Ignore';
    const result: TurnResult = { kind: 'calling-error', code: call.error.code, failedOpen };
    if (!failedOpen) return finish(result, { rejection: call.error.status });
    step.failedOpen = true;
    context.annotations.add(...failedOpenAnnotation('mutation', round, index, spec.name));
    // A fail-open call that used up the request's own time ends the request.
    return finish(result, context.requestExpired() ? { rejection: requestTimeout() } : {});
  }
  const { outcome } = call;
  if (outcome.denial) return finish({ kind: 'denied', code: outcome.denial.code ?? 400 }, { rejection: outcome.denial });
  const patch = outcome.patch ?? [];
  if (patch.length === 0) return finish({ kind: 'ok' });
  const applied = patchObject(
    spec.name,
    { object: invocation.object, kind: invocation.kind, registry: context.registry, freshTimes: turn.patching.freshTimes },
    patch,
  );
  if (!applied.ok) return finish({ kind: 'internal' }, { rejection: applied.status });
  turn.patching.freshTimes = false;
  const relabelled = asRequestVersion(applied.object as KubeObject, attributes.object);
  const back = await atRequestVersion(applied.object as KubeObject, relabelled, invocation, attributes, context);
  if ('rejection' in back) return finish({ kind: 'internal' }, { rejection: back.rejection });
  const patched = back.object as KubeObject;
  changed = applied.changed;
  step.patch = patch;
  step.mutated = changed;
  if (applied.onlyFreshTimes) step.firstPatch = true;
  if (applied.dropped.length > 0) step.dropped = applied.dropped;
  if (applied.defaulted.length > 0) step.defaulted = applied.defaulted;
  context.annotations.add(...patchAnnotation(round, index, entry.configuration, spec.name, patch));
  return finish({ kind: 'ok' }, { object: patched });
}

// An object patched in an equivalent version goes back to the version of the request: converted by kube's
// conversion functions for a built-in kind that has them (an HPA), relabelled otherwise.
function asRequestVersion(patched: KubeObject, original: KubeObject | null): KubeObject {
  if (!original || (patched.apiVersion === original.apiVersion && patched.kind === original.kind)) return patched;
  const [group, version] = splitApiVersion(original.apiVersion ?? '');
  return convertToKind(patched, { group, version, kind: original.kind ?? '' }) as KubeObject;
}
