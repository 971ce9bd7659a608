import type { V1Ingress } from '@kubernetes/client-node';

/** The hosts an Ingress routes (its rules' `host`s), without duplicates. */
export function hostsOf(ingress: V1Ingress): string[] {
  return [...new Set((ingress.spec?.rules ?? []).map((rule) => rule.host).filter((host): host is string => !!host))];
}

const keyOf = (ingress: V1Ingress): string => `${ingress.metadata?.namespace ?? ''}/${ingress.metadata?.name ?? ''}`;

/**
 * Why `ingress` may not be admitted: the first of its hosts another Ingress among `others` already routes, or
 * undefined. The Ingress itself (same namespace and name, as on an UPDATE) is no other.
 */
export function hostConflict(ingress: V1Ingress, others: readonly V1Ingress[]): string | undefined {
  const self = keyOf(ingress);
  for (const host of hostsOf(ingress)) {
    const owner = others.find((other) => keyOf(other) !== self && hostsOf(other).includes(host));
    if (owner) return `host "${host}" is already used by Ingress ${keyOf(owner)}`;
  }
  return undefined;
}
