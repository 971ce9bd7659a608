import { isRecord as isObject } from '../../kube/json';
import { objectAt, stringAt, type JsonRecord } from '../../kube/record';
import { at, each, shape, sortedMap } from '../shape';
import { labelSelector, typed } from './meta';
import { resourceList } from './resources';
import { namespaceLabels } from '../../kube/namespaces';

const SERVICE_SPEC = [
  'ports',
  'selector',
  'clusterIP',
  'clusterIPs',
  'type',
  'externalIPs',
  'sessionAffinity',
  'loadBalancerIP',
  'loadBalancerSourceRanges',
  'externalName',
  'externalTrafficPolicy',
  'healthCheckNodePort',
  'publishNotReadyAddresses',
  'sessionAffinityConfig',
  'ipFamilies',
  'ipFamilyPolicy',
  'allocateLoadBalancerNodePorts',
  'loadBalancerClass',
  'internalTrafficPolicy',
  'trafficDistribution',
];
const SERVICE_PORT = ['name', 'protocol', 'appProtocol', 'port', 'targetPort', 'nodePort'];
const PVC_STATUS = [
  'phase',
  'accessModes',
  'capacity',
  'conditions',
  'allocatedResources',
  'allocatedResourceStatuses',
  'currentVolumeAttributesClassName',
  'modifyVolumeStatus',
];
const PVC_SPEC = [
  'accessModes',
  'selector',
  'resources',
  'volumeName',
  'storageClassName',
  'volumeMode',
  'dataSource',
  'dataSourceRef',
  'volumeAttributesClassName',
];

const mapAt = (key: string) => (object: JsonRecord) => at(object, key, sortedMap);

const CLIENT_IP_TIMEOUT_SECONDS = 10800; // v1.DefaultClientIPServiceAffinitySeconds: three hours

const isUnset = (value: unknown) => value === undefined || value === null;

/** SetDefaults_Service on a port: protocol TCP, and a target port of 0 or "" (or none) becomes the port. */
function servicePort(port: JsonRecord): JsonRecord {
  const target = port.targetPort;
  const unsetTarget = isUnset(target) || target === 0 || target === '';
  const withTarget = unsetTarget && typeof port.port === 'number' ? { ...port, targetPort: port.port } : port;
  return shape(withTarget, SERVICE_PORT, { protocol: 'TCP' });
}

/** SetDefaults_Service on the session affinity: None drops any config; ClientIP needs a complete one. */
function sessionAffinity(spec: JsonRecord): JsonRecord {
  const affinity = stringAt(spec, 'sessionAffinity') || 'None';
  const result: JsonRecord = { ...spec, sessionAffinity: affinity };
  if (affinity === 'None') {
    delete result.sessionAffinityConfig;
  } else if (affinity === 'ClientIP') {
    const config = result.sessionAffinityConfig;
    const clientIP = isObject(config) ? config.clientIP : undefined;
    if (!isObject(clientIP) || isUnset(clientIP.timeoutSeconds)) {
      result.sessionAffinityConfig = { clientIP: { timeoutSeconds: CLIENT_IP_TIMEOUT_SECONDS } };
    }
  }
  return result;
}

/** LoadBalancerIPMode: an ingress point with an IP and no ipMode gets VIP (LoadBalancer services only). */
function loadBalancerStatus(status: JsonRecord): JsonRecord {
  return at(status, 'loadBalancer', (loadBalancer) =>
    each(loadBalancer, 'ingress', (ingress) =>
      shape(
        ingress,
        ['ip', 'hostname', 'ipMode', 'ports'],
        typeof ingress.ip === 'string' && ingress.ip !== '' && isUnset(ingress.ipMode) ? { ipMode: 'VIP' } : {},
      ),
    ),
  );
}

/**
 * core/v1 SetDefaults_Service: type, session affinity, port protocol and target port, traffic policies.
 * ServiceSpec is a struct value, so a service sent without `spec` is defaulted as an empty one.
 */
export function service(object: JsonRecord): JsonRecord {
  const value = objectAt(object, 'spec');
  const type = stringAt(value, 'type') || 'ClusterIP';
  // service.ExternallyAccessible: NodePort, LoadBalancer, or ClusterIP with external IPs.
  const externallyAccessible =
    type === 'NodePort' || type === 'LoadBalancer' || (type === 'ClusterIP' && Array.isArray(value.externalIPs) && value.externalIPs.length > 0);
  const defaults: JsonRecord = {};
  if (externallyAccessible && !stringAt(value, 'externalTrafficPolicy')) defaults.externalTrafficPolicy = 'Cluster';
  if (type === 'LoadBalancer') defaults.allocateLoadBalancerNodePorts = true;
  if (type === 'ClusterIP' || type === 'NodePort' || type === 'LoadBalancer') defaults.internalTrafficPolicy = 'Cluster';
  const withType: JsonRecord = { ...sessionAffinity(each(value, 'ports', servicePort)), type };
  // Defaults fill absent members; a null pointer counts as unset too, and so does an empty
  // externalTrafficPolicy (a string value, not a pointer).
  for (const key of Object.keys(defaults)) {
    if (withType[key] === null || (key === 'externalTrafficPolicy' && withType[key] === '')) delete withType[key];
  }
  const spec = shape(mapAt('selector')(withType), SERVICE_SPEC, defaults);
  const withSpec = { ...object, spec };
  const defaulted = type === 'LoadBalancer' ? at(withSpec, 'status', loadBalancerStatus) : withSpec;
  return typed(defaulted, ['spec', 'status'], { status: { loadBalancer: {} } });
}

/** Secrets: type Opaque, and stringData already merged into data (base64) before any webhook sees it. */
export function secret(object: JsonRecord): JsonRecord {
  const { stringData, ...rest } = object;
  const data = { ...objectAt(rest, 'data') };
  if (isObject(stringData)) {
    for (const [key, value] of Object.entries(stringData)) data[key] = Buffer.from(String(value), 'utf8').toString('base64');
  }
  const merged = isObject(stringData) || isObject(rest.data) ? { ...rest, data: sortedMap(data) } : rest;
  return typed(merged, ['immutable', 'data', 'type'], { type: 'Opaque' });
}

export function configMap(object: JsonRecord): JsonRecord {
  return typed(mapAt('binaryData')(mapAt('data')(object)), ['immutable', 'data', 'binaryData']);
}

/**
 * Namespaces get the `kubernetes.io/metadata.name` label and phase Active when decoded; the
 * `kubernetes` finalizer only when stored (fixtures/apiserver-captures/namespaces-create.json).
 */
export function namespace(object: JsonRecord): JsonRecord {
  const metadata = objectAt(object, 'metadata');
  const name = stringAt(metadata, 'name');
  const labelled = name ? { ...object, metadata: { ...metadata, labels: namespaceLabels(name, objectAt(metadata, 'labels')) } } : object;
  return typed(labelled, ['spec', 'status'], { spec: {}, status: { phase: 'Active' } });
}

export function serviceAccount(object: JsonRecord): JsonRecord {
  return typed(object, ['secrets', 'imagePullSecrets', 'automountServiceAccountToken']);
}

/**
 * SetDefaults_PersistentVolumeClaimSpec and the ResourceList defaults of its resources. `resources`
 * (VolumeResourceRequirements) is a struct value: Go always writes it, `{}` when empty.
 */
export function persistentVolumeClaimSpec(spec: JsonRecord): JsonRecord {
  const withResources = at(spec, 'resources', (resources) =>
    shape(at(at(resources, 'limits', resourceList), 'requests', resourceList), ['limits', 'requests']),
  );
  const result = { ...at(withResources, 'selector', labelSelector) };
  // A null volumeMode decodes as a nil pointer, which the default replaces.
  if (result.volumeMode === null) delete result.volumeMode;
  return shape(result, PVC_SPEC, { resources: {}, volumeMode: 'Filesystem' });
}

/**
 * PVCs (also the templates of StatefulSets): SetDefaults_PersistentVolumeClaim (phase Pending) and the
 * spec's defaults. The spec is a struct value, defaulted even when absent. An embedded claim keeps the
 * TypeMeta it was sent with: none is added.
 */
export function persistentVolumeClaim(object: JsonRecord): JsonRecord {
  const withSpec = { ...object, spec: persistentVolumeClaimSpec(objectAt(object, 'spec')) };
  const status = at(at(objectAt(object, 'status'), 'capacity', resourceList), 'allocatedResources', resourceList);
  const withStatus = { ...withSpec, status: shape(status, PVC_STATUS, { phase: 'Pending' }) };
  return typed(withStatus, ['spec', 'status']);
}

/** Nodes: a status that carries its zero-valued structs (fixtures/apiserver-captures/nodes-create.json). */
export function node(object: JsonRecord): JsonRecord {
  const nodeInfo = Object.fromEntries(
    [
      'machineID',
      'systemUUID',
      'bootID',
      'kernelVersion',
      'osImage',
      'containerRuntimeVersion',
      'kubeletVersion',
      'kubeProxyVersion',
      'operatingSystem',
      'architecture',
    ].map((key) => [key, '']),
  );
  return typed(object, ['spec', 'status'], { spec: {}, status: { daemonEndpoints: { kubeletEndpoint: { Port: 0 } }, nodeInfo } });
}

/** Bindings (the legacy `bindings` resource and `pods/binding`): the target is an ObjectReference in field order. */
export function binding(object: JsonRecord): JsonRecord {
  return typed(
    at(object, 'target', (target) => shape(target, ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'])),
    ['target'],
  );
}
