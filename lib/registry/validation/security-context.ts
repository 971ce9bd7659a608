/**
 * Security contexts (core validation ValidateSecurityContext, validatePodSpecSecurityContext,
 * validateSysctls, validateSeccompProfileField, ValidateAppArmorProfileField): the container checks
 * include `--allow-privileged` (`privileged: Forbidden: disallowed by cluster policy`).
 */
import type { Json, JsonObject } from '../../kube/json';
import type { FieldError } from '../../kube/status';
import { booleanOf, listOf, objectOf, optionalBoolean, optionalNumber, optionalString, stringOf, stringsOf } from './access';
import { duplicate, forbidden, invalid, json, notSupported, required, tooLong } from '../../kube/field-errors';
import { groupIdErrors, userIdErrors } from '../../kube/value-formats';
import type { Path } from '../../kube/field-path';
import { validateLocalDescendingPath } from './paths-local';

const SECCOMP_TYPES = ['Localhost', 'RuntimeDefault', 'Unconfined'];

/** The internal SeccompProfile struct as json.Marshal prints it (no json tags: Go field names). */
function seccompProfileValue(profile: JsonObject): Json {
  return { Type: stringOf(profile, 'type'), LocalhostProfile: optionalString(profile, 'localhostProfile') ?? null };
}

/** validateSeccompProfileField. */
export function validateSeccompProfile(profile: JsonObject | undefined, path: Path): FieldError[] {
  if (!profile) return [];
  const errors: FieldError[] = [];
  const type = stringOf(profile, 'type');
  if (type === '') errors.push(required(path.child('type'), 'type is required when seccompProfile is set'));
  else if (!SECCOMP_TYPES.includes(type)) errors.push(notSupported(path.child('type'), json(type), SECCOMP_TYPES));
  const localhost = optionalString(profile, 'localhostProfile');
  if (type === 'Localhost') {
    if (localhost === undefined) errors.push(required(path.child('localhostProfile'), 'must be set when seccomp type is Localhost'));
    else errors.push(...validateLocalDescendingPath(localhost, path.child('localhostProfile')));
  } else if (localhost !== undefined) {
    errors.push(invalid(path.child('localhostProfile'), json(seccompProfileValue(profile)), 'can only be set when seccomp type is Localhost'));
  }
  return errors;
}

const APPARMOR_TYPES = ['Localhost', 'RuntimeDefault', 'Unconfined'];

/** ValidateAppArmorProfileField. */
export function validateAppArmorProfile(profile: JsonObject | undefined, path: Path): FieldError[] {
  if (!profile) return [];
  const errors: FieldError[] = [];
  const localhost = optionalString(profile, 'localhostProfile');
  const type = stringOf(profile, 'type');
  switch (type) {
    case 'Localhost':
      if (localhost === undefined) {
        errors.push(required(path.child('localhostProfile'), 'must be set when AppArmor type is Localhost'));
      } else {
        const trimmed = localhost.trim();
        if (trimmed !== localhost) errors.push(invalid(path.child('localhostProfile'), localhost, 'must not be padded with whitespace'));
        else if (trimmed === '') errors.push(required(path.child('localhostProfile'), 'must be set when AppArmor type is Localhost'));
        if (Buffer.byteLength(localhost, 'utf8') > 4095) errors.push(tooLong(path.child('localhostProfile'), 4095));
      }
      break;
    case 'RuntimeDefault':
    case 'Unconfined':
      if (localhost !== undefined) errors.push(invalid(path.child('localhostProfile'), json(localhost), 'can only be set when AppArmor type is Localhost'));
      break;
    case '':
      errors.push(required(path.child('type'), 'type is required when appArmorProfile is set'));
      break;
    default:
      errors.push(notSupported(path.child('type'), json(type), APPARMOR_TYPES));
  }
  return errors;
}

const pointer = (value: Json | undefined): Json => (value === undefined ? null : value);

/** A nil slice marshals as null, an empty one as []. */
function slice(object: JsonObject, key: string): Json {
  return Array.isArray(object[key]) ? stringsOf(object, key) : null;
}

/** An internal struct of string members (SELinuxOptions, SeccompProfile, AppArmorProfile) with Go field names. */
function goStruct(object: JsonObject | undefined, members: readonly [goName: string, jsonName: string, pointer: boolean][]): Json {
  if (!object) return null;
  const out: JsonObject = {};
  for (const [goName, jsonName, isPointer] of members) out[goName] = isPointer ? pointer(optionalString(object, jsonName)) : stringOf(object, jsonName);
  return out;
}

function windowsOptionsValue(options: JsonObject | undefined): Json {
  if (!options) return null;
  return {
    GMSACredentialSpecName: pointer(optionalString(options, 'gmsaCredentialSpecName')),
    GMSACredentialSpec: pointer(optionalString(options, 'gmsaCredentialSpec')),
    RunAsUserName: pointer(optionalString(options, 'runAsUserName')),
    HostProcess: pointer(optionalBoolean(options, 'hostProcess')),
  };
}

/**
 * The internal core.SecurityContext as json.Marshal prints it: internal types have no json tags, so
 * members carry their Go names, in Go field order.
 */
function securityContextValue(sc: JsonObject): Json {
  const capabilities = objectOf(sc, 'capabilities');
  return {
    Capabilities: capabilities ? { Add: slice(capabilities, 'add'), Drop: slice(capabilities, 'drop') } : null,
    Privileged: pointer(optionalBoolean(sc, 'privileged')),
    SELinuxOptions: goStruct(objectOf(sc, 'seLinuxOptions'), [
      ['User', 'user', false],
      ['Role', 'role', false],
      ['Type', 'type', false],
      ['Level', 'level', false],
    ]),
    WindowsOptions: windowsOptionsValue(objectOf(sc, 'windowsOptions')),
    RunAsUser: pointer(optionalNumber(sc, 'runAsUser')),
    RunAsGroup: pointer(optionalNumber(sc, 'runAsGroup')),
    RunAsNonRoot: pointer(optionalBoolean(sc, 'runAsNonRoot')),
    ReadOnlyRootFilesystem: pointer(optionalBoolean(sc, 'readOnlyRootFilesystem')),
    AllowPrivilegeEscalation: pointer(optionalBoolean(sc, 'allowPrivilegeEscalation')),
    ProcMount: pointer(optionalString(sc, 'procMount')),
    SeccompProfile: goStruct(objectOf(sc, 'seccompProfile'), [
      ['Type', 'type', false],
      ['LocalhostProfile', 'localhostProfile', true],
    ]),
    AppArmorProfile: goStruct(objectOf(sc, 'appArmorProfile'), [
      ['Type', 'type', false],
      ['LocalhostProfile', 'localhostProfile', true],
    ]),
  };
}

/** ValidateSecurityContext (a container's). */
export function validateContainerSecurityContext(sc: JsonObject | undefined, path: Path, hostUsers: boolean, allowPrivileged: boolean): FieldError[] {
  if (!sc) return [];
  const errors: FieldError[] = [];
  const privileged = optionalBoolean(sc, 'privileged');
  if (privileged === true && !allowPrivileged) errors.push(forbidden(path.child('privileged'), 'disallowed by cluster policy'));
  const runAsUser = optionalNumber(sc, 'runAsUser');
  if (runAsUser !== undefined) errors.push(...userIdErrors(runAsUser).map((message) => invalid(path.child('runAsUser'), runAsUser, message)));
  const runAsGroup = optionalNumber(sc, 'runAsGroup');
  if (runAsGroup !== undefined) errors.push(...groupIdErrors(runAsGroup).map((message) => invalid(path.child('runAsGroup'), runAsGroup, message)));
  const procMount = optionalString(sc, 'procMount');
  if (procMount !== undefined) {
    if (procMount !== 'Default' && procMount !== 'Unmasked') errors.push(notSupported(path.child('procMount'), json(procMount), ['Default', 'Unmasked']));
    if (hostUsers && procMount === 'Unmasked') errors.push(invalid(path.child('procMount'), json(procMount), '`hostUsers` must be false to use `Unmasked`'));
  }
  errors.push(...validateSeccompProfile(objectOf(sc, 'seccompProfile'), path.child('seccompProfile')));
  if (optionalBoolean(sc, 'allowPrivilegeEscalation') === false) {
    if (privileged === true)
      errors.push(invalid(path, json(securityContextValue(sc)), 'cannot set `allowPrivilegeEscalation` to false and `privileged` to true'));
    for (const capability of stringsOf(objectOf(sc, 'capabilities'), 'add')) {
      if (capability === 'CAP_SYS_ADMIN')
        errors.push(invalid(path, json(securityContextValue(sc)), 'cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN'));
    }
  }
  errors.push(...validateAppArmorProfile(objectOf(sc, 'appArmorProfile'), path.child('appArmorProfile')));
  return errors;
}

const SYSCTL_SEGMENT = '[a-z0-9]([-_a-z0-9]*[a-z0-9])?';
const SYSCTL_PATTERN = `^(${SYSCTL_SEGMENT}[\\./])*${SYSCTL_SEGMENT}$`;
const SYSCTL = new RegExp(SYSCTL_PATTERN);

/** utilsysctl.GetNamespace: which namespace a (namespaced) sysctl belongs to. */
function sysctlNamespace(name: string): 'net' | 'ipc' | undefined {
  const normalized = name.replace(/\//g, '.');
  if (normalized.startsWith('net.')) return 'net';
  if (['kernel.shm', 'kernel.msg', 'fs.mqueue.'].some((prefix) => normalized.startsWith(prefix)) || normalized === 'kernel.sem') return 'ipc';
  return undefined;
}

/** validateSysctls: names, duplicates, and no net/ipc sysctls when sharing the host's namespace. */
function validateSysctls(spec: JsonObject, sysctls: readonly JsonObject[], path: Path): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  sysctls.forEach((sysctl, i) => {
    const name = stringOf(sysctl, 'name');
    const at = path.index(i).child('name');
    if (name === '') errors.push(required(at));
    else if (Buffer.byteLength(name, 'utf8') > 253 || !SYSCTL.test(name))
      errors.push(invalid(at, name, `must have at most 253 characters and match regex ${SYSCTL_PATTERN}`));
    else if (seen.has(name)) errors.push(duplicate(at, name));
    const namespace = sysctlNamespace(name);
    if (booleanOf(spec, 'hostNetwork') && namespace === 'net') errors.push(invalid(at, name, "may not be specified when 'hostNetwork' is true"));
    else if (booleanOf(spec, 'hostIPC') && namespace === 'ipc') errors.push(invalid(at, name, "may not be specified when 'hostIPC' is true"));
    seen.add(name);
  });
  return errors;
}

/**
 * validatePodSpecSecurityContext. Kube keeps hostNetwork/hostPID/hostIPC/shareProcessNamespace inside
 * the internal pod security context; here they are read from the v1 spec.
 */
export function validatePodSecurityContext(spec: JsonObject, path: Path): FieldError[] {
  // The conversion to the internal type always makes a pod security context (it carries the host* flags).
  const sc = objectOf(spec, 'securityContext') ?? {};
  const errors: FieldError[] = [];
  const fsGroup = optionalNumber(sc, 'fsGroup');
  if (fsGroup !== undefined) errors.push(...groupIdErrors(fsGroup).map((message) => invalid(path.child('fsGroup'), fsGroup, message)));
  const runAsUser = optionalNumber(sc, 'runAsUser');
  if (runAsUser !== undefined) errors.push(...userIdErrors(runAsUser).map((message) => invalid(path.child('runAsUser'), runAsUser, message)));
  const runAsGroup = optionalNumber(sc, 'runAsGroup');
  if (runAsGroup !== undefined) errors.push(...groupIdErrors(runAsGroup).map((message) => invalid(path.child('runAsGroup'), runAsGroup, message)));
  const groups = Array.isArray(sc.supplementalGroups) ? sc.supplementalGroups : [];
  groups.forEach((gid, i) => {
    if (typeof gid === 'number') errors.push(...groupIdErrors(gid).map((message) => invalid(path.child('supplementalGroups').index(i), gid, message)));
  });
  const share = optionalBoolean(spec, 'shareProcessNamespace');
  if (share === true && booleanOf(spec, 'hostPID'))
    errors.push(invalid(path.child('shareProcessNamespace'), share, 'ShareProcessNamespace and HostPID cannot both be enabled'));
  const sysctls = listOf(sc, 'sysctls');
  if (sysctls.length > 0) errors.push(...validateSysctls(spec, sysctls, path.child('sysctls')));
  const fsGroupChangePolicy = optionalString(sc, 'fsGroupChangePolicy');
  if (fsGroupChangePolicy !== undefined && fsGroupChangePolicy !== 'Always' && fsGroupChangePolicy !== 'OnRootMismatch') {
    errors.push(notSupported(path.child('fsGroupChangePolicy'), json(fsGroupChangePolicy), ['Always', 'OnRootMismatch']));
  }
  errors.push(...validateSeccompProfile(objectOf(sc, 'seccompProfile'), path.child('seccompProfile')));
  errors.push(...validateAppArmorProfile(objectOf(sc, 'appArmorProfile'), path.child('appArmorProfile')));
  const supplementalGroupsPolicy = optionalString(sc, 'supplementalGroupsPolicy');
  if (supplementalGroupsPolicy !== undefined && supplementalGroupsPolicy !== 'Merge' && supplementalGroupsPolicy !== 'Strict') {
    errors.push(notSupported(path.child('supplementalGroupsPolicy'), json(supplementalGroupsPolicy), ['Merge', 'Strict']));
  }
  const seLinuxChangePolicy = optionalString(sc, 'seLinuxChangePolicy');
  if (seLinuxChangePolicy !== undefined && seLinuxChangePolicy !== 'MountOption' && seLinuxChangePolicy !== 'Recursive') {
    errors.push(notSupported(path.child('seLinuxChangePolicy'), json(seLinuxChangePolicy), ['MountOption', 'Recursive']));
  }
  return errors;
}
