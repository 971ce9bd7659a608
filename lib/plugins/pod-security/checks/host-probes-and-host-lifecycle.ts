/**
 * hostProbesAndHostLifecycle (baseline, from 1.34; policy/check_hostProbesAndhostLifecycle.go): probes
 * (liveness, readiness, startup) and lifecycle handlers (postStart, preStop) may not name a `host` in
 * their httpGet or tcpSocket action. Pinned below v1.34 the check does not run.
 */
import type { JsonRecord } from '../../../kube/record';
import { ALLOWED, forbidden, type Check, type CheckResult } from '../check';
import { containerName, containers, member, stringMember } from '../pod-json';
import { joinQuote, pluralize, sortedSet } from '../text';

/** The non-empty hosts of one probe or handler's httpGet and tcpSocket actions. */
function hosts(handler: JsonRecord | undefined): string[] {
  return ['httpGet', 'tcpSocket'].map((action) => stringMember(member(handler, action), 'host')).filter((host) => host !== '');
}

function hostProbesAndHostLifecycle1_34(_podMetadata: JsonRecord, podSpec: JsonRecord): CheckResult {
  const badContainers: string[] = [];
  const badHosts: string[] = [];
  for (const container of containers(podSpec)) {
    const lifecycle = member(container, 'lifecycle');
    const found = [
      ...hosts(member(container, 'livenessProbe')),
      ...hosts(member(container, 'readinessProbe')),
      ...hosts(member(container, 'startupProbe')),
      ...hosts(member(lifecycle, 'postStart')),
      ...hosts(member(lifecycle, 'preStop')),
    ];
    if (found.length > 0) {
      badContainers.push(containerName(container));
      badHosts.push(...found);
    }
  }
  if (badContainers.length === 0) return ALLOWED;
  // Both the container names and the hosts are sets here, so both lists come out sorted.
  const names = sortedSet(badContainers);
  const hostList = sortedSet(badHosts);
  return forbidden(
    'probe or lifecycle host',
    `${pluralize('container', 'containers', names.length)} ${joinQuote(names)} ${pluralize('uses', 'use', names.length)} ${pluralize('probe or lifecycle host', 'probe or lifecycle hosts', hostList.length)} ${joinQuote(hostList)}`,
  );
}

export const hostProbesAndHostLifecycle: Check = {
  id: 'hostProbesAndHostLifecycle',
  level: 'baseline',
  versions: [{ minimumVersion: 34, checkPod: hostProbesAndHostLifecycle1_34 }],
};
