/**
 * capabilities_baseline (baseline, 1.0; policy/check_capabilities_baseline.go): containers may only add
 * capabilities from the runtime's default set. At the restricted level capabilities_restricted replaces it
 * from 1.22 on.
 */
import type { JsonRecord } from '../../../kube/record';
import { ALLOWED, forbidden, type Check, type CheckResult } from '../check';
import { containerName, containers, member, securityContext, stringsMember } from '../pod-json';
import { containersSubject, joinQuote, sortedSet } from '../text';

const ALLOWED_1_0: ReadonlySet<string> = new Set([
  'AUDIT_WRITE',
  'CHOWN',
  'DAC_OVERRIDE',
  'FOWNER',
  'FSETID',
  'KILL',
  'MKNOD',
  'NET_BIND_SERVICE',
  'SETFCAP',
  'SETGID',
  'SETPCAP',
  'SETUID',
  'SYS_CHROOT',
]);

function capabilitiesBaseline1_0(_podMetadata: JsonRecord, podSpec: JsonRecord): CheckResult {
  const badContainers: string[] = [];
  const nonDefault: string[] = [];
  for (const container of containers(podSpec)) {
    const capabilities = member(securityContext(container), 'capabilities');
    if (capabilities === undefined) continue;
    const added = stringsMember(capabilities, 'add').filter((c) => !ALLOWED_1_0.has(c));
    if (added.length > 0) {
      badContainers.push(containerName(container));
      nonDefault.push(...added);
    }
  }
  if (badContainers.length === 0) return ALLOWED;
  return forbidden(
    'non-default capabilities',
    `${containersSubject(badContainers)} must not include ${joinQuote(sortedSet(nonDefault))} in securityContext.capabilities.add`,
  );
}

export const CAPABILITIES_BASELINE_ID = 'capabilities_baseline';

export const capabilitiesBaseline: Check = {
  id: CAPABILITIES_BASELINE_ID,
  level: 'baseline',
  versions: [{ minimumVersion: 0, checkPod: capabilitiesBaseline1_0 }],
};
