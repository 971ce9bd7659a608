import type { KubeObject, Status } from '../kube/admission';
import { badRequest } from '../kube/status';
import { exemptionOf } from '../match/exempt';
import { isNamespaceResource } from '../kube/gvr';
import type { AdmissionAttributes } from '../review/attributes';
import { validatingView } from '../registry/validating-view';
import type { DispatchContext } from './context';
import { dispatchMutating } from './mutating';
import { dispatchValidating } from './validating';

export interface ChainResult {
  /** The object after mutation: what would be stored (null for DELETE and when rejected early). */
  object: KubeObject | null;
  rejection?: Status;
  exempt?: string;
}

/**
 * The admission chain as kube-apiserver runs it for one request: mutating webhooks (with
 * reinvocation), the storage layer's namespace check, then validating webhooks on the final object.
 */
export async function runChain(attributes: AdmissionAttributes, context: DispatchContext): Promise<ChainResult> {
  const exempt = exemptionOf(attributes);
  if (exempt) return { object: attributes.object, exempt };

  const admitStarted = performance.now();
  const mutated = await dispatchMutating(attributes, context);
  context.metrics.step('admit', attributes.operation, (performance.now() - admitStarted) / 1000, !!mutated.rejection);
  if (mutated.rejection) return { object: mutated.object, rejection: mutated.rejection };

  const namespaceError = namespaceMismatch(attributes, mutated.object);
  if (namespaceError) return { object: mutated.object, rejection: namespaceError };

  const validateStarted = performance.now();
  // Validating webhooks run inside the registry, after the strategy filled in name, uid and the like.
  const rejection = await dispatchValidating(validatingView({ ...attributes, object: mutated.object }, context.seed), context);
  context.metrics.step('validate', attributes.operation, (performance.now() - validateStarted) / 1000, !!rejection);
  return { object: mutated.object, ...(rejection ? { rejection } : {}) };
}

// rest.BeforeCreate/BeforeUpdate: a mutation may rename an object but not move it to another namespace.
function namespaceMismatch(attributes: AdmissionAttributes, object: KubeObject | null): Status | undefined {
  if (!object || attributes.subResource !== '' || (attributes.operation !== 'CREATE' && attributes.operation !== 'UPDATE')) return undefined;
  if (attributes.namespace === '' || isNamespaceResource(attributes.resource)) return undefined;
  const namespace = object.metadata?.namespace;
  if (namespace === undefined || namespace === '' || namespace === attributes.namespace) return undefined;
  return badRequest('the namespace of the provided object does not match the namespace sent on the request');
}
