import type { Container, Pod } from 'kubernetes-types/core/v1';

export interface Verdict {
  /** Why the pod is refused; undefined when it is allowed. */
  denied?: string;
  warnings: string[];
}

/**
 * Whether `image` names a fixed version: a digest (`@sha256:…`) or a tag other than `latest`.
 * The tag is after the last `:` of the last path segment, so `registry:5000/img` has no tag.
 */
export function isPinned(image: string): boolean {
  if (image.includes('@')) return true;
  const lastSegment = image.slice(image.lastIndexOf('/') + 1);
  const colon = lastSegment.lastIndexOf(':');
  if (colon < 0) return false;
  const tag = lastSegment.slice(colon + 1);
  return tag !== '' && tag !== 'latest';
}

/** Refuses unpinned images; warns about containers without resource limits. */
export function validatePod(pod: Pod): Verdict {
  const containers: Container[] = pod.spec?.containers ?? [];
  const all = [...containers, ...(pod.spec?.initContainers ?? [])];
  const unpinned = all.find((c) => !isPinned(c.image ?? ''));
  const warnings = containers.filter((c) => Object.keys(c.resources?.limits ?? {}).length === 0).map((c) => `container "${c.name}" has no resource limits`);
  if (unpinned) {
    return {
      denied: `container "${unpinned.name}" uses image "${unpinned.image ?? ''}": the :latest tag (or no tag) is not allowed; pin a version`,
      warnings,
    };
  }
  return { warnings };
}
