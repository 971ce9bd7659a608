/** The registries pods may pull from. */
export const ALLOWED_REGISTRIES = ['registry.example.com', 'registry.k8s.io'];

/** The annotation an operator sets to let a pod through during an incident (it reaches the backend: *.image-policy.k8s.io/). */
export const BREAK_GLASS = 'alpha.image-policy.k8s.io/break-glass';

/** The registry an image reference names: its first component when that has a dot, a colon or is localhost, else Docker Hub. */
export function registryOf(image: string): string {
  const slash = image.indexOf('/');
  if (slash < 0) return 'docker.io';
  const first = image.slice(0, slash);
  return first.includes('.') || first.includes(':') || first === 'localhost' ? first : 'docker.io';
}

/** Why `image` is refused, or undefined when it may run: it must come from an allowed registry, pinned by digest. */
export function refusal(image: string): string | undefined {
  const registry = registryOf(image);
  if (!ALLOWED_REGISTRIES.includes(registry)) return `${image}: registry ${registry} is not allowed (allowed: ${ALLOWED_REGISTRIES.join(', ')})`;
  if (!/@sha256:[0-9a-f]{64}$/.test(image)) return `${image}: not pinned by digest (@sha256:…)`;
  return undefined;
}
