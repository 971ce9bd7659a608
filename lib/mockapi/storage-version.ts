/**
 * The version a stored object is kept at and read back from, for the built-in kinds kube-apiserver
 * converts with functions of its own (an HPA: stored at autoscaling/v2, served at v2 and v1). Storage
 * encodes every write at the storage version and decodes every read at the version asked for, through
 * the internal version (apiserver `pkg/storage/storagebackend` codec, k8s.io/kubernetes
 * pkg/apis/autoscaling/v1/conversion.go); every other kind is one schema under several labels.
 */
import type { GroupVersionKind, KubeObject } from '../kube/admission';
import { joinApiVersion } from '../kube/api-version';
import type { CatalogEntry, ResourceCatalog } from '../kube/catalog';
import { convertBuiltinObject, hasBuiltinConversion, roundTripBuiltinObject } from '../kube/conversion';

const kindOf = (entry: CatalogEntry): GroupVersionKind => ({ group: entry.group, version: entry.version, kind: entry.kind });

/** A stored object at `entry`'s version: converted when its kind converts and it is stored at another version, else itself (to be relabelled). */
export function atVersionOf(entry: CatalogEntry, object: KubeObject): KubeObject {
  if (object.apiVersion === joinApiVersion(entry)) return object;
  return convertBuiltinObject(object, kindOf(entry)) ?? object;
}

/**
 * The object written at `entry`'s version as storage keeps it: at the storage version (the first version
 * the catalog lists for the storage key, v2 for HPAs) when its kind converts; itself otherwise.
 */
export function atStorageVersion(catalog: ResourceCatalog, entry: CatalogEntry, object: KubeObject): KubeObject {
  if (!hasBuiltinConversion(kindOf(entry))) return object;
  const storage = catalog.resources().find((candidate) => candidate.storageKey === entry.storageKey);
  // At the storage version already, it still goes through the internal version (a zero status written as v2 writes it).
  if (!storage || storage.version === entry.version) return roundTripBuiltinObject(object) ?? object;
  return convertBuiltinObject(object, kindOf(storage)) ?? object;
}
