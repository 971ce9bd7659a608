import { loadCel } from '../cel/runtime';
import type { ManifestSet, ValidatingBindingEntry } from '../config/load';
import { HarnessError } from '../errors';
import type { ValidatingAdmissionPolicy } from '../kube/admission-policy';
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
export async function prepareValidatingPolicies(set: Pick<ManifestSet, 'validatingPolicies' | 'validatingBindings'>, params: ParamSource): Promise<PreparedValidatingPolicy[]> {
  if (set.validatingPolicies.length === 0) return [];
  await loadCel();
  const problems: string[] = [];
  const prepared: PreparedValidatingPolicy[] = [];
  for (const { policy, source } of set.validatingPolicies) {
    const compiled = compileValidatingPolicy(policy);
    if ('errors' in compiled) {
      problems.push(...compiled.errors.map((error) => `${source} ${error}`));
      continue;
    }
    const bindings = set.validatingBindings.filter(({ binding }) => binding.spec.policyName === policy.metadata.name).sort((a, b) => byName(a.binding.metadata.name, b.binding.metadata.name));
    const configurationError = policy.spec.paramKind ? unknownParamKind(policy.spec.paramKind, params) : undefined;
    prepared.push({ policy, compiled, bindings, source, ...(configurationError ? { configurationError } : {}) });
  }
  if (problems.length > 0) throw new HarnessError('MANIFEST_INVALID', `invalid admission policy:\n  ${problems.join('\n  ')}`, 'the API server would reject these objects on create; fix the expressions named');
  return prepared.sort((a, b) => byName(a.policy.metadata.name, b.policy.metadata.name));
}
