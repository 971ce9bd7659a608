import { isRecord as isObject } from '../../kube/json';
import { objectAt, stringAt, type JsonRecord } from '../../kube/record';
import { at, each, shape, sortedMap } from '../shape';
import { typed } from './meta';
import { namespaceLabels } from '../../kube/namespaces';

const SERVICE_SPEC = [
  'ports', 'selector', 'clusterIP', 'clusterIPs', 'type', 'externalIPs', 'sessionAffinity', 'loadBalancerIP', 'loadBalancerSourceRanges',
  'externalName', 'externalTrafficPolicy', 'healthCheckNodePort', 'publishNotReadyAddresses', 'sessionAffinityConfig', 'ipFamilies',
  'ipFamilyPolicy', 'allocateLoadBalancerNodePorts', 'loadBalancerClass', 'internalTrafficPolicy', 'trafficDistribution',
];
const SERVICE_PORT = ['name', 'protocol', 'appProtocol', 'port', 'targetPort', 'nodePort'];
const PVC_SPEC = ['accessModes', 'selector', 'resources', 'volumeName', 'storageClassName', 'volumeMode', 'dataSource', 'dataSourceRef', 'volumeAttributesClassName'];

const mapAt = (key: string) => (object: JsonRecord) => at(object, key, sortedMap);

/** core/v1 SetDefaults_Service: type, session affinity, port protocol and target port, traffic policies. */
export function service(object: JsonRecord): JsonRecord {
  const spec = (value: JsonRecord) => {
    const type = stringAt(value, 'type') ?? 'ClusterIP';
    const external = type === 'NodePort' || type === 'LoadBalancer';
    const ports = each(value, 'ports', (port) => shape(port, SERVICE_PORT, { protocol: 'TCP', ...(port.port === undefined ? {} : { targetPort: port.port }) }));
    const affinity = stringAt(value, 'sessionAffinity') ?? 'None';
    return shape(mapAt('selector')(ports), SERVICE_SPEC, {
      type,
      sessionAffinity: affinity,
      ...(affinity === 'ClientIP' ? { sessionAffinityConfig: { clientIP: { timeoutSeconds: 10800 } } } : {}),
      ...(external ? { externalTrafficPolicy: 'Cluster' } : {}),
      ...(type === 'LoadBalancer' ? { allocateLoadBalancerNodePorts: true } : {}),
      ...(type === 'ExternalName' ? {} : { internalTrafficPolicy: 'Cluster' }),
    });
  };
  return typed(at(object, 'spec', spec), ['spec', 'status'], { status: { loadBalancer: {} } });
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

/** PVCs (also the templates of StatefulSets): volumeMode Filesystem and phase Pending. */
export function persistentVolumeClaim(object: JsonRecord): JsonRecord {
  const spec = (value: JsonRecord) => shape(value, PVC_SPEC, { volumeMode: 'Filesystem' });
  return typed(at(object, 'spec', spec), ['spec', 'status'], { status: { phase: 'Pending' } });
}

/** Nodes: a status that carries its zero-valued structs (fixtures/apiserver-captures/nodes-create.json). */
export function node(object: JsonRecord): JsonRecord {
  const nodeInfo = Object.fromEntries(
    ['machineID', 'systemUUID', 'bootID', 'kernelVersion', 'osImage', 'containerRuntimeVersion', 'kubeletVersion', 'kubeProxyVersion', 'operatingSystem', 'architecture'].map((key) => [key, '']),
  );
  return typed(object, ['spec', 'status'], { spec: {}, status: { daemonEndpoints: { kubeletEndpoint: { Port: 0 } }, nodeInfo } });
}

/** Bindings (the legacy `bindings` resource and `pods/binding`): the target is an ObjectReference in field order. */
export function binding(object: JsonRecord): JsonRecord {
  return typed(at(object, 'target', (target) => shape(target, ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'])), ['target']);
}
