import { isRecord } from '../../kube/json';
import { objectAt, stringAt, type JsonRecord } from '../../kube/record';
import { NOW, timestamp } from '../../kube/time';
import { apiDefaults } from '../defaults';
import { objectMeta } from '../defaults/meta';
import { sortedDeep } from '../shape';
import { generateJobSelector } from './job';
import { preparePodForCreate } from './pod';
import type { StorageRandom } from './random';
import { allocateService } from './service';

// Kinds whose registry strategy starts metadata.generation at 1 (custom resources too).
const GENERATION = new Set([
  'Pod',
  'Deployment',
  'ReplicaSet',
  'StatefulSet',
  'DaemonSet',
  'Job',
  'CronJob',
  'Ingress',
  'NetworkPolicy',
  'PodDisruptionBudget',
  'CustomResourceDefinition',
]);

/** What the resource strategies' PrepareForCreate add beyond metadata: pod status, namespace finalizer, service allocations, job selector. */
function strategyFields(object: JsonRecord, random: StorageRandom, uid: string): JsonRecord {
  const spec = objectAt(object, 'spec');
  switch (object.kind) {
    case 'Pod':
      return preparePodForCreate(object);
    case 'Namespace':
      return { ...object, spec: { finalizers: ['kubernetes'], ...spec } };
    case 'Service':
      return { ...object, spec: allocateService(spec, random) };
    case 'Job':
      return spec.manualSelector === true ? object : { ...object, spec: generateJobSelector(spec, uid, stringAt(objectAt(object, 'metadata'), 'name') ?? '') };
    default:
      return object;
  }
}

/**
 * `object` as etcd holds it after a create (rest.BeforeCreate, the strategy's PrepareForCreate, the
 * write): a name for generateName, uid, resourceVersion, generation, creationTimestamp and what the
 * strategy fills in. What an object already has is kept, so storing a stored object changes nothing.
 * (managedFields are the builders' business.) `unstructured`: a custom resource, stored as a map with
 * its members sorted.
 */
export function persist(object: JsonRecord, random: StorageRandom, unstructured: boolean, options: PersistOptions = {}): JsonRecord {
  const metadata = objectAt(object, 'metadata');
  const generateName = stringAt(metadata, 'generateName');
  const name = stringAt(metadata, 'name') ?? (generateName ? `${generateName}${random.suffix(5)}` : undefined);
  const uid = stringAt(metadata, 'uid') ?? random.uuid();
  const created = stringAt(metadata, 'creationTimestamp') ?? timestamp(NOW - random.int(3_600, 180 * 86_400) * 1000);
  const kind = String(object.kind);
  const stored = strategyFields(object, random, uid);
  const identity: JsonRecord = {
    ...metadata,
    ...(name ? { name } : {}),
    uid,
    resourceVersion: stringAt(metadata, 'resourceVersion') ?? String(random.int(1_000, 9_999_999)),
    ...(metadata.generation === undefined && (GENERATION.has(kind) || unstructured) ? { generation: 1 } : {}),
    creationTimestamp: created,
  };
  const result = { ...stored, metadata: identity };
  if (unstructured) return sortedDeep(result) as JsonRecord;
  // An object the registry defaulted changes here only in its metadata when the strategy left its spec
  // alone (a pod gets a status, which no defaulter orders): putting the metadata in order is then all
  // the defaulters would do, and spares a walk of the whole object on every create.
  if (options.defaulted && stored.spec === object.spec && isRecord(object.metadata)) return { ...result, metadata: objectMeta(identity) };
  // Re-shaping puts the allocated members (clusterIP, finalizers…) where the apiserver writes them.
  return apiDefaults(result);
}

export interface PersistOptions {
  /** `object` is already as the registry's defaulters leave it (every object admission hands on is). */
  defaulted?: boolean;
}

/** Whether `object` looks stored: it has the uid only the apiserver assigns. */
export function isStored(object: JsonRecord): boolean {
  return isRecord(object.metadata) && typeof object.metadata.uid === 'string';
}
