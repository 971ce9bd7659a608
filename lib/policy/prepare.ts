import { loadCel } from '../cel/runtime';
import type { ManifestSet, ValidatingBindingEntry } from '../config/load';
import { type Refusal, refusedError } from '../config/refusal';
import type { MutatingAdmissionPolicy, ParamKind, ValidatingAdmissionPolicy } from '../kube/admission-policy';
import type { MutatingBindingEntry } from '../config/load';
import { compileMutatingPolicy, type CompiledMutatingPolicy } from './compile-mutating';
import { compileValidatingPolicy, type CompiledValidatingPolicy } from './compile-validating';
import { unknownParamKind, type ParamSource } from './params';

/** One ValidatingAdmissionPolicy ready to run: compiled, with its bindings; or what keeps it from running. */
export interface PreparedValidatingPolicy {
  policy: ValidatingAdmissionPolicy;
  compiled: CompiledValidatingPolicy;
  /** A policy the API accepts but cannot run (a paramKind the cluster does not serve): every matching request meets its failurePolicy. */
  configurationError?: string;
  /** Its bindings, by name. */
  bindings: readonly ValidatingBindingEntry[];
  source: string;
}

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Compiles every ValidatingAdmissionPolicy of the manifests (an expression the API would refuse is a
 * manifest error naming the policy and field, as for matchConditions), loading the CEL library only
 * when there are policies, and pairs each with its bindings. A binding naming no policy is kept by
 * the API and does nothing; so here. Policies and bindings run in name order, the order the first
 * denial is chosen in (kube's order comes from its informer's cache).
 */
export function prepareValidatingPolicies(
  set: Pick<ManifestSet, 'validatingPolicies' | 'validatingBindings'>,
  params: ParamSource,
): Promise<PreparedValidatingPolicy[]> {
  return preparePolicies('ValidatingAdmissionPolicy', set.validatingPolicies, set.validatingBindings, compileValidatingPolicy, params);
}

/** One MutatingAdmissionPolicy ready to run: compiled, with its bindings. */
export interface PreparedMutatingPolicy {
  policy: MutatingAdmissionPolicy;
  compiled: CompiledMutatingPolicy;
  configurationError?: string;
  bindings: readonly MutatingBindingEntry[];
  source: string;
}

/** As prepareValidatingPolicies, for MutatingAdmissionPolicies. */
export function prepareMutatingPolicies(
  set: Pick<ManifestSet, 'mutatingPolicies' | 'mutatingBindings'>,
  params: ParamSource,
): Promise<PreparedMutatingPolicy[]> {
  return preparePolicies('MutatingAdmissionPolicy', set.mutatingPolicies, set.mutatingBindings, compileMutatingPolicy, params);
}

type PolicyOf = { metadata: { name: string }; spec: { paramKind?: ParamKind } };
type BindingOf = { binding: { metadata: { name: string }; spec: { policyName: string } } };
type PolicyKind = 'ValidatingAdmissionPolicy' | 'MutatingAdmissionPolicy';

/** Each policy compiled as the API validates it on create, or its refusal with kube's field errors. */
function compileEach<P extends PolicyOf, C>(
  kind: PolicyKind,
  policies: readonly { policy: P; source: string }[],
  compile: (policy: P) => C | { errors: string[] },
): { compiled: { policy: P; source: string; compiled: C }[]; refusals: Refusal[] } {
  const compiled: { policy: P; source: string; compiled: C }[] = [];
  const refusals: Refusal[] = [];
  for (const { policy, source } of policies) {
    const result = compile(policy);
    if (result && typeof result === 'object' && 'errors' in result)
      refusals.push({ kind, name: policy.metadata.name, where: source, errors: (result as { errors: string[] }).errors });
    else compiled.push({ policy, source, compiled: result as C });
  }
  return { compiled, refusals };
}

/**
 * The ValidatingAdmissionPolicies and MutatingAdmissionPolicies the API would refuse on create for
 * their expressions (one that does not compile, or does not have the type its field requires), with kube's texts.
 */
export async function policyRefusals(set: Pick<ManifestSet, 'validatingPolicies' | 'mutatingPolicies'>): Promise<Refusal[]> {
  if (set.validatingPolicies.length === 0 && set.mutatingPolicies.length === 0) return [];
  await loadCel();
  return [
    ...compileEach('ValidatingAdmissionPolicy', set.validatingPolicies, compileValidatingPolicy).refusals,
    ...compileEach('MutatingAdmissionPolicy', set.mutatingPolicies, compileMutatingPolicy).refusals,
  ];
}

async function preparePolicies<P extends PolicyOf, B extends BindingOf, C>(
  kind: PolicyKind,
  policies: readonly { policy: P; source: string }[],
  bindings: readonly B[],
  compile: (policy: P) => C | { errors: string[] },
  params: ParamSource,
): Promise<{ policy: P; compiled: C; configurationError?: string; bindings: readonly B[]; source: string }[]> {
  if (policies.length === 0) return [];
  await loadCel();
  const { compiled, refusals } = compileEach(kind, policies, compile);
  if (refusals.length > 0) throw refusedError(refusals);
  return compiled
    .map(({ policy, source, compiled }) => {
      const own = bindings
        .filter(({ binding }) => binding.spec.policyName === policy.metadata.name)
        .sort((a, b) => byName(a.binding.metadata.name, b.binding.metadata.name));
      const configurationError = policy.spec.paramKind ? unknownParamKind(policy.spec.paramKind, params) : undefined;
      return { policy, compiled, bindings: own, source, ...(configurationError ? { configurationError } : {}) };
    })
    .sort((a, b) => byName(a.policy.metadata.name, b.policy.metadata.name));
}
