/** A policy environment like the one the integrator builds: the admission variables, kube's library. */
import { loadCel } from '../../../lib/cel';
import { registerLibrary } from '../../../lib/cel/library';
import { celModule } from '../../../lib/cel/runtime';
import { celValue } from '../../../lib/cel/values';
import { mutationEnvironment, type MutationEnvironment } from '../../../lib/policy/mutating';

export async function policyMutationEnvironment(): Promise<MutationEnvironment> {
  await loadCel();
  const { Environment } = celModule();
  const base = new Environment({ enableOptionalTypes: true, homogeneousAggregateLiterals: true });
  registerLibrary(base);
  for (const name of ['object', 'oldObject', 'request', 'params', 'namespaceObject', 'variables']) base.registerVariable(name, 'dyn');
  return mutationEnvironment(base);
}

/** The activation of a request on `object`. */
export function activation(object: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { object: celValue(object), oldObject: null, request: {}, params: null, namespaceObject: null, variables: {}, ...extra };
}
