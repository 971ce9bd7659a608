/**
 * ValidatePodSpec (pkg/apis/core/validation/validation.go) for pods and for the pod templates of
 * workloads, in upstream's order, with the options kube-apiserver v1.36 uses by default
 * (GetValidationOptionsFromPodSpecAndMeta: relaxed env var names and DNS searches, zero-second sleep
 * hooks, pod-level resources, sidecar resize policies).
 */
import type { JsonObject } from '../../kube/json';
import type { FieldError } from '../../kube/status';
import { booleanOf, listOf, objectOf, optionalBoolean, optionalNumber, optionalString, stringMapOf, stringOf, stringsOf } from './access';
import { visitContainers } from './visit-containers';
import { validateContainers, validateEphemeralContainers, validateInitContainers, type ContainerContext } from './containers';
import { duplicate, forbidden, invalid, json, notSupported, required } from '../../kube/field-errors';
import { dns1123LabelErrors, dns1123SubdomainErrors, inclusiveRangeError, INVALID_IP, isIP, qualifiedNameErrors } from '../../kube/value-formats';
import { validateLabels } from './labels';
import { nameIsDnsSubdomain } from '../../kube/name-validators';
import { MAX_INT32 } from './numbers';
import type { Path } from '../../kube/field-path';
import { validateOverhead, validatePodLevelResources } from './resources';
import { validateAffinity, validateTolerations, validateTopologySpreadConstraints } from './scheduling';
import { validatePodSecurityContext } from './security-context';
import { validateVolumes } from './volumes';

/** The PodValidationOptions that differ between callers. */
export interface PodSpecOptions {
  /** kube-apiserver --allow-privileged. */
  allowPrivileged: boolean;
  /** The spec belongs to a Pod (not a workload's template). */
  resourceIsPod: boolean;
}

const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];
const DNS_POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];

/** validateRestartPolicy. */
function validateRestartPolicy(policy: string, path: Path): FieldError[] {
  if (RESTART_POLICIES.includes(policy)) return [];
  return policy === '' ? [required(path)] : [notSupported(path, json(policy), RESTART_POLICIES)];
}

/** validateDNSPolicy. */
function validateDnsPolicy(policy: string, path: Path): FieldError[] {
  if (DNS_POLICIES.includes(policy)) return [];
  return policy === '' ? [required(path)] : [notSupported(path, json(policy), DNS_POLICIES)];
}

/** validatePodDNSConfig with RelaxedDNSSearchValidation (on by default in v1.36). */
function validateDnsConfig(dnsConfig: JsonObject | undefined, dnsPolicy: string, path: Path): FieldError[] {
  if (dnsPolicy === 'None') {
    if (!dnsConfig) return [required(path, 'must provide `dnsConfig` when `dnsPolicy` is None')];
    if (stringsOf(dnsConfig, 'nameservers').length === 0)
      return [required(path.child('nameservers'), 'must provide at least one DNS nameserver when `dnsPolicy` is None')];
  }
  if (!dnsConfig) return [];
  const errors: FieldError[] = [];
  const nameservers = stringsOf(dnsConfig, 'nameservers');
  if (nameservers.length > 3) errors.push(invalid(path.child('nameservers'), json(nameservers), 'must not have more than 3 nameservers'));
  nameservers.forEach((ns, i) => {
    if (!isIP(ns)) errors.push(invalid(path.child('nameservers').index(i), ns, INVALID_IP));
  });
  const searches = stringsOf(dnsConfig, 'searches');
  if (searches.length > 32) errors.push(invalid(path.child('searches'), json(searches), 'must not have more than 32 search paths'));
  if (Buffer.byteLength(searches.join(' '), 'utf8') > 2048)
    errors.push(invalid(path.child('searches'), json(searches), 'must not have more than 2048 characters (including spaces) in the search list'));
  searches.forEach((search, i) => {
    if (search === '.') return;
    const trimmed = search.endsWith('.') ? search.slice(0, -1) : search;
    errors.push(...subdomainWithUnderscoreErrors(trimmed).map((message) => invalid(path.child('searches').index(i), trimmed, message)));
  });
  listOf(dnsConfig, 'options').forEach((option, i) => {
    if (stringOf(option, 'name') === '') errors.push(required(path.child('options').index(i), 'must not be empty'));
  });
  return errors;
}

const UNDERSCORE_LABEL = '_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?';
const UNDERSCORE_SUBDOMAIN = `${UNDERSCORE_LABEL}(\\.${UNDERSCORE_LABEL})*`;

/** IsDNS1123SubdomainWithUnderscore. */
function subdomainWithUnderscoreErrors(value: string): string[] {
  const errors: string[] = [];
  if (Buffer.byteLength(value, 'utf8') > 253) errors.push('must be no more than 253 bytes');
  if (!new RegExp(`^${UNDERSCORE_SUBDOMAIN}$`).test(value)) {
    errors.push(
      `a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '_', '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '${UNDERSCORE_SUBDOMAIN}')`,
    );
  }
  return errors;
}

/** validatePodHostNetworkDeps: with hostNetwork, hostPort must equal containerPort (0 allowed in templates). */
function validateHostNetworkPorts(spec: JsonObject, resourceIsPod: boolean, path: Path): FieldError[] {
  if (!booleanOf(spec, 'hostNetwork')) return [];
  const errors: FieldError[] = [];
  listOf(spec, 'containers').forEach((container, i) => {
    listOf(container, 'ports').forEach((port, j) => {
      const hostPort = typeof port.hostPort === 'number' ? port.hostPort : 0;
      const containerPort = typeof port.containerPort === 'number' ? port.containerPort : 0;
      if ((resourceIsPod || hostPort !== 0) && hostPort !== containerPort) {
        errors.push(
          invalid(
            path.child('containers').index(i).child('ports').index(j).child('hostPort'),
            hostPort,
            'must match `containerPort` when `hostNetwork` is true',
          ),
        );
      }
    });
  });
  return errors;
}

/** validatePodResourceClaims. */
function validateResourceClaims(claims: readonly JsonObject[], path: Path): FieldError[] {
  const errors: FieldError[] = [];
  const names = new Set<string>();
  claims.forEach((claim, i) => {
    const at = path.index(i);
    const name = stringOf(claim, 'name');
    if (name === '') errors.push(required(at.child('name')));
    else if (names.has(name)) errors.push(duplicate(at.child('name'), name));
    else {
      errors.push(...dns1123LabelErrors(name).map((message) => invalid(at.child('name'), name, message)));
      names.add(name);
    }
    const claimName = optionalString(claim, 'resourceClaimName');
    const templateName = optionalString(claim, 'resourceClaimTemplateName');
    const value = json({ Name: name, ResourceClaimName: claimName ?? null, ResourceClaimTemplateName: templateName ?? null });
    if (claimName !== undefined && templateName !== undefined)
      errors.push(invalid(at, value, 'at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified'));
    if (claimName === undefined && templateName === undefined)
      errors.push(invalid(at, value, 'must specify one of: `resourceClaimName`, `resourceClaimTemplateName`'));
    if (claimName !== undefined)
      errors.push(...nameIsDnsSubdomain(claimName, false).map((message) => invalid(at.child('resourceClaimName'), claimName, message)));
    if (templateName !== undefined)
      errors.push(...nameIsDnsSubdomain(templateName, false).map((message) => invalid(at.child('resourceClaimTemplateName'), templateName, message)));
  });
  return errors;
}

/** validateSchedulingGates: qualified names, no duplicates. */
function validateSchedulingGates(gates: readonly JsonObject[], path: Path): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  gates.forEach((gate, i) => {
    const name = stringOf(gate, 'name');
    errors.push(...qualifiedNameErrors(name).map((message) => invalid(path.index(i), name, message)));
    if (seen.has(name)) errors.push(duplicate(path.index(i), name));
    seen.add(name);
  });
  return errors;
}

/**
 * validateHostUsers: user namespaces may not be combined with the host's network, PID or IPC namespaces.
 * v1 keeps hostUsers on the pod spec; the conversion to the internal type moves it into the pod's
 * security context, where the upstream code reads it (Convert_v1_PodSpec_To_core_PodSpec).
 */
function validateHostUsers(spec: JsonObject, path: Path): FieldError[] {
  if (optionalBoolean(spec, 'hostUsers') !== false) return [];
  const errors: FieldError[] = [];
  if (booleanOf(spec, 'hostNetwork')) errors.push(forbidden(path.child('hostNetwork'), 'when `pod.Spec.HostUsers` is false'));
  if (booleanOf(spec, 'hostPID')) errors.push(forbidden(path.child('HostPID'), 'when `pod.Spec.HostUsers` is false'));
  if (booleanOf(spec, 'hostIPC')) errors.push(forbidden(path.child('HostIPC'), 'when `pod.Spec.HostUsers` is false'));
  return errors;
}

const WINDOWS_CONTAINER_FORBIDDEN = [
  'appArmorProfile',
  'seLinuxOptions',
  'seccompProfile',
  'capabilities',
  'readOnlyRootFilesystem',
  'privileged',
  'allowPrivilegeEscalation',
  'procMount',
  'runAsUser',
  'runAsGroup',
];

/** validateOS, then validateLinux / validateWindows. */
function validateOs(spec: JsonObject, path: Path): FieldError[] {
  const os = objectOf(spec, 'os');
  if (!os) return [];
  const name = stringOf(os, 'name');
  if (name === '') return [required(path.child('os').child('name'), 'cannot be empty')];
  if (name !== 'linux' && name !== 'windows') return [notSupported(path.child('os'), json(name), ['linux', 'windows'])];
  const errors: FieldError[] = [];
  const sc = objectOf(spec, 'securityContext') ?? {};
  const notForWindows = (at: Path): FieldError => forbidden(at, 'cannot be set for a windows pod');
  const set = (object: JsonObject, key: string): boolean => object[key] !== undefined && object[key] !== null;
  if (name === 'linux') {
    if (set(sc, 'windowsOptions'))
      errors.push(forbidden(path.child('securityContext').child('windowsOptions'), 'windows options cannot be set for a linux pod'));
    visitContainers(spec, path, (container, at) => {
      if (set(objectOf(container, 'securityContext') ?? {}, 'windowsOptions'))
        errors.push(forbidden(at().child('securityContext').child('windowsOptions'), 'windows options cannot be set for a linux pod'));
    });
    return errors;
  }
  // validateWindows: the pod security context (which holds the host* flags internally), then each container's.
  const scPath = path.child('securityContext');
  if (set(sc, 'appArmorProfile')) errors.push(notForWindows(scPath.child('appArmorProfile')));
  if (set(sc, 'seLinuxOptions')) errors.push(notForWindows(scPath.child('seLinuxOptions')));
  if (set(spec, 'hostUsers')) errors.push(notForWindows(path.child('hostUsers')));
  if (booleanOf(spec, 'hostPID')) errors.push(notForWindows(path.child('hostPID')));
  if (booleanOf(spec, 'hostIPC')) errors.push(notForWindows(path.child('hostIPC')));
  if (set(sc, 'seccompProfile')) errors.push(notForWindows(scPath.child('seccompProfile')));
  if (set(sc, 'fsGroup')) errors.push(notForWindows(scPath.child('fsGroup')));
  if (set(sc, 'fsGroupChangePolicy')) errors.push(notForWindows(scPath.child('fsGroupChangePolicy')));
  if (listOf(sc, 'sysctls').length > 0) errors.push(notForWindows(scPath.child('sysctls')));
  if (set(spec, 'shareProcessNamespace')) errors.push(notForWindows(path.child('shareProcessNamespace')));
  for (const key of ['runAsUser', 'runAsGroup', 'supplementalGroups', 'supplementalGroupsPolicy', 'seLinuxChangePolicy']) {
    if (set(sc, key)) errors.push(notForWindows(scPath.child(key)));
  }
  visitContainers(spec, path, (container, at) => {
    const csc = objectOf(container, 'securityContext');
    if (!csc) return;
    for (const key of WINDOWS_CONTAINER_FORBIDDEN) if (set(csc, key)) errors.push(notForWindows(at().child('securityContext').child(key)));
  });
  return errors;
}

/** ValidateHostAliases. */
function validateHostAliases(aliases: readonly JsonObject[], path: Path): FieldError[] {
  const errors: FieldError[] = [];
  aliases.forEach((alias, i) => {
    const ip = stringOf(alias, 'ip');
    if (!isIP(ip)) errors.push(invalid(path.index(i).child('ip'), ip, INVALID_IP));
    stringsOf(alias, 'hostnames').forEach((hostname, j) =>
      errors.push(...dns1123SubdomainErrors(hostname).map((message) => invalid(path.index(i).child('hostnames').index(j), hostname, message))),
    );
  });
  return errors;
}

/** The pod's volumes and claims, which container validation needs. */
export function podContainerContext(
  spec: JsonObject,
  podName: string | undefined,
  path: Path,
  options: PodSpecOptions,
): { context: ContainerContext; volumeErrors: FieldError[] } {
  const { sources, errors } = validateVolumes(listOf(spec, 'volumes'), podName, path.child('volumes'), options.resourceIsPod);
  const context: ContainerContext = {
    volumes: sources,
    podClaimNames: new Set(
      listOf(spec, 'resourceClaims')
        .map((c) => stringOf(c, 'name'))
        .filter((n) => n !== ''),
    ),
    gracePeriod: optionalNumber(spec, 'terminationGracePeriodSeconds'),
    restartPolicy: stringOf(spec, 'restartPolicy'),
    // spec.hostUsers (v1): a pod in its own user namespace may unmask /proc.
    hostUsers: optionalBoolean(spec, 'hostUsers') !== false,
    allowPrivileged: options.allowPrivileged,
  };
  return { context, volumeErrors: errors };
}

/** ValidatePodSpec. `podName`: the pod's name (for generic ephemeral volumes); undefined for templates. */
export function validatePodSpec(spec: JsonObject, podName: string | undefined, path: Path, options: PodSpecOptions): FieldError[] {
  const errors: FieldError[] = [];
  if (optionalNumber(spec, 'terminationGracePeriodSeconds') === undefined) errors.push(required(path.child('terminationGracePeriodSeconds')));
  const { context, volumeErrors } = podContainerContext(spec, podName, path, options);
  errors.push(...volumeErrors);
  errors.push(...validateResourceClaims(listOf(spec, 'resourceClaims'), path.child('resourceClaims')));
  const containers = listOf(spec, 'containers');
  const initContainers = listOf(spec, 'initContainers');
  errors.push(...validateContainers(containers, context, path.child('containers')));
  errors.push(...validateInitContainers(initContainers, containers, context, path.child('initContainers')));
  errors.push(...validateEphemeralContainers(listOf(spec, 'ephemeralContainers'), containers, initContainers, context, path.child('ephemeralContainers')));
  const podResources = objectOf(spec, 'resources');
  if (podResources) {
    if (podResources.claims !== undefined && podResources.claims !== null)
      errors.push(forbidden(path.child('resources').child('claims'), 'claims cannot be set for Resources at pod-level'));
    errors.push(...validatePodLevelResources(podResources, context.podClaimNames, path.child('resources')));
  }
  errors.push(...validateHostNetworkPorts(spec, options.resourceIsPod, path));
  errors.push(...validateRestartPolicy(stringOf(spec, 'restartPolicy'), path.child('restartPolicy')));
  const dnsPolicy = stringOf(spec, 'dnsPolicy');
  errors.push(...validateDnsPolicy(dnsPolicy, path.child('dnsPolicy')));
  errors.push(...validateLabels(stringMapOf(spec, 'nodeSelector'), path.child('nodeSelector')));
  errors.push(...validatePodSecurityContext(spec, path.child('securityContext')));
  errors.push(...validateAffinity(objectOf(spec, 'affinity'), path.child('affinity')));
  errors.push(...validateDnsConfig(objectOf(spec, 'dnsConfig'), dnsPolicy, path.child('dnsConfig')));
  listOf(spec, 'readinessGates').forEach((gate, i) => {
    const type = stringOf(gate, 'conditionType');
    errors.push(...qualifiedNameErrors(type).map((message) => invalid(path.child('readinessGates').index(i).child('conditionType'), type, message)));
  });
  errors.push(...validateSchedulingGates(listOf(spec, 'schedulingGates'), path.child('schedulingGates')));
  errors.push(...validateTopologySpreadConstraints(listOf(spec, 'topologySpreadConstraints'), path.child('topologySpreadConstraints')));
  errors.push(...validateHostUsers(spec, path));
  // The deprecated serviceAccount is an alias the conversion copies when serviceAccountName is empty.
  const serviceAccountName = stringOf(spec, 'serviceAccountName') || stringOf(spec, 'serviceAccount');
  if (serviceAccountName.length > 0)
    errors.push(...nameIsDnsSubdomain(serviceAccountName, false).map((message) => invalid(path.child('serviceAccountName'), serviceAccountName, message)));
  const nodeName = stringOf(spec, 'nodeName');
  if (nodeName.length > 0) errors.push(...nameIsDnsSubdomain(nodeName, false).map((message) => invalid(path.child('nodeName'), nodeName, message)));
  const deadline = optionalNumber(spec, 'activeDeadlineSeconds');
  if (deadline !== undefined && (deadline < 1 || deadline > MAX_INT32))
    errors.push(invalid(path.child('activeDeadlineSeconds'), deadline, inclusiveRangeError(1, MAX_INT32)));
  for (const key of ['hostname', 'subdomain']) {
    const value = stringOf(spec, key);
    if (value.length > 0) errors.push(...dns1123LabelErrors(value).map((message) => invalid(path.child(key), value, message)));
  }
  const tolerations = listOf(spec, 'tolerations');
  if (tolerations.length > 0) errors.push(...validateTolerations(tolerations, path.child('tolerations')));
  errors.push(...validateHostAliases(listOf(spec, 'hostAliases'), path.child('hostAliases')));
  const priorityClassName = stringOf(spec, 'priorityClassName');
  if (priorityClassName.length > 0)
    errors.push(...nameIsDnsSubdomain(priorityClassName, false).map((message) => invalid(path.child('priorityClassName'), priorityClassName, message)));
  const runtimeClassName = optionalString(spec, 'runtimeClassName');
  if (runtimeClassName !== undefined)
    errors.push(...nameIsDnsSubdomain(runtimeClassName, false).map((message) => invalid(path.child('runtimeClassName'), runtimeClassName, message)));
  const preemptionPolicy = optionalString(spec, 'preemptionPolicy');
  if (preemptionPolicy !== undefined && preemptionPolicy !== 'PreemptLowerPriority' && preemptionPolicy !== 'Never') {
    errors.push(
      preemptionPolicy === ''
        ? required(path.child('preemptionPolicy'))
        : notSupported(path.child('preemptionPolicy'), json(preemptionPolicy), ['PreemptLowerPriority', 'Never']),
    );
  }
  const overhead = objectOf(spec, 'overhead');
  if (overhead) errors.push(...validateOverhead(overhead, path.child('overhead')));
  errors.push(...validateOs(spec, path));
  return errors;
}
