/**
 * runAsNonRoot (restricted; policy/check_runAsNonRoot.go): the pod sets `runAsNonRoot=true`, or every
 * container does; nothing may set it false. From 1.35 a pod in a user namespace (`hostUsers: false`) is
 * exempt (KEP-127; before 1.35 that relaxation sat behind an alpha feature gate, off by default).
 */
import type { JsonRecord } from '../../../kube/record';
import { ALLOWED, forbidden, type Check, type CheckResult } from '../check';
import { containerName, containers, inUserNamespace, podSecurityContext, securityContext } from '../pod-json';
import { containersSubject } from '../text';

function runAsNonRoot1_0(_podMetadata: JsonRecord, podSpec: JsonRecord): CheckResult {
  const badSetters: string[] = [];
  const podValue = podSecurityContext(podSpec)?.runAsNonRoot;
  if (podValue === false) badSetters.push('pod');
  const podRunAsNonRoot = podValue === true;

  const explicitlyBad: string[] = [];
  const implicitlyBad: string[] = [];
  for (const container of containers(podSpec)) {
    const value = securityContext(container)?.runAsNonRoot;
    if (typeof value === 'boolean') {
      if (!value) explicitlyBad.push(containerName(container));
    } else if (!podRunAsNonRoot) implicitlyBad.push(containerName(container));
  }
  if (explicitlyBad.length > 0) badSetters.push(containersSubject(explicitlyBad));
  // An explicit false is reported alone, before containers that merely left it unset.
  if (badSetters.length > 0) return forbidden('runAsNonRoot != true', `${badSetters.join(' and ')} must not set securityContext.runAsNonRoot=false`);
  if (implicitlyBad.length > 0)
    return forbidden('runAsNonRoot != true', `pod or ${containersSubject(implicitlyBad)} must set securityContext.runAsNonRoot=true`);
  return ALLOWED;
}

function runAsNonRoot1_35(podMetadata: JsonRecord, podSpec: JsonRecord): CheckResult {
  if (inUserNamespace(podSpec)) return ALLOWED;
  return runAsNonRoot1_0(podMetadata, podSpec);
}

export const runAsNonRoot: Check = {
  id: 'runAsNonRoot',
  level: 'restricted',
  versions: [
    { minimumVersion: 0, checkPod: runAsNonRoot1_0 },
    { minimumVersion: 35, checkPod: runAsNonRoot1_35 },
  ],
};
