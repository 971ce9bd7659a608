/**
 * procMount_restricted (restricted, from 1.35; policy/check_procMount_restricted.go): the strict procMount
 * rule, user namespace or not. It exists because the baseline procMount relaxed for user-namespace pods at
 * 1.35; it overrides that check at the restricted level so restricted stays as strict as before.
 */
import type { Check } from '../check';
import { PROC_MOUNT_ID, procMount1_0 } from './proc-mount';

export const procMountRestricted: Check = {
  id: 'procMount_restricted',
  level: 'restricted',
  versions: [{ minimumVersion: 35, checkPod: procMount1_0, overrides: [PROC_MOUNT_ID] }],
};
