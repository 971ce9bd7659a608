import type { GroupVersionKind, GroupVersionResource, KubeObject, Status } from '../kube/admission';
import type { MutatingAdmissionPolicy, MutatingAdmissionPolicyBinding } from '../kube/admission-policy';
import type { AdmissionAttributes } from '../kube/attributes';
import type { JsonObject } from '../kube/json';
import { admissionForbidden, panicked, statusForCode } from '../kube/status';
import { convertToKind } from '../match/should-call';
import { structuralSchema } from '../registry/crd/structural';
import { matchResources } from '../policy/match-resources';
import { applyConfiguration, applyMutationJsonPatch, builtinApplySchema, crdApplySchema, type ApplySchema } from '../policy/mutating';
import { collectParams } from '../policy/params';
import type { PreparedMutatingPolicy } from '../policy/prepare';
import { activationFor, evaluateMatchConditions, withVariables } from '../policy/scope';
import type { DispatchContext } from './context';
import type { TraceStep } from './trace';

/** The MutatingAdmissionPolicy plugin's reinvocation bookkeeping across the two rounds (mutating `policyReinvokeContext`). */
export class PolicyReinvocation {
  private previouslyInvoked = new Set<string>();
  private readonly toReinvoke = new Set<string>();
  /** The object as the plugin last left it, to see whether later plugins and webhooks changed it. */
  lastOutput: KubeObject | null | undefined;

  requireReinvokingPreviouslyInvoked(): void {
    for (const key of this.previouslyInvoked) this.toReinvoke.add(key);
    this.previouslyInvoked = new Set();
  }

  shouldReinvoke(key: string): boolean {
    return this.toReinvoke.has(key);
  }

  invoked(key: string): void {
    this.previouslyInvoked.add(key);
  }
}

/** One policy × binding × param the request reaches (generic `PolicyInvocation`). */
interface Invocation {
  prepared: PreparedMutatingPolicy;
  binding: MutatingAdmissionPolicyBinding;
  kind: GroupVersionKind;
  resource: GroupVersionResource;
  param: KubeObject | null;
  why: string[];
}

interface PolicyError {
  policy: MutatingAdmissionPolicy;
  binding?: MutatingAdmissionPolicyBinding;
  message: string;
  reason?: string;
}

export interface PolicyRound {
  round: 0 | 1;
  state: PolicyReinvocation;
  /** Asks for a second round of the whole mutation phase (the request's reinvocation context). */
  requestReinvocation(): void;
}

/**
 * The MutatingAdmissionPolicy plugin, after the built-in mutating plugins and before the mutating
 * webhooks (apiserver plugin/policy/generic `policyDispatcher.Dispatch` and mutating
 * `dispatchInvocations`): every policy × binding × param that matches the request as it arrives, in
 * name order; each one's mutations in order on the object the previous left, decoded and defaulted as
 * a webhook's patch is. A policy that changed the object, or ran at all, asks for round 1, where
 * IfNeeded policies run again if the object changed since. Errors meet the policy's failurePolicy;
 * those that stand deny the request: 403, `policy '<p>' with binding '<b>' denied request: <error>`.
 * MAP mutations leave no audit annotation.
 */
export function dispatchMutatingPolicies(
  attributes: AdmissionAttributes,
  context: PolicyDispatchContext,
  turn: PolicyRound,
): { object: KubeObject | null; rejection?: Status } {
  const policies = context.policies;
  let object = attributes.object;
  if (!policies || policies.mutating.length === 0) return { object };
  const { state, round } = turn;
  if (round === 1 && object && state.lastOutput && !context.registry.equal(attributes.kind, state.lastOutput, object))
    state.requireReinvokingPreviouslyInvoked();

  const errors: PolicyError[] = [];
  const step = stepRecorder(context, round);
  const configError = (prepared: PreparedMutatingPolicy, binding: MutatingAdmissionPolicyBinding | undefined, error: string, why: string[]) => {
    const message = binding ? `failed to configure binding: ${error}` : `failed to configure policy: ${error}`;
    errors.push({ policy: prepared.policy, ...(binding ? { binding } : {}), message });
    step(prepared.policy.metadata.name, binding?.metadata.name ?? '', why, message, [message]);
  };

  let dirty = false;
  for (const invocation of collectInvocations(attributes, policies, configError)) {
    const { prepared, binding, param } = invocation;
    const { policy, compiled } = prepared;
    const name = binding.metadata.name;
    const scope = withVariables(compiled.variables, activationFor({ ...attributes, object }, invocation.resource, invocation.kind, param, policies));
    const conditions = evaluateMatchConditions(compiled.matchConditions, scope, policy.spec.failurePolicy);
    if (conditions.error !== undefined) {
      errors.push({ policy, binding, message: conditions.error, reason: 'Invalid' });
      step(policy.metadata.name, name, invocation.why, `matchConditions failed: ${conditions.error}`, conditions.errors);
      continue;
    }
    if (conditions.skipped) {
      step(policy.metadata.name, name, [...invocation.why, conditions.skipped], '', conditions.errors, 'skipped');
      continue;
    }
    const key = `${policy.metadata.name}/${name}/${param?.metadata?.namespace ?? ''}/${param?.metadata?.name ?? ''}`;
    if (round === 1 && !state.shouldReinvoke(key)) {
      step(policy.metadata.name, name, invocation.why, '', [], 'not-reinvoked');
      continue;
    }
    const before = object;
    const failures: string[] = [];
    const traced = step(policy.metadata.name, name, invocation.why, '', failures);
    const run = runMutations(invocation, object, attributes, policies, context, traced, failures);
    object = run.object;
    if (run.rejection) return { object, rejection: run.rejection };
    if (run.applied) dirty = true;
    for (const failure of failures) errors.push({ policy, binding, message: failure, reason: 'Invalid' });
    const changed = before !== object && !!before && !!object && !context.registry.equal(attributes.kind, before, object);
    traced.mutated = changed;
    traced.policy = {
      kind: 'MutatingAdmissionPolicy',
      outcome: failures.length > 0 ? `failed: ${failures.join('; ')}` : changed ? 'mutated' : 'no change',
      errors: failures,
    };
    if (changed) {
      state.requireReinvokingPreviouslyInvoked();
      turn.requestReinvocation();
    }
    if (policy.spec.reinvocationPolicy === 'IfNeeded') state.invoked(key);
  }
  // Any mutation applied, changed or not, asks for reinvocation (dispatchInvocations' `Dirty`).
  if (dirty && object) {
    state.requireReinvokingPreviouslyInvoked();
    turn.requestReinvocation();
  }
  state.lastOutput = object;
  const rejection = rejectionFor(attributes, errors);
  if (!rejection) return { object };
  markRefusingStep(context.trace.steps, errors, rejection);
  return { object, rejection };
}

type PolicyDispatchContext = Pick<DispatchContext, 'policies' | 'trace' | 'registry'> & Partial<Pick<DispatchContext, 'metrics'>>;

type StepRecorder = (policy: string, binding: string, why: string[], outcome: string, failures?: string[], decision?: TraceStep['decision']) => TraceStep;

/** Records a policy × binding's step in the trace, where a webhook's would be. */
function stepRecorder(context: PolicyDispatchContext, round: 0 | 1): StepRecorder {
  return (policy, binding, why, outcome, failures = [], decision = 'called') => {
    const traced: TraceStep = {
      phase: 'mutating',
      round,
      index: -1,
      configuration: policy,
      webhook: binding,
      decision,
      why,
      policy: { kind: 'MutatingAdmissionPolicy', outcome, errors: failures },
    };
    context.trace.steps.push(traced);
    return traced;
  };
}

/**
 * Every policy × binding × param that matches the request (generic `policyDispatcher.Dispatch`), chosen on
 * the request as it arrives, before any policy mutates it; configuration errors are reported on the way.
 */
function collectInvocations(
  attributes: AdmissionAttributes,
  policies: NonNullable<DispatchContext['policies']>,
  configError: (prepared: PreparedMutatingPolicy, binding: MutatingAdmissionPolicyBinding | undefined, error: string, why: string[]) => void,
): Invocation[] {
  const invocations: Invocation[] = [];
  for (const prepared of policies.mutating) {
    const matched = matchResources(prepared.policy.spec.matchConstraints ?? {}, attributes, policies);
    if (matched.error) {
      configError(prepared, undefined, matched.error.message ?? '', matched.why);
      continue;
    }
    if (!matched.matches) continue;
    if (prepared.configurationError) {
      configError(prepared, undefined, prepared.configurationError, matched.why);
      continue;
    }
    for (const { binding } of prepared.bindings) {
      const why = [...matched.why];
      if (binding.spec.matchResources) {
        const bound = matchResources(binding.spec.matchResources, attributes, policies);
        why.push(...bound.why.map((reason) => `binding: ${reason}`));
        if (bound.error) {
          configError(prepared, binding, bound.error.message ?? '', why);
          continue;
        }
        if (!bound.matches) continue;
      }
      const collected = collectParams(prepared.policy.spec.paramKind, binding.spec.paramRef, attributes.namespace, policies.params);
      if ('error' in collected) {
        configError(prepared, binding, collected.error, why);
        continue;
      }
      for (const param of collected.params) invocations.push({ prepared, binding, kind: matched.kind, resource: matched.resource, param, why });
    }
  }
  return invocations;
}

/**
 * One invocation's mutations in order, each on the object the previous left, decoded and defaulted as a
 * webhook's patch is. Failed mutations are added to `failures`; a missing schema, a panic or a patch that
 * does not decode ends the request (`rejection`). `applied` says whether any mutation was applied.
 */
function runMutations(
  invocation: Invocation,
  start: KubeObject | null,
  attributes: AdmissionAttributes,
  policies: NonNullable<DispatchContext['policies']>,
  context: PolicyDispatchContext,
  traced: TraceStep,
  failures: string[],
): { object: KubeObject | null; applied: boolean; rejection?: Status } {
  const { prepared, binding, param } = invocation;
  const { policy, compiled } = prepared;
  let object = start;
  let applied = false;
  for (const mutation of compiled.mutations) {
    // Nothing to patch (a DELETE): the mutations are not evaluated.
    if (!object) continue;
    const started = performance.now();
    const observe = (errorType: 'no_error' | 'invalid_error') =>
      context.metrics?.mutatingPolicyCheck(policy.metadata.name, binding.metadata.name, errorType, (performance.now() - started) / 1000);
    const versioned = convertToKind(object, invocation.kind) as KubeObject;
    const evaluated = mutation.compiled.evaluate(
      withVariables(compiled.variables, activationFor({ ...attributes, object: versioned }, invocation.resource, invocation.kind, param, policies)),
    );
    let patched: unknown;
    if (!evaluated.ok) {
      failures.push(evaluated.error);
      observe('invalid_error');
      continue;
    }
    if (evaluated.patchType === 'ApplyConfiguration') {
      const schema = applySchemaFor(invocation.kind, context);
      if (!schema) {
        const status = statusForCode(
          503,
          `Resource kind ${invocation.kind.group}/${invocation.kind.version}, Kind=${invocation.kind.kind} not found. There can be a delay between when CustomResourceDefinitions are created and when they are available.`,
        );
        traced.rejection = status;
        return { object, applied, rejection: status };
      }
      const merged = applyConfiguration(versioned as JsonObject, evaluated.applyConfiguration, schema);
      if (!merged.ok) {
        failures.push(merged.error);
        observe('invalid_error');
        continue;
      }
      patched = merged.object;
    } else {
      const patchedByJson = applyMutationJsonPatch(versioned, evaluated.operations);
      if (!patchedByJson.ok) {
        if (patchedByJson.panicked) {
          traced.rejection = panicked();
          return { object, applied, rejection: traced.rejection };
        }
        failures.push(patchedByJson.error);
        observe('invalid_error');
        continue;
      }
      patched = patchedByJson.object;
    }
    // Decoded into the kind and defaulted, as a webhook's patch is; a type error is the API's 500.
    const decoded = context.registry.decodePatched(invocation.kind, versioned, patched as KubeObject, false);
    if (!decoded.ok) {
      traced.rejection = decoded.status;
      return { object, applied, rejection: decoded.status };
    }
    object = asRequestKind(decoded.object as KubeObject, attributes.object);
    applied = true;
    observe('no_error');
    if (decoded.defaulted.length > 0) traced.defaulted = [...(traced.defaulted ?? []), ...decoded.defaulted];
  }
  return { object, applied };
}

/** The first standing error's binding carries the refusal in the trace, as a refusing webhook's step does. */
function markRefusingStep(steps: TraceStep[], errors: readonly PolicyError[], rejection: Status): void {
  const first = errors.find((error) => error.policy.spec.failurePolicy !== 'Ignore');
  const refusing =
    first &&
    steps.findLast(
      (s) =>
        s.policy?.kind === 'MutatingAdmissionPolicy' && s.configuration === first.policy.metadata.name && s.webhook === (first.binding?.metadata.name ?? ''),
    );
  if (refusing && !refusing.rejection) refusing.rejection = rejection;
}

/** The schema an ApplyConfiguration merges with: the built-in kind's, or the custom resource version's. */
function applySchemaFor(kind: GroupVersionKind, context: Pick<DispatchContext, 'registry'>): ApplySchema | undefined {
  const apiVersion = kind.group ? `${kind.group}/${kind.version}` : kind.version;
  const builtin = builtinApplySchema(apiVersion, kind.kind);
  if (builtin) return builtin;
  const crd = context.registry.schemaOf(kind);
  return crd === undefined ? undefined : crdApplySchema(structuralSchema(crd));
}

/**
 * generic `policyDispatcher.Dispatch`: errors of Ignore policies are dropped; the first standing one is
 * the message of a Forbidden status (403) whose reason is the error's (Invalid for a failed mutation),
 * every one a cause.
 */
function rejectionFor(attributes: AdmissionAttributes, errors: readonly PolicyError[]): Status | undefined {
  const standing = errors.filter((error) => error.policy.spec.failurePolicy !== 'Ignore');
  const [first] = standing;
  if (!first) return undefined;
  const text = (error: PolicyError) =>
    error.binding
      ? `policy '${error.policy.metadata.name}' with binding '${error.binding.metadata.name}' denied request: ${error.message}`
      : `policy ${JSON.stringify(error.policy.metadata.name)} denied request: ${error.message}`;
  const status = admissionForbidden(attributes, 'admission request denied by policy');
  return {
    ...status,
    message: text(first),
    reason: first.reason ?? status.reason,
    details: { ...status.details, causes: standing.map((error) => ({ message: text(error) })) },
  };
}

// An object patched in an equivalent version goes back to the version of the request.
function asRequestKind(patched: KubeObject, original: KubeObject | null): KubeObject {
  if (!original || (patched.apiVersion === original.apiVersion && patched.kind === original.kind)) return patched;
  return { ...patched, apiVersion: original.apiVersion, kind: original.kind };
}
