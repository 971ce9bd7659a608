import type { KubeObject } from '../kube/admission';
import { objectAt, type JsonRecord } from '../kube/record';
import { isUnstructured } from '../kube/unstructured';
import { hashSeed, SeededRandom } from '../random';
import { isStored, persist } from './strategy/create';
import { storageRandom } from './strategy/random';

/**
 * `object` as stored, for an oldObject: kept as is when it already has a uid, else stored with a
 * seed derived from its content, so the same object always gets the same uid and timestamps.
 */
export function asStored(object: KubeObject): KubeObject {
  if (isStored(object)) return object;
  return persist(object, storageRandom(new SeededRandom(hashSeed(JSON.stringify(object)))), isUnstructured(object.apiVersion)) as KubeObject;
}

// What a write of an existing object carries over from it: a client's PUT got them from a GET, a
// patch is applied to the stored object, and rest.BeforeUpdate keeps the system fields.
const IDENTITY = ['name', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'managedFields'] as const;

/** `next` with the stored identity of `stored` where it has none of its own. */
export function withIdentity(stored: KubeObject, next: KubeObject): KubeObject {
  const from = objectAt(stored as JsonRecord, 'metadata');
  const metadata: JsonRecord = { ...objectAt(next as JsonRecord, 'metadata') };
  let carried = false;
  for (const key of IDENTITY) {
    if (metadata[key] === undefined && from[key] !== undefined) {
      metadata[key] = from[key];
      carried = true;
    }
  }
  return carried ? ({ ...next, metadata } as KubeObject) : next;
}
