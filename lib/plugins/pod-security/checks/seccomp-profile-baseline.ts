/**
 * seccompProfile_baseline (baseline; policy/check_seccompProfile_baseline.go): a seccomp profile, where
 * set, must be the runtime default or a localhost profile. Policies older than 1.19 read the alpha
 * annotations; from 1.19 the `seccompProfile` fields. At the restricted level seccompProfile_restricted
 * replaces it from 1.19 on.
 */
import { goQuote } from '../../../go/strconv';
import type { JsonRecord } from '../../../kube/record';
import { ALLOWED, forbidden, type Check, type CheckResult } from '../check';
import { containerName, containers, member, podSecurityContext, securityContext, stringMap, stringMember } from '../pod-json';
import { containersSubject, joinQuote, pluralize, sortedSet } from '../text';

const POD_ANNOTATION = 'seccomp.security.alpha.kubernetes.io/pod';
const CONTAINER_ANNOTATION_PREFIX = 'container.seccomp.security.alpha.kubernetes.io/';

/** RuntimeDefault or Localhost (shared with seccompProfile_restricted). */
export function validSeccompType(type: string): boolean {
  return type === 'RuntimeDefault' || type === 'Localhost';
}

function validAnnotationValue(value: string): boolean {
  return value === 'runtime/default' || value === 'docker/default' || value.startsWith('localhost/');
}

function seccompProfileBaseline1_0(podMetadata: JsonRecord, podSpec: JsonRecord): CheckResult {
  const annotations = stringMap(podMetadata, 'annotations');
  const bad: string[] = [];
  const podValue = annotations[POD_ANNOTATION];
  if (podValue !== undefined && !validAnnotationValue(podValue)) bad.push(`${POD_ANNOTATION}=${goQuote(podValue)}`);
  for (const container of containers(podSpec)) {
    const key = CONTAINER_ANNOTATION_PREFIX + containerName(container);
    const value = annotations[key];
    if (value !== undefined && !validAnnotationValue(value)) bad.push(`${key}=${goQuote(value)}`);
  }
  if (bad.length === 0) return ALLOWED;
  const list = sortedSet(bad);
  return forbidden('seccompProfile', `forbidden ${pluralize('annotation', 'annotations', list.length)} ${list.join(', ')}`);
}

/**
 * The pod and the containers that explicitly set a bad seccompProfile.type, and the bad types; shared
 * with seccompProfile_restricted, which words the same failure the same way.
 */
export function explicitlyBadSeccomp(podSpec: JsonRecord): { badSetters: string[]; badValues: string[]; podValid: boolean } {
  const badSetters: string[] = [];
  const badValues: string[] = [];
  let podValid = false;
  const podProfile = member(podSecurityContext(podSpec), 'seccompProfile');
  if (podProfile !== undefined) {
    const type = stringMember(podProfile, 'type');
    if (validSeccompType(type)) podValid = true;
    else {
      badSetters.push('pod');
      badValues.push(type);
    }
  }
  const badContainers: string[] = [];
  for (const container of containers(podSpec)) {
    const profile = member(securityContext(container), 'seccompProfile');
    if (profile !== undefined && !validSeccompType(stringMember(profile, 'type'))) {
      badContainers.push(containerName(container));
      badValues.push(stringMember(profile, 'type'));
    }
  }
  if (badContainers.length > 0) badSetters.push(containersSubject(badContainers));
  return { badSetters, badValues, podValid };
}

/** `<setters> must not set securityContext.seccompProfile.type to "<types>"`. */
export function badSeccompDetail(badSetters: readonly string[], badValues: readonly string[]): string {
  return `${badSetters.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(sortedSet(badValues))}`;
}

function seccompProfileBaseline1_19(_podMetadata: JsonRecord, podSpec: JsonRecord): CheckResult {
  const { badSetters, badValues } = explicitlyBadSeccomp(podSpec);
  if (badSetters.length === 0) return ALLOWED;
  return forbidden('seccompProfile', badSeccompDetail(badSetters, badValues));
}

export const SECCOMP_PROFILE_BASELINE_ID = 'seccompProfile_baseline';

export const seccompProfileBaseline: Check = {
  id: SECCOMP_PROFILE_BASELINE_ID,
  level: 'baseline',
  versions: [
    { minimumVersion: 0, checkPod: seccompProfileBaseline1_0 },
    { minimumVersion: 19, checkPod: seccompProfileBaseline1_19 },
  ],
};
