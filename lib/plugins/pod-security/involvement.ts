/**
 * Which requests PodSecurity looks at (k8s.io/pod-security-admission/admission/admission.go `Validate`
 * and the first test of ValidatePod, ValidatePodController and ValidateNamespace): creates and updates
 * of pods, of the workloads that carry a pod template, and of namespaces.
 */
import { acts, notInvolved, type Involvement } from '../involved';
import type { PluginAttributes } from '../plugin';
import { hasPodSpec } from './pod-spec-extractor';

// Pod subresources that cannot change what the checks look at (admission.go ignoredPodSubresources); any
// other (ephemeralcontainers, resize, one unknown to this list) carries a Pod and is evaluated.
export const IGNORED_POD_SUBRESOURCES: ReadonlySet<string> = new Set(['exec', 'attach', 'binding', 'eviction', 'log', 'portforward', 'proxy', 'status']);

/** PodSecurity enforces on pods, warns and audits on workloads' templates, validates namespaces' labels. */
export function podSecurityInvolvement(attributes: PluginAttributes): Involvement {
  const { operation, subResource, resource } = attributes;
  if (operation !== 'CREATE' && operation !== 'UPDATE') return notInvolved('looks only at creates and updates');
  if (resource.group === '' && resource.resource === 'namespaces') {
    if (subResource !== '') return notInvolved(`namespaces/${subResource} is not checked`);
    return acts(
      operation === 'CREATE'
        ? 'refuses invalid pod-security.kubernetes.io labels'
        : 'refuses invalid pod-security.kubernetes.io labels; a stricter enforce level warns about the pods already there',
    );
  }
  if (resource.group === '' && resource.resource === 'pods') {
    if (IGNORED_POD_SUBRESOURCES.has(subResource)) return notInvolved(`pods/${subResource} cannot change what it checks`);
    return acts("judges the pod against the namespace's Pod Security levels: enforce refuses, audit annotates, warn warns");
  }
  if (hasPodSpec(resource)) {
    if (subResource !== '') return notInvolved(`${resource.resource}/${subResource}: only the workload itself is checked`);
    return acts("audits and warns about the pod template against the namespace's Pod Security levels (never refuses)");
  }
  return notInvolved('neither a pod, a workload with a pod template, nor a namespace');
}
