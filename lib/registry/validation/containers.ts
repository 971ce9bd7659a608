/**
 * Containers of a pod spec (core validation validateContainers, validateInitContainers,
 * validateEphemeralContainers, validateContainerCommon and what it calls: ports, env and envFrom (container-env.ts),
 * volume mounts and devices, pull policy, resources, resize policy, security context, host ports).
 */
import type { JsonObject } from '../../kube/json';
import type { FieldError } from '../../kube/status';
import { has, listOf, numberOf, objectOf, optionalString, stringOf, valueOf } from './access';
import { validateEnv, validateEnvFrom } from './container-env';
import { duplicate, forbidden, invalid, json, notFound, notSupported, required } from '../../kube/field-errors';
import { dns1123LabelErrors, portNameErrors, portNumberErrors } from '../../kube/value-formats';
import type { Path } from '../../kube/field-path';
import { validatePathNoBacksteps, validateLocalDescendingPath } from './paths-local';
import { validateLifecycle, validateLivenessProbe, validateReadinessProbe, validateStartupProbe } from './probes';
import { validatePullPolicy } from './pull-policy';
import { validateContainerResources } from './resources';
import { validateContainerSecurityContext } from './security-context';
import type { VolumeSources } from './volumes';

/** What container validation needs to know about the pod around it. */
export interface ContainerContext {
  volumes: VolumeSources;
  podClaimNames: ReadonlySet<string>;
  gracePeriod: number | undefined;
  restartPolicy: string;
  hostUsers: boolean;
  allowPrivileged: boolean;
}

const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];

/** validateContainerPorts. */
function validatePorts(ports: readonly JsonObject[], path: Path): FieldError[] {
  const errors: FieldError[] = [];
  const names = new Set<string>();
  ports.forEach((port, i) => {
    const at = path.index(i);
    const name = stringOf(port, 'name');
    if (name.length > 0) {
      const messages = portNameErrors(name);
      if (messages.length > 0) errors.push(...messages.map((message) => invalid(at.child('name'), name, message)));
      else if (names.has(name)) errors.push(duplicate(at.child('name'), name));
      else names.add(name);
    }
    const containerPort = numberOf(port, 'containerPort');
    if (containerPort === 0) errors.push(required(at.child('containerPort')));
    else errors.push(...portNumberErrors(containerPort).map((message) => invalid(at.child('containerPort'), containerPort, message)));
    const hostPort = numberOf(port, 'hostPort');
    if (hostPort !== 0) errors.push(...portNumberErrors(hostPort).map((message) => invalid(at.child('hostPort'), hostPort, message)));
    const protocol = stringOf(port, 'protocol');
    if (protocol === '') errors.push(required(at.child('protocol')));
    else if (!PROTOCOLS.includes(protocol)) errors.push(notSupported(at.child('protocol'), json(protocol), PROTOCOLS));
  });
  return errors;
}

const MOUNT_PROPAGATIONS = ['Bidirectional', 'HostToContainer', 'None'];
const RECURSIVE_READ_ONLY = ['Disabled', 'Enabled', 'IfPossible'];

/** ValidateVolumeMounts. Several errors name `volumeMounts.<field>` without the index, as upstream does. */
function validateVolumeMounts(container: JsonObject, volumes: VolumeSources, path: Path): FieldError[] {
  const errors: FieldError[] = [];
  const devices = listOf(container, 'volumeDevices');
  const deviceNames = new Set(devices.map((d) => stringOf(d, 'name')));
  const devicePaths = new Set(devices.map((d) => stringOf(d, 'devicePath')));
  const mountPoints = new Set<string>();
  const privileged = objectOf(container, 'securityContext')?.privileged === true;
  listOf(container, 'volumeMounts').forEach((mount, i) => {
    const at = path.index(i);
    const name = stringOf(mount, 'name');
    const mountPath = stringOf(mount, 'mountPath');
    if (name === '') errors.push(required(at.child('name')));
    if (!volumes.has(name)) errors.push(notFound(at.child('name'), name));
    if (mountPath === '') errors.push(required(at.child('mountPath')));
    if (mountPoints.has(mountPath)) errors.push(invalid(at.child('mountPath'), mountPath, 'must be unique'));
    mountPoints.add(mountPath);
    if (deviceNames.has(name)) errors.push(invalid(at.child('name'), name, 'must not already exist in volumeDevices'));
    if (devicePaths.has(mountPath)) errors.push(invalid(at.child('mountPath'), mountPath, 'must not already exist as a path in volumeDevices'));
    const subPath = stringOf(mount, 'subPath');
    const subPathExpr = stringOf(mount, 'subPathExpr');
    if (has(volumes.get(name), 'image')) {
      if (subPath.length !== 0) errors.push(invalid(at.child('subPath'), subPath, 'not allowed in image volume sources'));
      if (subPathExpr.length !== 0) errors.push(invalid(at.child('subPathExpr'), subPathExpr, 'not allowed in image volume sources'));
    }
    if (subPath.length > 0) errors.push(...validateLocalDescendingPath(subPath, path.child('subPath')));
    if (subPathExpr.length > 0) {
      if (subPath.length > 0) errors.push(invalid(at.child('subPathExpr'), subPathExpr, 'subPathExpr and subPath are mutually exclusive'));
      errors.push(...validateLocalDescendingPath(subPathExpr, path.child('subPathExpr')));
    }
    const propagation = optionalString(mount, 'mountPropagation');
    if (propagation !== undefined) {
      const at = path.child('mountPropagation');
      if (!MOUNT_PROPAGATIONS.includes(propagation)) errors.push(notSupported(at, json(propagation), MOUNT_PROPAGATIONS));
      if (propagation === 'Bidirectional' && !privileged)
        errors.push(forbidden(at, 'Bidirectional mount propagation is available only to privileged containers'));
    }
    const recursive = optionalString(mount, 'recursiveReadOnly');
    if (recursive !== undefined && recursive !== 'Disabled') {
      const at = path.child('recursiveReadOnly');
      if (recursive === 'Enabled' || recursive === 'IfPossible') {
        if (mount.readOnly !== true) errors.push(forbidden(at, 'may only be specified when readOnly is true'));
        if (propagation !== undefined && propagation !== 'None')
          errors.push(forbidden(at, 'may only be specified when mountPropagation is None or not specified'));
      } else {
        errors.push(notSupported(at, json(recursive), RECURSIVE_READ_ONLY));
      }
    }
  });
  return errors;
}

/** ValidateVolumeDevices (block volumes from PVCs or generic ephemeral volumes). */
function validateVolumeDevices(container: JsonObject, volumes: VolumeSources, path: Path): FieldError[] {
  const errors: FieldError[] = [];
  const mounts = listOf(container, 'volumeMounts');
  const mountNames = new Set(mounts.map((m) => stringOf(m, 'name')));
  const mountPaths = new Set(mounts.map((m) => stringOf(m, 'mountPath')));
  const paths = new Set<string>();
  const names = new Set<string>();
  listOf(container, 'volumeDevices').forEach((device, i) => {
    const at = path.index(i);
    const name = stringOf(device, 'name');
    const devicePath = stringOf(device, 'devicePath');
    const volume = volumes.get(name);
    const isClaim = has(volume, 'persistentVolumeClaim') || has(volume, 'ephemeral');
    if (name === '') errors.push(required(at.child('name')));
    if (names.has(name)) errors.push(invalid(at.child('name'), name, 'must be unique'));
    if (volume && !isClaim)
      errors.push(invalid(at.child('name'), name, 'can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode'));
    if (!volume) errors.push(notFound(at.child('name'), name));
    if (devicePath === '') errors.push(required(at.child('devicePath')));
    if (paths.has(devicePath)) errors.push(invalid(at.child('devicePath'), devicePath, 'must be unique'));
    if (devicePath.length > 0 && validatePathNoBacksteps(devicePath, at).length > 0)
      errors.push(invalid(at.child('devicePath'), devicePath, "can not contain backsteps ('..')"));
    else paths.add(devicePath);
    if (mountNames.has(name)) errors.push(invalid(at.child('name'), name, 'must not already exist in volumeMounts'));
    if (mountPaths.has(devicePath)) errors.push(invalid(at.child('devicePath'), devicePath, 'must not already exist as a path in volumeMounts'));
    if (name.length > 0) names.add(name);
  });
  return errors;
}

const RESIZE_RESOURCES = ['cpu', 'memory'];
const RESIZE_POLICIES = ['NotRequired', 'RestartContainer'];

/** validateResizePolicy. */
function validateResizePolicy(policies: readonly JsonObject[], restartPolicy: string, path: Path): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  policies.forEach((policy, i) => {
    const resource = stringOf(policy, 'resourceName');
    const restart = stringOf(policy, 'restartPolicy');
    if (seen.has(resource)) errors.push(duplicate(path.index(i), json(resource)));
    seen.add(resource);
    if (resource === '') errors.push(required(path));
    else if (!RESIZE_RESOURCES.includes(resource)) errors.push(notSupported(path, json(resource), RESIZE_RESOURCES));
    if (restart === '') errors.push(required(path));
    else if (!RESIZE_POLICIES.includes(restart)) errors.push(notSupported(path, json(restart), RESIZE_POLICIES));
    if (restartPolicy === 'Never' && restart !== 'NotRequired')
      errors.push(invalid(path, json(restart), "must be 'NotRequired' when `restartPolicy` is 'Never'"));
  });
  return errors;
}

const TERMINATION_MESSAGE_POLICIES = ['File', 'FallbackToLogsOnError'];

/** validateContainerCommon: what regular, init and ephemeral containers share. */
function validateContainerCommon(container: JsonObject, context: ContainerContext, path: Path): FieldError[] {
  const errors: FieldError[] = [];
  const name = stringOf(container, 'name');
  if (name === '') errors.push(required(path.child('name')));
  else errors.push(...dns1123LabelErrors(name).map((message) => invalid(path.child('name'), name, message)));
  if (stringOf(container, 'image') === '') errors.push(required(path.child('image')));
  const policy = stringOf(container, 'terminationMessagePolicy');
  if (policy === '') errors.push(required(path.child('terminationMessagePolicy')));
  else if (!TERMINATION_MESSAGE_POLICIES.includes(policy))
    errors.push(notSupported(path.child('terminationMessagePolicy'), json(policy), TERMINATION_MESSAGE_POLICIES));
  errors.push(...validatePorts(listOf(container, 'ports'), path.child('ports')));
  errors.push(...validateEnv(listOf(container, 'env'), path.child('env')));
  errors.push(...validateEnvFrom(listOf(container, 'envFrom'), path.child('envFrom')));
  errors.push(...validateVolumeMounts(container, context.volumes, path.child('volumeMounts')));
  errors.push(...validateVolumeDevices(container, context.volumes, path.child('volumeDevices')));
  errors.push(...validatePullPolicy(stringOf(container, 'imagePullPolicy'), path.child('imagePullPolicy')));
  errors.push(...validateContainerResources(objectOf(container, 'resources'), context.podClaimNames, path.child('resources')));
  errors.push(...validateResizePolicy(listOf(container, 'resizePolicy'), context.restartPolicy, path.child('resizePolicy')));
  errors.push(
    ...validateContainerSecurityContext(objectOf(container, 'securityContext'), path.child('securityContext'), context.hostUsers, context.allowPrivileged),
  );
  return errors;
}

/**
 * AccumulateUniqueHostPorts: `<protocol>/<hostIP>/<port>` must be unique. Init containers are checked
 * one at a time with a one-element list, so their errors always say `initContainers[0]`, as upstream's.
 */
function hostPortConflicts(containers: readonly JsonObject[], path: Path): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  containers.forEach((container, i) => {
    listOf(container, 'ports').forEach((port, j) => {
      const hostPort = numberOf(port, 'hostPort');
      if (hostPort === 0) return;
      const key = `${stringOf(port, 'protocol')}/${stringOf(port, 'hostIP')}/${hostPort}`;
      if (seen.has(key)) errors.push(duplicate(path.index(i).child('ports').index(j).child('hostPort'), key));
      else seen.add(key);
    });
  });
  return errors;
}

/** validateContainers: regular containers (at least one, unique names, probes, no restartPolicy). */
export function validateContainers(containers: readonly JsonObject[], context: ContainerContext, path: Path): FieldError[] {
  if (containers.length === 0) return [required(path)];
  const errors: FieldError[] = [];
  const names = new Set<string>();
  containers.forEach((container, i) => {
    const at = path.index(i);
    errors.push(...validateContainerCommon(container, context, at));
    const name = stringOf(container, 'name');
    if (names.has(name)) errors.push(duplicate(at.child('name'), name));
    else names.add(name);
    const lifecycle = objectOf(container, 'lifecycle');
    if (lifecycle) errors.push(...validateLifecycle(lifecycle, context.gracePeriod, at.child('lifecycle')));
    errors.push(...validateLivenessProbe(objectOf(container, 'livenessProbe'), context.gracePeriod, at.child('livenessProbe')));
    errors.push(...validateReadinessProbe(objectOf(container, 'readinessProbe'), context.gracePeriod, at.child('readinessProbe')));
    errors.push(...validateStartupProbe(objectOf(container, 'startupProbe'), context.gracePeriod, at.child('startupProbe')));
    if (has(container, 'restartPolicy')) errors.push(forbidden(at.child('restartPolicy'), 'may not be set for non-init containers'));
  });
  return [...errors, ...hostPortConflicts(containers, path)];
}

const NOT_FOR_INIT = 'may not be set for init containers without restartPolicy=Always';

/** validateInitContainers: names unique across regular and init containers; sidecars (restartPolicy: Always) may have probes. */
export function validateInitContainers(containers: readonly JsonObject[], regular: readonly JsonObject[], context: ContainerContext, path: Path): FieldError[] {
  const errors: FieldError[] = [];
  const names = new Set(regular.map((c) => stringOf(c, 'name')));
  containers.forEach((container, i) => {
    const at = path.index(i);
    errors.push(...validateContainerCommon(container, context, at));
    const restartPolicy = optionalString(container, 'restartPolicy');
    if (restartPolicy !== undefined && restartPolicy !== 'Always') errors.push(notSupported(at.child('restartPolicy'), json(restartPolicy), ['Always']));
    const name = stringOf(container, 'name');
    if (names.has(name)) errors.push(duplicate(at.child('name'), name));
    else if (name.length > 0) names.add(name);
    errors.push(...hostPortConflicts([container], path));
    if (restartPolicy === 'Always') {
      const lifecycle = objectOf(container, 'lifecycle');
      if (lifecycle) errors.push(...validateLifecycle(lifecycle, context.gracePeriod, at.child('lifecycle')));
      errors.push(...validateLivenessProbe(objectOf(container, 'livenessProbe'), context.gracePeriod, at.child('livenessProbe')));
      errors.push(...validateReadinessProbe(objectOf(container, 'readinessProbe'), context.gracePeriod, at.child('readinessProbe')));
      errors.push(...validateStartupProbe(objectOf(container, 'startupProbe'), context.gracePeriod, at.child('startupProbe')));
    } else {
      for (const key of ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe']) {
        if (has(container, key)) errors.push(forbidden(at.child(key), NOT_FOR_INIT));
      }
    }
  });
  return errors;
}

/** EphemeralContainerCommon's fields in Go order, and whether an ephemeral container may set them (allowedEphemeralContainerFields). */
const EPHEMERAL_FIELDS: readonly [string, boolean][] = [
  ['name', true],
  ['image', true],
  ['command', true],
  ['args', true],
  ['workingDir', true],
  ['ports', false],
  ['envFrom', true],
  ['env', true],
  ['resources', false],
  ['resizePolicy', false],
  ['restartPolicy', false],
  ['volumeMounts', true],
  ['volumeDevices', true],
  ['livenessProbe', false],
  ['readinessProbe', false],
  ['startupProbe', false],
  ['lifecycle', false],
  ['terminationMessagePath', true],
  ['terminationMessagePolicy', true],
  ['imagePullPolicy', true],
  ['securityContext', true],
  ['stdin', true],
  ['stdinOnce', true],
  ['tty', true],
];

/** Whether a v1 member holds a non-zero Go value (reflect.DeepEqual against the zero value). */
function isSet(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === 0 || value === '') return false;
  // `resources: {}` is the zero ResourceRequirements.
  if (typeof value === 'object' && !Array.isArray(value)) return Object.values(value).some(isSet);
  return true;
}

/** validateEphemeralContainers (also run for templates, where they are then refused). */
export function validateEphemeralContainers(
  ephemeral: readonly JsonObject[],
  containers: readonly JsonObject[],
  initContainers: readonly JsonObject[],
  context: ContainerContext,
  path: Path,
): FieldError[] {
  if (ephemeral.length === 0) return [];
  const errors: FieldError[] = [];
  const others = new Set([...containers, ...initContainers].map((c) => stringOf(c, 'name')));
  const all = new Set(others);
  ephemeral.forEach((container, i) => {
    const at = path.index(i);
    errors.push(...validateContainerCommon(container, context, at));
    errors.push(...imageWhitespace(container, at));
    const name = stringOf(container, 'name');
    if (all.has(name)) errors.push(duplicate(at.child('name'), name));
    else all.add(name);
    const target = stringOf(container, 'targetContainerName');
    if (target !== '' && !others.has(target)) errors.push(notFound(at.child('targetContainerName'), target));
    for (const [key, allowed] of EPHEMERAL_FIELDS)
      if (!allowed && isSet(valueOf(container, key))) errors.push(forbidden(at.child(key), 'cannot be set for an Ephemeral Container'));
    listOf(container, 'volumeMounts').forEach((mount, j) => {
      if (stringOf(mount, 'subPath') !== '')
        errors.push(forbidden(at.child('volumeMounts').index(j).child('subPath'), 'cannot be set for an Ephemeral Container'));
      if (stringOf(mount, 'subPathExpr') !== '')
        errors.push(forbidden(at.child('volumeMounts').index(j).child('subPathExpr'), 'cannot be set for an Ephemeral Container'));
    });
  });
  return errors;
}

/** validateContainerOnlyForPod: a pod's (not a template's) image may not be padded with whitespace. */
export function imageWhitespace(container: JsonObject, path: Path): FieldError[] {
  const image = stringOf(container, 'image');
  return image.length !== image.trim().length ? [invalid(path.child('image'), image, 'must not have leading or trailing whitespace')] : [];
}
