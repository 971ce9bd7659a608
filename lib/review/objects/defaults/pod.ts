import { isObject, listAt, objectAt, stringAt, type JsonObject } from '../json';
import { at, each, shape, sortedMap } from '../shape';
import { objectMeta, typed } from './meta';

// Field orders of the core/v1 structs below (k8s.io/api/core/v1/types.go).
const CONTAINER = [
  'name', 'image', 'command', 'args', 'workingDir', 'ports', 'envFrom', 'env', 'resources', 'resizePolicy', 'restartPolicy',
  'restartPolicyRules', 'volumeMounts', 'volumeDevices', 'livenessProbe', 'readinessProbe', 'startupProbe', 'lifecycle',
  'terminationMessagePath', 'terminationMessagePolicy', 'imagePullPolicy', 'securityContext', 'stdin', 'stdinOnce', 'tty',
  'targetContainerName',
];
const CONTAINER_PORT = ['name', 'hostPort', 'containerPort', 'protocol', 'hostIP'];
const PROBE = ['exec', 'httpGet', 'tcpSocket', 'grpc', 'initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold', 'terminationGracePeriodSeconds'];
const HTTP_GET = ['path', 'port', 'host', 'scheme', 'httpHeaders'];
const VOLUME_MOUNT = ['name', 'readOnly', 'recursiveReadOnly', 'mountPath', 'subPath', 'mountPropagation', 'subPathExpr'];
const POD_SPEC = [
  'volumes', 'initContainers', 'containers', 'ephemeralContainers', 'restartPolicy', 'terminationGracePeriodSeconds',
  'activeDeadlineSeconds', 'dnsPolicy', 'nodeSelector', 'serviceAccountName', 'serviceAccount', 'automountServiceAccountToken',
  'nodeName', 'hostNetwork', 'hostPID', 'hostIPC', 'shareProcessNamespace', 'securityContext', 'imagePullSecrets', 'hostname',
  'subdomain', 'affinity', 'schedulerName', 'tolerations', 'hostAliases', 'priorityClassName', 'priority', 'dnsConfig',
  'readinessGates', 'runtimeClassName', 'enableServiceLinks', 'preemptionPolicy', 'overhead', 'topologySpreadConstraints',
  'setHostnameAsFQDN', 'os', 'hostUsers', 'schedulingGates', 'resourceClaims', 'resources', 'hostnameOverride',
];
const DEFAULT_MODE = 420; // 0644, the mode volumes default to

/** The pull policy the API defaults from the image reference: Always for `:latest` or no tag, else IfNotPresent. */
function pullPolicy(image: string): 'Always' | 'IfNotPresent' {
  const [name = '', digest] = image.split('@');
  const lastSegment = name.slice(name.lastIndexOf('/') + 1);
  const colon = lastSegment.indexOf(':');
  const tag = colon < 0 ? '' : lastSegment.slice(colon + 1);
  if (tag === 'latest') return 'Always';
  return tag || digest ? 'IfNotPresent' : 'Always';
}

function handler(action: JsonObject): JsonObject {
  const withHttp = at(action, 'httpGet', (get) => shape(get, HTTP_GET, { scheme: 'HTTP' }));
  return at(withHttp, 'grpc', (grpc) => shape(grpc, ['port', 'service'], { service: '' }));
}

function probe(value: JsonObject): JsonObject {
  return shape(handler(value), PROBE, { timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 });
}

function envVar(variable: JsonObject): JsonObject {
  return at(variable, 'valueFrom', (source) => {
    const withField = at(source, 'fieldRef', (ref) => shape(ref, ['apiVersion', 'fieldPath'], { apiVersion: 'v1' }));
    return at(withField, 'resourceFieldRef', (ref) => shape(ref, ['containerName', 'resource', 'divisor'], { divisor: '0' }));
  });
}

/** SetDefaults_Container and the defaults of its parts (ports, probes, env, lifecycle handlers). */
export function container(value: JsonObject): JsonObject {
  let result = each(value, 'ports', (port) => shape(port, CONTAINER_PORT, { protocol: 'TCP' }));
  result = each(result, 'env', envVar);
  result = each(result, 'volumeMounts', (mount) => shape(mount, VOLUME_MOUNT));
  for (const key of ['livenessProbe', 'readinessProbe', 'startupProbe']) result = at(result, key, probe);
  result = at(result, 'lifecycle', (lifecycle) => at(at(lifecycle, 'postStart', handler), 'preStop', handler));
  return shape(result, CONTAINER, {
    resources: {},
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'File',
    imagePullPolicy: pullPolicy(stringAt(value, 'image') ?? ''),
  });
}

function volume(value: JsonObject): JsonObject {
  let result = at(value, 'secret', (source) => shape(source, ['secretName', 'items', 'defaultMode', 'optional'], { defaultMode: DEFAULT_MODE }));
  result = at(result, 'configMap', (source) => shape(source, ['name', 'items', 'defaultMode', 'optional'], { defaultMode: DEFAULT_MODE }));
  result = at(result, 'projected', (source) => shape(source, ['sources', 'defaultMode'], { defaultMode: DEFAULT_MODE }));
  result = at(result, 'downwardAPI', (source) =>
    shape(
      each(source, 'items', (item) => at(item, 'fieldRef', (ref) => shape(ref, ['apiVersion', 'fieldPath'], { apiVersion: 'v1' }))),
      ['items', 'defaultMode'],
      { defaultMode: DEFAULT_MODE },
    ),
  );
  return at(result, 'hostPath', (source) => shape(source, ['path', 'type'], { type: '' }));
}

/** SetDefaults_PodSpec and the defaults of containers and volumes, as every pod template gets them. */
export function podSpec(spec: JsonObject): JsonObject {
  const hostNetwork = spec.hostNetwork === true;
  const defaultContainer = (value: JsonObject) => {
    const defaulted = container(value);
    // With hostNetwork the container port is the host port.
    return hostNetwork ? each(defaulted, 'ports', (port) => shape(port, CONTAINER_PORT, { hostPort: port.containerPort })) : defaulted;
  };
  let result = each(spec, 'containers', defaultContainer);
  result = each(result, 'initContainers', defaultContainer);
  result = each(result, 'ephemeralContainers', container);
  result = each(result, 'volumes', volume);
  result = at(result, 'nodeSelector', sortedMap);
  // The deprecated serviceAccount mirrors serviceAccountName.
  const serviceAccount = stringAt(result, 'serviceAccountName') ?? stringAt(result, 'serviceAccount');
  return shape(result, POD_SPEC, {
    restartPolicy: 'Always',
    terminationGracePeriodSeconds: 30,
    dnsPolicy: 'ClusterFirst',
    ...(serviceAccount ? { serviceAccountName: serviceAccount, serviceAccount } : {}),
    securityContext: {},
    schedulerName: 'default-scheduler',
  });
}

/** A PodTemplateSpec (in Deployments, Jobs…): its spec gets the pod spec defaults. */
export function podTemplate(template: JsonObject): JsonObject {
  return shape(at(at(template, 'metadata', objectMeta), 'spec', podSpec), ['metadata', 'spec']);
}

const NOT_READY = 'node.kubernetes.io/not-ready';
const UNREACHABLE = 'node.kubernetes.io/unreachable';
const SYSTEM_PRIORITIES: Record<string, number> = { 'system-node-critical': 2000001000, 'system-cluster-critical': 2000000000 };

/** DefaultTolerationSeconds: tolerate not-ready and unreachable nodes for 5 minutes unless told otherwise. */
function defaultTolerations(spec: JsonObject): JsonObject {
  const tolerations = listAt(spec, 'tolerations');
  const tolerates = (key: string) =>
    tolerations.some((t) => (t.key === key || (t.key === undefined && t.operator === 'Exists')) && (t.effect === undefined || t.effect === 'NoExecute'));
  const added = [NOT_READY, UNREACHABLE]
    .filter((key) => !tolerates(key))
    .map((key) => ({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }));
  return added.length > 0 ? { ...spec, tolerations: [...tolerations, ...added] } : spec;
}

/** Priority: the priority of the pod's class (0 without one) and its preemption policy. */
function defaultPriority(spec: JsonObject): JsonObject {
  const className = stringAt(spec, 'priorityClassName');
  const priority = className ? SYSTEM_PRIORITIES[className] : 0;
  return {
    ...spec,
    ...(spec.priority === undefined && priority !== undefined ? { priority } : {}),
    ...(spec.preemptionPolicy === undefined ? { preemptionPolicy: 'PreemptLowerPriority' } : {}),
  };
}

/** SetDefaults_Pod: requests default to limits for resources that only have a limit. */
function requestsFromLimits(value: JsonObject): JsonObject {
  return at(value, 'resources', (resources) => {
    const limits = objectAt(resources, 'limits');
    if (Object.keys(limits).length === 0) return resources;
    return shape({ ...resources, requests: sortedMap({ ...limits, ...objectAt(resources, 'requests') }) }, ['limits', 'requests']);
  });
}

/**
 * A Pod as mutating webhooks see it on CREATE: decoded with the API defaults, then changed by the
 * in-tree admission plugins that run before webhooks (DefaultTolerationSeconds, Priority), as in
 * fixtures/apiserver-captures/pods-create.json. The ServiceAccount plugin, off in that recording, is not applied.
 */
export function pod(object: JsonObject): JsonObject {
  const spec = (value: JsonObject) => {
    const result = each(each(value, 'containers', requestsFromLimits), 'initContainers', requestsFromLimits);
    return podSpec(defaultPriority(defaultTolerations({ enableServiceLinks: true, ...result })));
  };
  return typed(at(object, 'spec', spec), ['spec', 'status'], { status: {} });
}

/** The tolerations DefaultTolerationSeconds adds, which no client wrote (managedFields leave them out). */
export function isDefaultToleration(toleration: unknown): boolean {
  return isObject(toleration) && (toleration.key === NOT_READY || toleration.key === UNREACHABLE) && toleration.tolerationSeconds === 300 && toleration.effect === 'NoExecute';
}
