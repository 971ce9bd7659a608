/** hostNamespaces (baseline, 1.0; policy/check_hostNamespaces.go): no hostNetwork, hostPID or hostIPC. */
import type { JsonRecord } from '../../../kube/record';
import { ALLOWED, forbidden, type Check, type CheckResult } from '../check';
import { sortedSet } from '../text';

function hostNamespaces1_0(_podMetadata: JsonRecord, podSpec: JsonRecord): CheckResult {
  const used = ['hostNetwork', 'hostPID', 'hostIPC'].filter((field) => podSpec[field] === true);
  if (used.length === 0) return ALLOWED;
  return forbidden('host namespaces', sortedSet(used).join(', '));
}

export const hostNamespaces: Check = {
  id: 'hostNamespaces',
  level: 'baseline',
  versions: [{ minimumVersion: 0, checkPod: hostNamespaces1_0 }],
};
