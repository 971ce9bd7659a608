import type { Container, Pod } from 'kubernetes-types/core/v1';
import type { PatchOperation } from './review';

export const DEFAULT_RESOURCES = {
  limits: { cpu: '500m', memory: '256Mi' },
  requests: { cpu: '100m', memory: '128Mi' },
};

// The sidecar must not be what breaks a pod in a namespace enforcing the `restricted` Pod Security
// Standard: no privilege escalation, every capability dropped (the pod itself gets runAsNonRoot below).
export const SIDECAR: Container = {
  name: 'log-shipper',
  image: 'fluent/fluent-bit:3.1',
  resources: {
    limits: { cpu: '100m', memory: '64Mi' },
    requests: { cpu: '10m', memory: '32Mi' },
  },
  securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
};

const isEmpty = (map: object | undefined): boolean => !map || Object.keys(map).length === 0;

/**
 * The JSON Patch that gives `pod` our defaults: runAsNonRoot, resource limits on every container
 * that has none, and the log-shipper sidecar. Empty when the pod already has them, so applying the
 * patch and mutating again yields nothing (safe under reinvocationPolicy IfNeeded).
 */
export function mutatePod(pod: Pod): PatchOperation[] {
  const spec = pod.spec;
  if (!spec) return [];
  const ops: PatchOperation[] = [];

  if (spec.securityContext?.runAsNonRoot !== true) {
    ops.push(
      spec.securityContext
        ? { op: 'add', path: '/spec/securityContext/runAsNonRoot', value: true }
        : { op: 'add', path: '/spec/securityContext', value: { runAsNonRoot: true } },
    );
  }

  const containers = spec.containers ?? [];
  containers.forEach((container, i) => {
    if (!isEmpty(container.resources?.limits)) return;
    const at = `/spec/containers/${i}/resources`;
    if (!container.resources) {
      ops.push({ op: 'add', path: at, value: structuredClone(DEFAULT_RESOURCES) });
      return;
    }
    ops.push({ op: 'add', path: `${at}/limits`, value: { ...DEFAULT_RESOURCES.limits } });
    if (isEmpty(container.resources.requests)) ops.push({ op: 'add', path: `${at}/requests`, value: { ...DEFAULT_RESOURCES.requests } });
  });

  // Container names are unique across containers and initContainers.
  const names = [...containers, ...(spec.initContainers ?? [])].map((c) => c.name);
  if (!names.includes(SIDECAR.name)) {
    ops.push(
      spec.containers
        ? { op: 'add', path: '/spec/containers/-', value: structuredClone(SIDECAR) }
        : { op: 'add', path: '/spec/containers', value: [structuredClone(SIDECAR)] },
    );
  }
  return ops;
}
