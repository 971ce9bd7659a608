/** The DNS names kube-apiserver may verify for a service-referenced webhook, most specific last. */
export function serviceDnsNames(name: string, namespace: string): string[] {
  return [name, `${name}.${namespace}`, `${name}.${namespace}.svc`, `${name}.${namespace}.svc.cluster.local`];
}

/** Loopback identities every harness serving certificate carries, so URL targets on loopback verify. */
export const LOOPBACK_DNS_NAMES: readonly string[] = ['localhost'];
export const LOOPBACK_IPS: readonly string[] = ['127.0.0.1', '::1'];
