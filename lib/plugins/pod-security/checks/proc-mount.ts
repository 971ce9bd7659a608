/**
 * procMount (baseline; policy/check_procMount_baseline.go): containers keep the default /proc masks —
 * `securityContext.procMount` unset or `Default`. From 1.35 a pod in a user namespace (`hostUsers: false`)
 * may set any value. At the restricted level procMount_restricted replaces the 1.35 revision, keeping
 * the strict rule.
 */
import type { JsonRecord } from '../../../kube/record';
import { ALLOWED, forbidden, type Check, type CheckResult } from '../check';
import { containerName, containers, inUserNamespace, securityContext } from '../pod-json';
import { containersSubject, joinQuote, sortedSet } from '../text';

/** The strict rule (procMount_1_0), which procMount_restricted reuses. */
export function procMount1_0(_podMetadata: JsonRecord, podSpec: JsonRecord): CheckResult {
  const badContainers: string[] = [];
  const types: string[] = [];
  for (const container of containers(podSpec)) {
    const procMount = securityContext(container)?.procMount;
    if (typeof procMount === 'string' && procMount !== 'Default') {
      badContainers.push(containerName(container));
      types.push(procMount);
    }
  }
  if (badContainers.length === 0) return ALLOWED;
  return forbidden('procMount', `${containersSubject(badContainers)} must not set securityContext.procMount to ${joinQuote(sortedSet(types))}`);
}

function procMount1_35(podMetadata: JsonRecord, podSpec: JsonRecord): CheckResult {
  if (inUserNamespace(podSpec)) return ALLOWED;
  return procMount1_0(podMetadata, podSpec);
}

export const PROC_MOUNT_ID = 'procMount';

export const procMount: Check = {
  id: PROC_MOUNT_ID,
  level: 'baseline',
  versions: [
    { minimumVersion: 0, checkPod: procMount1_0 },
    { minimumVersion: 35, checkPod: procMount1_35 },
  ],
};
