import { objectAt, stringAt, type JsonRecord } from '../../kube/record';
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

function handler(action: JsonRecord): JsonRecord {
  const withHttp = at(action, 'httpGet', (get) => shape(get, HTTP_GET, { scheme: 'HTTP' }));
  return at(withHttp, 'grpc', (grpc) => shape(grpc, ['port', 'service'], { service: '' }));
}

function probe(value: JsonRecord): JsonRecord {
  return shape(handler(value), PROBE, { timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 });
}

function envVar(variable: JsonRecord): JsonRecord {
  return at(variable, 'valueFrom', (source) => {
    const withField = at(source, 'fieldRef', (ref) => shape(ref, ['apiVersion', 'fieldPath'], { apiVersion: 'v1' }));
    return at(withField, 'resourceFieldRef', (ref) => shape(ref, ['containerName', 'resource', 'divisor'], { divisor: '0' }));
  });
}

/** SetDefaults_Container and the defaults of its parts (ports, probes, env, lifecycle handlers). */
export function container(value: JsonRecord): JsonRecord {
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

function volume(value: JsonRecord): JsonRecord {
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
export function podSpec(spec: JsonRecord): JsonRecord {
  const hostNetwork = spec.hostNetwork === true;
  const defaultContainer = (value: JsonRecord) => {
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
export function podTemplate(template: JsonRecord): JsonRecord {
  return shape(at(at(template, 'metadata', objectMeta), 'spec', podSpec), ['metadata', 'spec']);
}

/** SetDefaults_Pod: requests default to limits for resources that only have a limit. */
function requestsFromLimits(value: JsonRecord): JsonRecord {
  return at(value, 'resources', (resources) => {
    const limits = objectAt(resources, 'limits');
    if (Object.keys(limits).length === 0) return resources;
    return shape({ ...resources, requests: sortedMap({ ...limits, ...objectAt(resources, 'requests') }) }, ['limits', 'requests']);
  });
}

/**
 * SetDefaults_Pod and everything under it (SetObjectDefaults_Pod): the pod spec, its containers and
 * volumes; requests copied from limits and enableServiceLinks are the pod's own (templates lack them).
 */
export function pod(object: JsonRecord): JsonRecord {
  const spec = (value: JsonRecord) => {
    const result = each(each(value, 'containers', requestsFromLimits), 'initContainers', requestsFromLimits);
    return podSpec({ enableServiceLinks: true, ...result });
  };
  return typed(at(object, 'spec', spec), ['spec', 'status'], { status: {} });
}
