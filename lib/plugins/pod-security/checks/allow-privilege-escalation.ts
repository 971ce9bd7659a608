/**
 * allowPrivilegeEscalation (restricted; policy/check_allowPrivilegeEscalation.go): every container sets
 * `securityContext.allowPrivilegeEscalation=false` (the field exists from 1.8). From 1.25 a Windows pod
 * (`spec.os.name: windows`) is exempt.
 */
import type { JsonRecord } from '../../../kube/record';
import { ALLOWED, forbidden, type Check, type CheckResult } from '../check';
import { containerName, containers, isWindowsPod, securityContext } from '../pod-json';
import { containersSubject } from '../text';

function allowPrivilegeEscalation1_8(_podMetadata: JsonRecord, podSpec: JsonRecord): CheckResult {
  // Unset (nil) counts as allowed escalation: only an explicit false passes.
  const bad = containers(podSpec)
    .filter((container) => securityContext(container)?.allowPrivilegeEscalation !== false)
    .map(containerName);
  if (bad.length === 0) return ALLOWED;
  return forbidden('allowPrivilegeEscalation != false', `${containersSubject(bad)} must set securityContext.allowPrivilegeEscalation=false`);
}

function allowPrivilegeEscalation1_25(podMetadata: JsonRecord, podSpec: JsonRecord): CheckResult {
  // Pod validation refuses the field on Windows pods, so they pass without it.
  if (isWindowsPod(podSpec)) return ALLOWED;
  return allowPrivilegeEscalation1_8(podMetadata, podSpec);
}

export const allowPrivilegeEscalation: Check = {
  id: 'allowPrivilegeEscalation',
  level: 'restricted',
  versions: [
    { minimumVersion: 8, checkPod: allowPrivilegeEscalation1_8 },
    { minimumVersion: 25, checkPod: allowPrivilegeEscalation1_25 },
  ],
};
