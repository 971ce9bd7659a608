/**
 * sysctls (baseline; policy/check_sysctls.go): the pod may only set namespaced, node-isolated sysctls.
 * The allowed set grows at 1.27, 1.29 and 1.32.
 */
import { isRecord } from '../../../kube/json';
import type { JsonRecord } from '../../../kube/record';
import { ALLOWED, forbidden, type Check, type CheckPodFn } from '../check';
import { listMember, podSecurityContext, stringMember } from '../pod-json';

const ALLOWED_1_0: readonly string[] = [
  'kernel.shm_rmid_forced',
  'net.ipv4.ip_local_port_range',
  'net.ipv4.tcp_syncookies',
  'net.ipv4.ping_group_range',
  'net.ipv4.ip_unprivileged_port_start',
];
const ALLOWED_1_27: readonly string[] = [...ALLOWED_1_0, 'net.ipv4.ip_local_reserved_ports'];
const ALLOWED_1_29: readonly string[] = [
  ...ALLOWED_1_27,
  'net.ipv4.tcp_keepalive_time',
  'net.ipv4.tcp_fin_timeout',
  'net.ipv4.tcp_keepalive_intvl',
  'net.ipv4.tcp_keepalive_probes',
];
const ALLOWED_1_32: readonly string[] = [...ALLOWED_1_29, 'net.ipv4.tcp_rmem', 'net.ipv4.tcp_wmem'];

function sysctlsWith(allowed: readonly string[]): CheckPodFn {
  const set = new Set(allowed);
  return (_podMetadata: JsonRecord, podSpec: JsonRecord) => {
    // In the pod's order, repeats kept: this list is not a set upstream.
    const bad = listMember(podSecurityContext(podSpec), 'sysctls')
      .filter(isRecord)
      .map((sysctl) => stringMember(sysctl, 'name'))
      .filter((name) => !set.has(name));
    if (bad.length === 0) return ALLOWED;
    return forbidden('forbidden sysctls', bad.join(', '));
  };
}

export const sysctls: Check = {
  id: 'sysctls',
  level: 'baseline',
  versions: [
    { minimumVersion: 0, checkPod: sysctlsWith(ALLOWED_1_0) },
    { minimumVersion: 27, checkPod: sysctlsWith(ALLOWED_1_27) },
    { minimumVersion: 29, checkPod: sysctlsWith(ALLOWED_1_29) },
    { minimumVersion: 32, checkPod: sysctlsWith(ALLOWED_1_32) },
  ],
};
