import type { KubeObject } from '../kube/admission';
import type { AdmissionAttributes } from './attributes';
import { canonical } from './builders/write';
import { withSeed } from './objects/faker';
import { objectAt } from './objects/json';
import { persist } from './objects/persist';
import { isUnstructured } from './objects/unstructured';

/**
 * A CREATE as validating webhooks see it. They run inside the registry, after BeforeCreate, so the
 * object has its generated name, uid, creationTimestamp, generation and what the strategy fills in
 * (a pod's phase and QoS class, a namespace's finalizer, a service's ClusterIP), but no
 * resourceVersion yet; and `request.name` is the generated name (fixtures/apiserver-captures:
 * validate.capture.local in pods-create.json, configmaps-create-generatename.json). Other requests
 * are returned unchanged. `seed` makes the generated values replayable.
 */
export function validatingView(attributes: AdmissionAttributes, seed: number): AdmissionAttributes {
  const object = attributes.object;
  if (attributes.operation !== 'CREATE' || attributes.subResource !== '' || !object) return attributes;
  const stored = withSeed(seed, (gen) => persist(object, gen, isUnstructured(object.apiVersion)));
  const { resourceVersion: _assignedOnWrite, ...metadata } = objectAt(stored, 'metadata');
  const created = canonical({ ...stored, metadata } as KubeObject);
  return { ...attributes, name: created.metadata?.name ?? attributes.name, object: created };
}
