import type { KubeObject } from '../kube/admission';
import { objectAt } from '../kube/record';
import { isUnstructured } from '../kube/unstructured';
import { SeededRandom } from '../random';
import type { AdmissionAttributes } from '../kube/attributes';
import { canonical } from './encode';
import { persist, type PersistOptions } from './strategy/create';
import { storageRandom, type StorageRandom } from './strategy/random';

/**
 * A CREATE as validating admission sees it. It runs inside the registry, after BeforeCreate, so the
 * object has its generated name, uid, creationTimestamp, generation and what the strategy fills in
 * (a pod's phase and QoS class, a namespace's finalizer, a service's ClusterIP), but no
 * resourceVersion yet; and `request.name` is the generated name (fixtures/apiserver-captures:
 * validate.capture.local in pods-create.json, configmaps-create-generatename.json). Other requests
 * are returned unchanged.
 */
export function preparedForValidation(attributes: AdmissionAttributes, random: StorageRandom, options: PersistOptions = {}): AdmissionAttributes {
  const object = attributes.object;
  if (attributes.operation !== 'CREATE' || attributes.subResource !== '' || !object) return attributes;
  const stored = persist(object, random, isUnstructured(object.apiVersion), options);
  const { resourceVersion: _assignedOnWrite, ...metadata } = objectAt(stored, 'metadata');
  const created = canonical({ ...stored, metadata } as KubeObject);
  return { ...attributes, name: created.metadata?.name ?? attributes.name, object: created };
}

/** `preparedForValidation` with what the storage layer generates drawn from `seed`, so it replays. */
export function validatingView(attributes: AdmissionAttributes, seed: number): AdmissionAttributes {
  return preparedForValidation(attributes, storageRandom(new SeededRandom(seed)));
}
