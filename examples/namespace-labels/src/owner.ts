import type { V1Namespace } from '@kubernetes/client-node';

/** The label a namespace needs before pods may run in it. */
export const OWNER_LABEL = 'owner';

/** Why a pod may not be created in `namespace`, or undefined when it may. */
export function missingOwner(namespace: V1Namespace): string | undefined {
  const owner = namespace.metadata?.labels?.[OWNER_LABEL];
  if (owner) return undefined;
  return `namespace "${namespace.metadata?.name ?? ''}" has no ${OWNER_LABEL} label: label it with the team that owns it`;
}
