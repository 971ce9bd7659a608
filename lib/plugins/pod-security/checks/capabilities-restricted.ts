/**
 * capabilities_restricted (restricted; policy/check_capabilities_restricted.go): every container drops
 * `ALL` and adds nothing but `NET_BIND_SERVICE`. From 1.22; from 1.25 a Windows pod is exempt. Replaces
 * capabilities_baseline at the restricted level.
 */
import type { JsonRecord } from '../../../kube/record';
import { ALLOWED, forbidden, type Check, type CheckResult } from '../check';
import { containerName, containers, isWindowsPod, member, securityContext, stringsMember } from '../pod-json';
import { containersSubject, joinQuote, sortedSet } from '../text';
import { CAPABILITIES_BASELINE_ID } from './capabilities-baseline';

function capabilitiesRestricted1_22(_podMetadata: JsonRecord, podSpec: JsonRecord): CheckResult {
  const missingDropAll: string[] = [];
  const addingForbidden: string[] = [];
  const forbiddenCapabilities: string[] = [];
  for (const container of containers(podSpec)) {
    const capabilities = member(securityContext(container), 'capabilities');
    if (capabilities === undefined) {
      missingDropAll.push(containerName(container));
      continue;
    }
    if (!stringsMember(capabilities, 'drop').includes('ALL')) missingDropAll.push(containerName(container));
    const added = stringsMember(capabilities, 'add').filter((c) => c !== 'NET_BIND_SERVICE');
    if (added.length > 0) {
      addingForbidden.push(containerName(container));
      forbiddenCapabilities.push(...added);
    }
  }
  const details: string[] = [];
  if (missingDropAll.length > 0) details.push(`${containersSubject(missingDropAll)} must set securityContext.capabilities.drop=["ALL"]`);
  if (addingForbidden.length > 0)
    details.push(`${containersSubject(addingForbidden)} must not include ${joinQuote(sortedSet(forbiddenCapabilities))} in securityContext.capabilities.add`);
  if (details.length === 0) return ALLOWED;
  return forbidden('unrestricted capabilities', details.join('; '));
}

function capabilitiesRestricted1_25(podMetadata: JsonRecord, podSpec: JsonRecord): CheckResult {
  // Pod validation refuses capabilities on Windows pods, so they pass without them.
  if (isWindowsPod(podSpec)) return ALLOWED;
  return capabilitiesRestricted1_22(podMetadata, podSpec);
}

export const capabilitiesRestricted: Check = {
  id: 'capabilities_restricted',
  level: 'restricted',
  versions: [
    { minimumVersion: 22, checkPod: capabilitiesRestricted1_22, overrides: [CAPABILITIES_BASELINE_ID] },
    { minimumVersion: 25, checkPod: capabilitiesRestricted1_25, overrides: [CAPABILITIES_BASELINE_ID] },
  ],
};
