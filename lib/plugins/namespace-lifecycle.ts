import type { KubeObject, Status } from '../kube/admission';
import type { AdmissionAttributes } from '../kube/attributes';
import { admissionForbidden, forbidden, notFound } from '../kube/status';
import { acts, notInvolved, type Involvement, type InvolvementContext } from './involved';
import type { MissingObject } from './plugin';

// lifecycle/admission.go: the namespaces kube-apiserver never lets anyone delete.
export const IMMORTAL_NAMESPACES: ReadonlySet<string> = new Set(['default', 'kube-system', 'kube-public']);

const isNamespaceKind = (attributes: Pick<AdmissionAttributes, 'kind'>) => attributes.kind.group === '' && attributes.kind.kind === 'Namespace';

type LifecycleAttributes = Pick<AdmissionAttributes, 'operation' | 'kind' | 'name' | 'namespace' | 'resource'>;

/** What NamespaceLifecycle does with a request before it reads the namespace: refuse it, let it pass (and why), or look the namespace up. */
function lifecycleScope(attributes: LifecycleAttributes): { immortal: true } | { passes: string } | { checks: true } {
  const { operation } = attributes;
  if (operation === 'DELETE' && isNamespaceKind(attributes) && IMMORTAL_NAMESPACES.has(attributes.name)) return { immortal: true };
  if (attributes.namespace === '') return { passes: 'cluster-scoped: no namespace to check' };
  if (isNamespaceKind(attributes)) return { passes: 'a Namespace itself passes; only deleting default, kube-system or kube-public is refused' };
  if (operation === 'DELETE') return { passes: 'deletions pass, whatever the namespace' };
  // SubjectAccessReviews and friends never learn whether a namespace exists.
  if (attributes.resource.group === 'authorization.k8s.io' && attributes.resource.resource.endsWith('accessreviews'))
    return { passes: 'access reviews never learn whether a namespace exists' };
  return { checks: true };
}

/** NamespaceLifecycle refuses deleting an immortal namespace, and anything but a DELETE in a namespace that is not there. */
export function namespaceLifecycleInvolvement(attributes: LifecycleAttributes, context: InvolvementContext): Involvement {
  const scope = lifecycleScope(attributes);
  const { operation, namespace } = attributes;
  if ('immortal' in scope) {
    return { involved: true, refuses: true, reason: `namespace ${JSON.stringify(attributes.name)} may not be deleted (403): the request stops here` };
  }
  if ('passes' in scope) return notInvolved(scope.passes);
  if (context.namespaceExists && !context.namespaceExists(namespace)) {
    return {
      involved: true,
      refuses: true,
      reason: `namespaces ${JSON.stringify(namespace)} not found (404): the request stops here; the steps below are judged as if it existed`,
    };
  }
  return acts(
    operation === 'CREATE'
      ? `namespace ${JSON.stringify(namespace)} exists; creating in a namespace being terminated is refused`
      : `namespace ${JSON.stringify(namespace)} exists`,
  );
}

/**
 * The NamespaceLifecycle admission plugin (plugin/pkg/admission/namespace/lifecycle/admission.go), the
 * first of the mutation phase, so it refuses before any policy or webhook sees the request: an immortal
 * namespace may not be deleted; anything but a DELETE in a namespace that does not exist is the
 * client's 404; nothing new may be created in a namespace being terminated (403, cause
 * NamespaceTerminating). Namespaces themselves, cluster-scoped resources and deletions always pass.
 * `namespace(name)` reads the cluster's Namespace object.
 */
export function namespaceLifecycle(attributes: AdmissionAttributes, namespace: (name: string) => KubeObject | undefined): Status | undefined {
  return namespaceLifecycleRefusal(attributes, namespace)?.status;
}

/** NamespaceLifecycle's refusal (see namespaceLifecycle), with the namespace it found missing when that is the cause. */
export function namespaceLifecycleRefusal(
  attributes: AdmissionAttributes,
  namespace: (name: string) => KubeObject | undefined,
): { status: Status; missing?: MissingObject } | undefined {
  const scope = lifecycleScope(attributes);
  if ('immortal' in scope) {
    return {
      status: forbidden({ group: attributes.resource.group, resource: attributes.resource.resource }, attributes.name, 'this namespace may not be deleted'),
    };
  }
  if ('passes' in scope) return undefined;
  const found = namespace(attributes.namespace);
  if (!found)
    return {
      status: notFound({ group: '', resource: 'namespaces' }, attributes.namespace),
      missing: { kind: 'Namespace', namespace: '', name: attributes.namespace },
    };
  if (attributes.operation !== 'CREATE') return undefined;
  if ((found as { status?: { phase?: string } }).status?.phase !== 'Terminating') return undefined;
  const status = admissionForbidden(attributes, `unable to create new content in namespace ${attributes.namespace} because it is being terminated`);
  return {
    status: {
      ...status,
      details: {
        ...status.details,
        causes: [
          ...(status.details?.causes ?? []),
          { reason: 'NamespaceTerminating', message: `namespace ${attributes.namespace} is being terminated`, field: 'metadata.namespace' },
        ],
      },
    },
  };
}
