/** privileged (baseline, 1.0; policy/check_privileged.go): no container may set securityContext.privileged=true. */
import type { JsonRecord } from '../../../kube/record';
import { ALLOWED, forbidden, type Check, type CheckResult } from '../check';
import { containerName, containers, securityContext } from '../pod-json';
import { containersSubject } from '../text';

function privileged1_0(_podMetadata: JsonRecord, podSpec: JsonRecord): CheckResult {
  const bad = containers(podSpec)
    .filter((container) => securityContext(container)?.privileged === true)
    .map(containerName);
  if (bad.length === 0) return ALLOWED;
  return forbidden('privileged', `${containersSubject(bad)} must not set securityContext.privileged=true`);
}

export const privileged: Check = {
  id: 'privileged',
  level: 'baseline',
  versions: [{ minimumVersion: 0, checkPod: privileged1_0 }],
};
