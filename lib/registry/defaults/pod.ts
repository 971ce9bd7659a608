import { isRecord as isObject } from '../../kube/json';
import { objectAt, stringAt, type JsonRecord } from '../../kube/record';
import { at, each, shape, sortedMap, structAt } from '../shape';
import { persistentVolumeClaimSpec } from './core';
import { pullPolicy } from './image';
import { objectMeta, typed } from './meta';
import { quantityAt, resourceList, resourceRequirements } from './resources';

// Field orders of the core/v1 structs below (k8s.io/api/core/v1/types.go).
const CONTAINER = [
  'name',
  'image',
  'command',
  'args',
  'workingDir',
  'ports',
  'envFrom',
  'env',
  'resources',
  'resizePolicy',
  'restartPolicy',
  'restartPolicyRules',
  'volumeMounts',
  'volumeDevices',
  'livenessProbe',
  'readinessProbe',
  'startupProbe',
  'lifecycle',
  'terminationMessagePath',
  'terminationMessagePolicy',
  'imagePullPolicy',
  'securityContext',
  'stdin',
  'stdinOnce',
  'tty',
  'targetContainerName',
];
const CONTAINER_PORT = ['name', 'hostPort', 'containerPort', 'protocol', 'hostIP'];
const PROBE = [
  'exec',
  'httpGet',
  'tcpSocket',
  'grpc',
  'initialDelaySeconds',
  'timeoutSeconds',
  'periodSeconds',
  'successThreshold',
  'failureThreshold',
  'terminationGracePeriodSeconds',
];
const HTTP_GET = ['path', 'port', 'host', 'scheme', 'httpHeaders'];
const VOLUME_MOUNT = ['name', 'readOnly', 'recursiveReadOnly', 'mountPath', 'subPath', 'mountPropagation', 'subPathExpr'];
const POD_SPEC = [
  'volumes',
  'initContainers',
  'containers',
  'ephemeralContainers',
  'restartPolicy',
  'terminationGracePeriodSeconds',
  'activeDeadlineSeconds',
  'dnsPolicy',
  'nodeSelector',
  'serviceAccountName',
  'serviceAccount',
  'automountServiceAccountToken',
  'nodeName',
  'hostNetwork',
  'hostPID',
  'hostIPC',
  'shareProcessNamespace',
  'securityContext',
  'imagePullSecrets',
  'hostname',
  'subdomain',
  'affinity',
  'schedulerName',
  'tolerations',
  'hostAliases',
  'priorityClassName',
  'priority',
  'dnsConfig',
  'readinessGates',
  'runtimeClassName',
  'enableServiceLinks',
  'preemptionPolicy',
  'overhead',
  'topologySpreadConstraints',
  'setHostnameAsFQDN',
  'os',
  'hostUsers',
  'schedulingGates',
  'resourceClaims',
  'resources',
  'hostnameOverride',
];
// Volume: its name, then VolumeSource's members (inline), in field order.
const VOLUME_SOURCES = [
  'hostPath',
  'emptyDir',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'gitRepo',
  'secret',
  'nfs',
  'iscsi',
  'glusterfs',
  'persistentVolumeClaim',
  'rbd',
  'flexVolume',
  'cinder',
  'cephfs',
  'flocker',
  'downwardAPI',
  'fc',
  'azureFile',
  'configMap',
  'vsphereVolume',
  'quobyte',
  'azureDisk',
  'photonPersistentDisk',
  'projected',
  'portworxVolume',
  'scaleIO',
  'storageos',
  'csi',
  'ephemeral',
  'image',
];
const VOLUME = ['name', ...VOLUME_SOURCES];
const OBJECT_FIELD_SELECTOR = ['apiVersion', 'fieldPath'];
const RESOURCE_FIELD_SELECTOR = ['containerName', 'resource', 'divisor'];
const DOWNWARD_API_FILE = ['path', 'fieldRef', 'resourceFieldRef', 'mode'];
const VOLUME_PROJECTION = ['secret', 'downwardAPI', 'configMap', 'serviceAccountToken', 'clusterTrustBundle', 'podCertificate'];
const DEFAULT_MODE = 420; // 0644, the mode volumes default to
const TOKEN_EXPIRATION_SECONDS = 3600; // SetDefaults_ServiceAccountTokenProjection: one hour

/** SetDefaults_HTTPGetAction: path `/` and scheme HTTP. */
function httpGet(action: JsonRecord): JsonRecord {
  return shape(action, HTTP_GET, { path: '/', scheme: 'HTTP' });
}

/** A lifecycle handler (postStart, preStop): only its httpGet has defaults. */
function lifecycleHandler(handler: JsonRecord): JsonRecord {
  return at(handler, 'httpGet', httpGet);
}

/** SetDefaults_Probe, its httpGet (SetDefaults_HTTPGetAction) and its grpc service (declarative `+default=""`). */
function probe(value: JsonRecord): JsonRecord {
  const handled = at(at(value, 'httpGet', httpGet), 'grpc', (grpc) => shape(grpc, ['port', 'service'], { service: '' }));
  return shape(handled, PROBE, { timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 });
}

/** SetDefaults_ObjectFieldSelector: apiVersion v1. */
function fieldRef(ref: JsonRecord): JsonRecord {
  return shape(ref, OBJECT_FIELD_SELECTOR, { apiVersion: 'v1' });
}

/** A ResourceFieldSelector: `divisor` is a Quantity value (not a pointer), so Go always writes it, `"0"` when unset. */
function resourceFieldRef(ref: JsonRecord): JsonRecord {
  return quantityAt(shape(ref, RESOURCE_FIELD_SELECTOR, { divisor: '0' }), 'divisor');
}

function envVar(variable: JsonRecord): JsonRecord {
  return at(variable, 'valueFrom', (source) => at(at(source, 'fieldRef', fieldRef), 'resourceFieldRef', resourceFieldRef));
}

/**
 * SetDefaults_Container (SetDefaults_EphemeralContainer for ephemeral ones) and what
 * SetObjectDefaults_Pod runs on a container's parts: port protocol, env fieldRef, resources
 * (SetDefaults_ResourceList), probes and lifecycle handlers.
 */
export function container(value: JsonRecord): JsonRecord {
  let result = each(value, 'ports', (port) => shape(port, CONTAINER_PORT, { protocol: 'TCP' }));
  result = each(result, 'env', envVar);
  result = at(result, 'resources', resourceRequirements);
  result = each(result, 'volumeMounts', (mount) => shape(mount, VOLUME_MOUNT));
  for (const key of ['livenessProbe', 'readinessProbe', 'startupProbe']) result = at(result, key, probe);
  result = at(result, 'lifecycle', (lifecycle) =>
    shape(at(at(lifecycle, 'postStart', lifecycleHandler), 'preStop', lifecycleHandler), ['postStart', 'preStop', 'stopSignal']),
  );
  // The pull policy follows the image reference, parsed only for a container without one.
  return shape(
    result,
    CONTAINER,
    'imagePullPolicy' in result ? CONTAINER_DEFAULTS : { ...CONTAINER_DEFAULTS, imagePullPolicy: pullPolicy(stringAt(value, 'image') ?? '') },
  );
}

const CONTAINER_DEFAULTS: JsonRecord = {
  // ResourceRequirements is a struct value: Go always writes it.
  resources: {},
  terminationMessagePath: '/dev/termination-log',
  terminationMessagePolicy: 'File',
};

/** A DownwardAPIVolumeFile (in downwardAPI volumes and projections). */
function downwardAPIFile(item: JsonRecord): JsonRecord {
  return shape(at(at(item, 'fieldRef', fieldRef), 'resourceFieldRef', resourceFieldRef), DOWNWARD_API_FILE);
}

/** A projected volume's source: its downwardAPI items and its service account token get their defaults. */
function volumeProjection(source: JsonRecord): JsonRecord {
  let result = at(source, 'downwardAPI', (api) => shape(each(api, 'items', downwardAPIFile), ['items']));
  result = at(result, 'serviceAccountToken', (token) =>
    shape(token, ['audience', 'expirationSeconds', 'path'], { expirationSeconds: TOKEN_EXPIRATION_SECONDS }),
  );
  result = at(result, 'configMap', (projection) => shape(projection, ['name', 'items', 'optional']));
  result = at(result, 'secret', (projection) => shape(projection, ['name', 'items', 'optional']));
  return shape(result, VOLUME_PROJECTION);
}

/** An ephemeral volume's claim template: PersistentVolumeClaimTemplate, metadata and spec being struct values. */
function volumeClaimTemplate(template: JsonRecord): JsonRecord {
  const withMeta = isObject(template.metadata) ? { ...template, metadata: objectMeta(template.metadata) } : { ...template, metadata: {} };
  return shape({ ...withMeta, spec: persistentVolumeClaimSpec(objectAt(template, 'spec')) }, ['metadata', 'spec']);
}

/** Whether a volume has a source: ptr.AllPtrFieldsNil(&VolumeSource) is false (null decodes as nil). */
function hasSource(value: JsonRecord): boolean {
  return VOLUME_SOURCES.some((key) => value[key] !== undefined && value[key] !== null);
}

/**
 * SetDefaults_Volume (no source → emptyDir; an image volume's pull policy) and the defaults
 * SetObjectDefaults_Pod runs on each volume source.
 */
function volume(value: JsonRecord): JsonRecord {
  let result = hasSource(value) ? value : { ...value, emptyDir: {} };
  result = at(result, 'hostPath', (source) => shape(source, ['path', 'type'], { type: '' }));
  result = at(result, 'emptyDir', (source) => quantityAt(shape(source, ['medium', 'sizeLimit']), 'sizeLimit'));
  result = at(result, 'secret', (source) => shape(source, ['secretName', 'items', 'defaultMode', 'optional'], { defaultMode: DEFAULT_MODE }));
  result = at(result, 'iscsi', (source) =>
    shape(
      source,
      ['targetPortal', 'iqn', 'lun', 'iscsiInterface', 'fsType', 'readOnly', 'portals', 'chapAuthDiscovery', 'chapAuthSession', 'secretRef', 'initiatorName'],
      { iscsiInterface: 'default' },
    ),
  );
  result = at(result, 'rbd', (source) =>
    shape(source, ['monitors', 'image', 'fsType', 'pool', 'user', 'keyring', 'secretRef', 'readOnly'], {
      pool: 'rbd',
      user: 'admin',
      keyring: '/etc/ceph/keyring',
    }),
  );
  result = at(result, 'downwardAPI', (source) => shape(each(source, 'items', downwardAPIFile), ['items', 'defaultMode'], { defaultMode: DEFAULT_MODE }));
  result = at(result, 'configMap', (source) => shape(source, ['name', 'items', 'defaultMode', 'optional'], { defaultMode: DEFAULT_MODE }));
  result = at(result, 'azureDisk', (source) =>
    shape(source, ['diskName', 'diskURI', 'cachingMode', 'fsType', 'readOnly', 'kind'], {
      cachingMode: 'ReadWrite',
      fsType: 'ext4',
      readOnly: false,
      kind: 'Shared',
    }),
  );
  result = at(result, 'projected', (source) => shape(each(source, 'sources', volumeProjection), ['sources', 'defaultMode'], { defaultMode: DEFAULT_MODE }));
  result = at(result, 'scaleIO', (source) =>
    shape(source, ['gateway', 'system', 'secretRef', 'sslEnabled', 'protectionDomain', 'storagePool', 'storageMode', 'volumeName', 'fsType', 'readOnly'], {
      storageMode: 'ThinProvisioned',
      fsType: 'xfs',
    }),
  );
  result = at(result, 'ephemeral', (source) => at(source, 'volumeClaimTemplate', volumeClaimTemplate));
  // ImageVolume (beta, on since 1.35): the pull policy follows the reference like a container's.
  result = at(result, 'image', (source) => shape(source, ['reference', 'pullPolicy'], { pullPolicy: pullPolicy(stringAt(source, 'reference') ?? '') }));
  return shape(result, VOLUME);
}

/**
 * SetDefaults_PodSpec and the defaults of containers and volumes, as every pod template gets them
 * (SetObjectDefaults_PodTemplate and the workloads' generated defaulters).
 */
export function podSpec(spec: JsonRecord): JsonRecord {
  let result = each(spec, 'containers', container);
  result = each(result, 'initContainers', container);
  result = each(result, 'ephemeralContainers', container);
  result = each(result, 'volumes', volume);
  result = at(result, 'nodeSelector', sortedMap);
  result = at(result, 'overhead', resourceList);
  result = at(result, 'resources', resourceRequirements);
  // Conversion (Convert_v1_PodSpec_To_core_PodSpec and back): serviceAccountName wins, and the
  // deprecated serviceAccount is always written back as a copy of it.
  const serviceAccount = stringAt(result, 'serviceAccountName') || stringAt(result, 'serviceAccount');
  if (serviceAccount && (result.serviceAccountName !== serviceAccount || result.serviceAccount !== serviceAccount))
    result = { ...result, serviceAccountName: serviceAccount, serviceAccount };
  return shape(result, POD_SPEC, {
    restartPolicy: 'Always',
    terminationGracePeriodSeconds: 30,
    dnsPolicy: 'ClusterFirst',
    securityContext: {},
    schedulerName: 'default-scheduler',
  });
}

/**
 * A PodTemplateSpec (in Deployments, Jobs…): its spec gets the pod spec defaults, even when the client
 * sent none (a struct value, like a Pod's spec). Its metadata is an ObjectMeta value, so Go writes
 * `"metadata": {}` even when the client sent none.
 */
export function podTemplate(template: JsonRecord): JsonRecord {
  const withMeta = isObject(template.metadata) ? at(template, 'metadata', objectMeta) : { ...template, metadata: {} };
  return shape(structAt(withMeta, 'spec', podSpec), ['metadata', 'spec']);
}

/** SetDefaults_Pod: requests default to limits for resources that only have a limit. */
function requestsFromLimits(value: JsonRecord): JsonRecord {
  return at(value, 'resources', (resources) => {
    const limits = objectAt(resources, 'limits');
    if (Object.keys(limits).length === 0) return resources;
    const requests = objectAt(resources, 'requests');
    const missing = Object.keys(limits).some((key) => !(key in requests));
    const next = sortedMap(missing ? { ...limits, ...requests } : requests);
    return shape(next === resources.requests ? resources : { ...resources, requests: next }, ['limits', 'requests']);
  });
}

/** SetDefaults_Pod (defaultHostNetworkPorts): with hostNetwork, a container port's host port is its container port. */
function hostNetworkPorts(value: JsonRecord): JsonRecord {
  return each(value, 'ports', (port) => {
    const unset = port.hostPort === undefined || port.hostPort === null || port.hostPort === 0;
    return unset && typeof port.containerPort === 'number' && port.containerPort !== 0
      ? shape({ ...port, hostPort: port.containerPort }, CONTAINER_PORT)
      : port;
  });
}

/**
 * SetDefaults_Pod and everything under it (SetObjectDefaults_Pod): the pod spec (a struct value, so a
 * pod sent without one gets an empty spec's defaults: restartPolicy, dnsPolicy…), its containers and
 * volumes. Requests copied from limits, enableServiceLinks and host ports from hostNetwork are the
 * pod's own: templates never get them.
 */
export function pod(object: JsonRecord): JsonRecord {
  const spec = (value: JsonRecord) => {
    let result = each(each(value, 'containers', requestsFromLimits), 'initContainers', requestsFromLimits);
    if (result.hostNetwork === true) result = each(each(result, 'containers', hostNetworkPorts), 'initContainers', hostNetworkPorts);
    return podSpec('enableServiceLinks' in result ? result : { enableServiceLinks: true, ...result });
  };
  return typed(structAt(object, 'spec', spec), ['spec', 'status'], { status: {} });
}
