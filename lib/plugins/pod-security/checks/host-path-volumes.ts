/**
 * hostPathVolumes (baseline, 1.0; policy/check_hostPathVolumes.go): no hostPath volumes. At the restricted
 * level restrictedVolumes replaces it (it forbids hostPath too).
 */
import { isRecord } from '../../../kube/json';
import type { JsonRecord } from '../../../kube/record';
import { ALLOWED, forbidden, type Check, type CheckResult } from '../check';
import { listMember, member, stringMember } from '../pod-json';
import { joinQuote, pluralize } from '../text';

function hostPathVolumes1_0(_podMetadata: JsonRecord, podSpec: JsonRecord): CheckResult {
  const names = listMember(podSpec, 'volumes')
    .filter(isRecord)
    .filter((volume) => member(volume, 'hostPath') !== undefined)
    .map((volume) => stringMember(volume, 'name'));
  if (names.length === 0) return ALLOWED;
  return forbidden('hostPath volumes', `${pluralize('volume', 'volumes', names.length)} ${joinQuote(names)}`);
}

export const HOST_PATH_VOLUMES_ID = 'hostPathVolumes';

export const hostPathVolumes: Check = {
  id: HOST_PATH_VOLUMES_ID,
  level: 'baseline',
  versions: [{ minimumVersion: 0, checkPod: hostPathVolumes1_0 }],
};
