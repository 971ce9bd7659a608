/** hostPorts (baseline, 1.0; policy/check_hostPorts.go): no container port may set a non-zero hostPort. */
import { isRecord } from '../../../kube/json';
import type { JsonRecord } from '../../../kube/record';
import { ALLOWED, forbidden, type Check, type CheckResult } from '../check';
import { containerName, containers, listMember } from '../pod-json';
import { containersSubject, pluralize, sortedSet } from '../text';

function hostPorts1_0(_podMetadata: JsonRecord, podSpec: JsonRecord): CheckResult {
  const badContainers: string[] = [];
  const ports: string[] = [];
  for (const container of containers(podSpec)) {
    const used = listMember(container, 'ports')
      .filter(isRecord)
      .map((port) => port.hostPort)
      .filter((hostPort): hostPort is number => typeof hostPort === 'number' && hostPort !== 0);
    if (used.length > 0) {
      badContainers.push(containerName(container));
      ports.push(...used.map(String));
    }
  }
  if (badContainers.length === 0) return ALLOWED;
  // The ports are a Go string set: listed in string order ("10", "8080", "9").
  const hostPortList = sortedSet(ports);
  return forbidden(
    'hostPort',
    `${containersSubject(badContainers)} ${pluralize('uses', 'use', badContainers.length)} ${pluralize('hostPort', 'hostPorts', hostPortList.length)} ${hostPortList.join(', ')}`,
  );
}

export const hostPorts: Check = {
  id: 'hostPorts',
  level: 'baseline',
  versions: [{ minimumVersion: 0, checkPod: hostPorts1_0 }],
};
