import type { Gen } from './faker';
import { isObject, listAt, objectAt, stringAt, type JsonObject } from './json';
import { apiDefaults } from './defaults';
import { objectMeta } from './defaults/meta';
import { sortedDeep } from './shape';
import { NOW, timestamp } from './time';

// Kinds whose registry strategy starts metadata.generation at 1 (custom resources too).
const GENERATION = new Set(['Pod', 'Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob', 'Ingress', 'NetworkPolicy', 'PodDisruptionBudget', 'CustomResourceDefinition']);

/** The QoS class the pod strategy records: Guaranteed, Burstable or BestEffort. */
function qosClass(spec: JsonObject): string {
  const containers = [...listAt(spec, 'containers'), ...listAt(spec, 'initContainers')];
  const resources = containers.map((c) => objectAt(c, 'resources'));
  const any = resources.some((r) => Object.keys(objectAt(r, 'requests')).length > 0 || Object.keys(objectAt(r, 'limits')).length > 0);
  if (!any) return 'BestEffort';
  const guaranteed = resources.every((r) => {
    const limits = objectAt(r, 'limits');
    const requests = objectAt(r, 'requests');
    return ['cpu', 'memory'].every((name) => limits[name] !== undefined && (requests[name] === undefined || requests[name] === limits[name]));
  });
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

/** What the registry strategies add on create, beyond metadata: pod status, namespace finalizer, service IPs, job selector. */
function strategyFields(object: JsonObject, gen: Gen, uid: string): JsonObject {
  const spec = objectAt(object, 'spec');
  switch (object.kind) {
    case 'Pod': {
      const status = objectAt(object, 'status');
      return { ...object, status: { phase: 'Pending', ...status, qosClass: status.qosClass ?? qosClass(spec) } };
    }
    case 'Namespace':
      return { ...object, spec: { finalizers: ['kubernetes'], ...spec } };
    case 'Service':
      return { ...object, spec: serviceAllocations(spec, gen) };
    case 'Job':
      return spec.manualSelector === true ? object : { ...object, spec: jobSelector(spec, uid, stringAt(objectAt(object, 'metadata'), 'name') ?? '') };
    default:
      return object;
  }
}

/** The ClusterIP (from kubeadm's default 10.96.0.0/12), IP family and node ports the service registry allocates. */
function serviceAllocations(spec: JsonObject, gen: Gen): JsonObject {
  const type = spec.type;
  if (type === 'ExternalName') return spec;
  const clusterIP = stringAt(spec, 'clusterIP') ?? `10.${gen.int(96, 111)}.${gen.int(0, 255)}.${gen.int(1, 254)}`;
  const nodePorts = type === 'NodePort' || type === 'LoadBalancer';
  const ports = listAt(spec, 'ports').map((port) => (nodePorts && port.nodePort === undefined ? { ...port, nodePort: gen.int(30000, 32767) } : port));
  return {
    ...spec,
    ports,
    clusterIP,
    clusterIPs: [clusterIP],
    ipFamilies: ['IPv4'],
    ipFamilyPolicy: 'SingleStack',
    ...(type === 'LoadBalancer' && spec.externalTrafficPolicy === 'Local' ? { healthCheckNodePort: gen.int(30000, 32767) } : {}),
  };
}

/** The job strategy selects its pods by the job's uid and labels the template with it. */
function jobSelector(spec: JsonObject, uid: string, name: string): JsonObject {
  const template = objectAt(spec, 'template');
  const metadata = objectAt(template, 'metadata');
  const labels = {
    ...objectAt(metadata, 'labels'),
    'batch.kubernetes.io/controller-uid': uid,
    'batch.kubernetes.io/job-name': name,
    'controller-uid': uid,
    'job-name': name,
  };
  return { ...spec, selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } }, template: { ...template, metadata: objectMeta({ ...metadata, labels }) } };
}

/**
 * `object` as etcd holds it after a create: a name for generateName, uid, resourceVersion, generation,
 * creationTimestamp and what the registry strategy fills in. What an object already has is kept, so
 * storing a stored object changes nothing. (managedFields are the builders' business: see RequestOptions.)
 * `unstructured`: a custom resource, stored as a map with its members sorted.
 */
export function persist(object: JsonObject, gen: Gen, unstructured: boolean): JsonObject {
  const metadata = objectAt(object, 'metadata');
  const generateName = stringAt(metadata, 'generateName');
  const name = stringAt(metadata, 'name') ?? (generateName ? `${generateName}${gen.suffix(5)}` : undefined);
  const uid = stringAt(metadata, 'uid') ?? gen.uuid();
  const created = stringAt(metadata, 'creationTimestamp') ?? timestamp(NOW - gen.int(3_600, 180 * 86_400) * 1000);
  const kind = String(object.kind);
  const stored = strategyFields(object, gen, uid);
  const identity: JsonObject = {
    ...metadata,
    ...(name ? { name } : {}),
    uid,
    resourceVersion: stringAt(metadata, 'resourceVersion') ?? String(gen.int(1_000, 9_999_999)),
    ...(metadata.generation === undefined && (GENERATION.has(kind) || unstructured) ? { generation: 1 } : {}),
    creationTimestamp: created,
  };
  const result = { ...stored, metadata: identity };
  // Re-shaping puts the allocated members (clusterIP, finalizers…) where the apiserver writes them.
  return unstructured ? (sortedDeep(result) as JsonObject) : apiDefaults(result);
}

/** Whether `object` looks stored: it has the uid only the apiserver assigns. */
export function isStored(object: JsonObject): boolean {
  return isObject(object.metadata) && typeof object.metadata.uid === 'string';
}
