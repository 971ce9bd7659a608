/** Namespaces every cluster has from the start. */
export const BUILTIN_NAMESPACES: readonly string[] = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

/**
 * `labels` as kube-apiserver stores a namespace's: with the immutable `kubernetes.io/metadata.name`
 * label set to its name (namespace defaulting), which namespaceSelectors commonly rely on.
 */
export function namespaceLabels(name: string, labels: Readonly<Record<string, unknown>> = {}): Record<string, string> {
  return { ...(labels as Record<string, string>), 'kubernetes.io/metadata.name': name };
}
