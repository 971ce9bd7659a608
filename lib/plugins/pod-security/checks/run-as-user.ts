/**
 * runAsUser (restricted; policy/check_runAsUser.go): neither the pod nor a container sets `runAsUser: 0`
 * (unset is fine). From 1.23; from 1.35 a pod in a user namespace (`hostUsers: false`) is exempt.
 */
import type { JsonRecord } from '../../../kube/record';
import { ALLOWED, forbidden, type Check, type CheckResult } from '../check';
import { containerName, containers, inUserNamespace, podSecurityContext, securityContext } from '../pod-json';
import { containersSubject } from '../text';

function runAsUser1_23(_podMetadata: JsonRecord, podSpec: JsonRecord): CheckResult {
  const badSetters: string[] = [];
  if (podSecurityContext(podSpec)?.runAsUser === 0) badSetters.push('pod');
  const bad = containers(podSpec)
    .filter((container) => securityContext(container)?.runAsUser === 0)
    .map(containerName);
  if (bad.length > 0) badSetters.push(containersSubject(bad));
  if (badSetters.length === 0) return ALLOWED;
  return forbidden('runAsUser=0', `${badSetters.join(' and ')} must not set runAsUser=0`);
}

function runAsUser1_35(podMetadata: JsonRecord, podSpec: JsonRecord): CheckResult {
  if (inUserNamespace(podSpec)) return ALLOWED;
  return runAsUser1_23(podMetadata, podSpec);
}

export const runAsUser: Check = {
  id: 'runAsUser',
  level: 'restricted',
  versions: [
    { minimumVersion: 23, checkPod: runAsUser1_23 },
    { minimumVersion: 35, checkPod: runAsUser1_35 },
  ],
};
