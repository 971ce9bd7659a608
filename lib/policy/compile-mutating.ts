import { policyEnvironment } from '../cel/environment';
import { invalid } from '../cel/validation';
import type { MutatingAdmissionPolicy } from '../kube/admission-policy';
import { compileConditionsAndVariables, policyCompiler, type NamedExpression } from './compile-expressions';
import { compileMutation, mutationEnvironment, type CompiledMutation, type MutationEnvironment, type PatchType } from './mutating';

/** A MutatingAdmissionPolicy with every expression compiled, ready to run. */
export interface CompiledMutatingPolicy {
  policy: MutatingAdmissionPolicy;
  matchConditions: NamedExpression[];
  variables: NamedExpression[];
  mutations: { patchType: PatchType; expression: string; compiled: Extract<CompiledMutation, { ok: true }> }[];
}

// One mutation environment per policy environment: cel-js freezes an environment once it is cloned.
const environments = new Map<boolean, MutationEnvironment>();
function environmentFor(params: boolean): MutationEnvironment {
  let found = environments.get(params);
  if (!found) environments.set(params, (found = mutationEnvironment(policyEnvironment({ params, authorizer: true }).env)));
  return found;
}

/**
 * Compiles a MutatingAdmissionPolicy's CEL as the API validates it on create: matchConditions and
 * variables as a validating policy's, and each mutation's expression with the types it may construct
 * (`Object…` for ApplyConfiguration, `JSONPatch` for JSONPatch) and the type its patchType requires.
 */
export function compileMutatingPolicy(policy: MutatingAdmissionPolicy): CompiledMutatingPolicy | { errors: string[] } {
  const spec = policy.spec;
  const params = spec.paramKind !== undefined && spec.paramKind !== null;
  const errors: string[] = [];
  const { matchConditions, variables } = compileConditionsAndVariables(spec, policyCompiler(params, errors), errors);
  const mutations: CompiledMutatingPolicy['mutations'] = [];
  (spec.mutations ?? []).forEach((mutation, i) => {
    const field = mutation.patchType === 'ApplyConfiguration' ? 'applyConfiguration' : 'jsonPatch';
    const expression = mutation[field]?.expression ?? '';
    const compiled = compileMutation(environmentFor(params), mutation.patchType, expression);
    if (!compiled.ok) errors.push(invalid(`spec.mutations[${i}].${field}.expression`, expression, compiled.error));
    else mutations.push({ patchType: mutation.patchType, expression, compiled });
  });
  if (errors.length > 0) return { errors: [...new Set(errors)] };
  return { policy, matchConditions, variables, mutations };
}
