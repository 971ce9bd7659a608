/**
 * seLinuxOptions (baseline; policy/check_seLinuxOptions.go): the pod and its containers may only set an
 * allowed SELinux type, and never a user or role. 1.31 adds `container_engine_t` to the allowed types.
 */
import type { JsonRecord } from '../../../kube/record';
import { ALLOWED, forbidden, type Check, type CheckPodFn } from '../check';
import { containerName, containers, member, podSecurityContext, securityContext, stringMember } from '../pod-json';
import { containersSubject, joinQuote, pluralize, sortedSet } from '../text';

const TYPES_1_0: ReadonlySet<string> = new Set(['', 'container_t', 'container_init_t', 'container_kvm_t']);
const TYPES_1_31: ReadonlySet<string> = new Set([...TYPES_1_0, 'container_engine_t']);

function seLinuxOptionsWith(allowedTypes: ReadonlySet<string>): CheckPodFn {
  return (_podMetadata: JsonRecord, podSpec: JsonRecord) => {
    const badTypes: string[] = [];
    let setUser = false;
    let setRole = false;
    const valid = (options: JsonRecord): boolean => {
      let ok = true;
      const type = stringMember(options, 'type');
      if (!allowedTypes.has(type)) {
        ok = false;
        badTypes.push(type);
      }
      if (stringMember(options, 'user') !== '') {
        ok = false;
        setUser = true;
      }
      if (stringMember(options, 'role') !== '') {
        ok = false;
        setRole = true;
      }
      return ok;
    };

    const badSetters: string[] = [];
    const podOptions = member(podSecurityContext(podSpec), 'seLinuxOptions');
    if (podOptions !== undefined && !valid(podOptions)) badSetters.push('pod');
    const badContainers = containers(podSpec)
      .filter((container) => {
        const options = member(securityContext(container), 'seLinuxOptions');
        return options !== undefined && !valid(options);
      })
      .map(containerName);
    if (badContainers.length > 0) badSetters.push(containersSubject(badContainers));
    if (badSetters.length === 0) return ALLOWED;

    const types = sortedSet(badTypes);
    const badData: string[] = [];
    if (types.length > 0) badData.push(`${pluralize('type', 'types', types.length)} ${joinQuote(types)}`);
    if (setUser) badData.push('user may not be set');
    if (setRole) badData.push('role may not be set');
    return forbidden('seLinuxOptions', `${badSetters.join(' and ')} set forbidden securityContext.seLinuxOptions: ${badData.join('; ')}`);
  };
}

export const seLinuxOptions: Check = {
  id: 'seLinuxOptions',
  level: 'baseline',
  versions: [
    { minimumVersion: 0, checkPod: seLinuxOptionsWith(TYPES_1_0) },
    { minimumVersion: 31, checkPod: seLinuxOptionsWith(TYPES_1_31) },
  ],
};
