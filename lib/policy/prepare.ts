import { loadCel } from '../cel/runtime';
import type { ManifestSet, ValidatingBindingEntry } from '../config/load';
import { HarnessError } from '../errors';
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
  return preparePolicies(set.validatingPolicies, set.validatingBindings, compileValidatingPolicy, params);
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
  return preparePolicies(set.mutatingPolicies, set.mutatingBindings, compileMutatingPolicy, params);
}

type PolicyOf = { metadata: { name: string }; spec: { paramKind?: ParamKind } };
type BindingOf = { binding: { metadata: { name: string }; spec: { policyName: string } } };

async function preparePolicies<P extends PolicyOf, B extends BindingOf, C>(
  policies: readonly { policy: P; source: string }[],
  bindings: readonly B[],
  compile: (policy: P) => C | { errors: string[] },
  params: ParamSource,
): Promise<{ policy: P; compiled: C; configurationError?: string; bindings: readonly B[]; source: string }[]> {
  if (policies.length === 0) return [];
  await loadCel();
  const problems: string[] = [];
  const prepared: { policy: P; compiled: C; configurationError?: string; bindings: readonly B[]; source: string }[] = [];
  for (const { policy, source } of policies) {
    const compiled = compile(policy);
    if (compiled && typeof compiled === 'object' && 'errors' in compiled) {
      problems.push(...(compiled as { errors: string[] }).errors.map((error) => `${source} ${error}`));
      continue;
    }
    const own = bindings
      .filter(({ binding }) => binding.spec.policyName === policy.metadata.name)
      .sort((a, b) => byName(a.binding.metadata.name, b.binding.metadata.name));
    const configurationError = policy.spec.paramKind ? unknownParamKind(policy.spec.paramKind, params) : undefined;
    prepared.push({ policy, compiled: compiled as C, bindings: own, source, ...(configurationError ? { configurationError } : {}) });
  }
  if (problems.length > 0)
    throw new HarnessError(
      'MANIFEST_INVALID',
      `invalid admission policy:\n  ${problems.join('\n  ')}`,
      'the API server would reject these objects on create; fix the expressions named',
    );
  return prepared.sort((a, b) => byName(a.policy.metadata.name, b.policy.metadata.name));
}
