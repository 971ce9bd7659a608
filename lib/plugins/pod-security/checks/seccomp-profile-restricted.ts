/**
 * seccompProfile_restricted (restricted; policy/check_seccompProfile_restricted.go): the pod sets a
 * RuntimeDefault or Localhost seccomp profile, or every container does; no bad type anywhere. From 1.19;
 * from 1.25 a Windows pod is exempt. Replaces seccompProfile_baseline at the restricted level.
 */
import type { JsonRecord } from '../../../kube/record';
import { ALLOWED, forbidden, type Check, type CheckResult } from '../check';
import { containerName, containers, isWindowsPod, member, securityContext } from '../pod-json';
import { containersSubject } from '../text';
import { badSeccompDetail, explicitlyBadSeccomp, SECCOMP_PROFILE_BASELINE_ID } from './seccomp-profile-baseline';

function seccompProfileRestricted1_19(_podMetadata: JsonRecord, podSpec: JsonRecord): CheckResult {
  const { badSetters, badValues, podValid } = explicitlyBadSeccomp(podSpec);
  if (badSetters.length > 0) return forbidden('seccompProfile', badSeccompDetail(badSetters, badValues));
  // Containers without their own profile inherit the pod's; without a valid pod profile they have none.
  const implicitlyBad = podValid
    ? []
    : containers(podSpec)
        .filter((c) => member(securityContext(c), 'seccompProfile') === undefined)
        .map(containerName);
  if (implicitlyBad.length === 0) return ALLOWED;
  return forbidden(
    'seccompProfile',
    `pod or ${containersSubject(implicitlyBad)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"`,
  );
}

function seccompProfileRestricted1_25(podMetadata: JsonRecord, podSpec: JsonRecord): CheckResult {
  // Windows has no seccomp.
  if (isWindowsPod(podSpec)) return ALLOWED;
  return seccompProfileRestricted1_19(podMetadata, podSpec);
}

export const seccompProfileRestricted: Check = {
  id: 'seccompProfile_restricted',
  level: 'restricted',
  versions: [
    { minimumVersion: 19, checkPod: seccompProfileRestricted1_19, overrides: [SECCOMP_PROFILE_BASELINE_ID] },
    { minimumVersion: 25, checkPod: seccompProfileRestricted1_25, overrides: [SECCOMP_PROFILE_BASELINE_ID] },
  ],
};
