/**
 * appArmorProfile (baseline, 1.0; policy/check_appArmorProfile.go): the AppArmor profile may not be
 * overridden with anything but the runtime default or a localhost profile — through the pod or container
 * `securityContext.appArmorProfile.type` fields, or the deprecated
 * `container.apparmor.security.beta.kubernetes.io/*` annotations. The field check was added to the 1.0
 * revision in place (1.30), so it applies at every pinned version.
 */
import { goQuote } from '../../../go/strconv';
import type { JsonRecord } from '../../../kube/record';
import { ALLOWED, forbidden, type Check, type CheckResult } from '../check';
import { containerName, containers, member, podSecurityContext, securityContext, stringMap, stringMember } from '../pod-json';
import { containersSubject, goSorted, joinQuote, pluralize, sortedSet } from '../text';

const ANNOTATION_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';

function allowedType(type: string): boolean {
  return type === 'RuntimeDefault' || type === 'Localhost';
}

function allowedAnnotationValue(value: string): boolean {
  return value === '' || value === 'runtime/default' || value.startsWith('localhost/');
}

function appArmorProfile1_0(podMetadata: JsonRecord, podSpec: JsonRecord): CheckResult {
  const badSetters: string[] = [];
  const badValues: string[] = [];
  const podProfile = member(podSecurityContext(podSpec), 'appArmorProfile');
  if (podProfile !== undefined && !allowedType(stringMember(podProfile, 'type'))) {
    badSetters.push('pod');
    badValues.push(stringMember(podProfile, 'type'));
  }
  const badContainers: string[] = [];
  for (const container of containers(podSpec)) {
    const profile = member(securityContext(container), 'appArmorProfile');
    if (profile !== undefined && !allowedType(stringMember(profile, 'type'))) {
      badContainers.push(containerName(container));
      badValues.push(stringMember(profile, 'type'));
    }
  }
  if (badContainers.length > 0) badSetters.push(containersSubject(badContainers));

  const forbiddenAnnotations = goSorted(
    Object.entries(stringMap(podMetadata, 'annotations'))
      .filter(([key, value]) => key.startsWith(ANNOTATION_PREFIX) && !allowedAnnotationValue(value))
      .map(([key, value]) => `${key}=${goQuote(value)}`),
  );
  // The field types are a sorted set; the annotations follow them, sorted among themselves.
  const badValueList = [...sortedSet(badValues), ...forbiddenAnnotations];
  if (forbiddenAnnotations.length > 0) badSetters.push(pluralize('annotation', 'annotations', forbiddenAnnotations.length));

  if (badSetters.length === 0) return ALLOWED;
  return forbidden(
    pluralize('forbidden AppArmor profile', 'forbidden AppArmor profiles', badValueList.length),
    `${badSetters.join(' and ')} must not set AppArmor profile type to ${joinQuote(badValueList)}`,
  );
}

export const appArmorProfile: Check = {
  id: 'appArmorProfile',
  level: 'baseline',
  versions: [{ minimumVersion: 0, checkPod: appArmorProfile1_0 }],
};
