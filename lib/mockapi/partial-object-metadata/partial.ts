import type { KubeObject } from '../../kube/admission';
import type { CatalogEntry } from '../../kube/catalog';
import { internalShaped } from '../../kube/conversion';
import { isObject, type Json, type JsonObject } from '../../kube/json';
import { objectMeta } from '../../registry/defaults/meta';

/*
 * The meta.k8s.io views of an object's metadata (apimachinery pkg/apis/meta/v1 types.go, PartialObjectMetadata
 * and PartialObjectMetadataList; pkg/api/meta, AsPartialObjectMetadata): the object's whole ObjectMeta, managed
 * fields included, under the kind PartialObjectMetadata. A Table's rows carry the same object by default.
 */

/** The meta.k8s.io versions that serve PartialObjectMetadata and Tables. */
export type MetaVersion = 'v1' | 'v1beta1';

/**
 * An object's PartialObjectMetadata at meta.k8s.io/`version`: its metadata, nothing else, as the typed ObjectMeta
 * writes it (in field order, labels and annotations sorted), which a custom resource's is read into through its
 * accessors.
 */
export function partialObjectMetadata(object: JsonObject, version: MetaVersion): JsonObject {
  // The handler holds the internal object: an HPA read at autoscaling/v1 without v1's round-trip annotations.
  const internal = internalShaped(object as KubeObject) as JsonObject;
  const metadata = objectMeta(isObject(internal.metadata) ? internal.metadata : {}) as JsonObject;
  return { kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${version}`, metadata };
}

/** Whether an answer's body is a list of `entry`'s objects (meta.IsListType), not one object. */
export const isListBody = (body: JsonObject, entry: CatalogEntry): boolean => body.kind === `${entry.kind}List` && Array.isArray(body.items);

/**
 * A list's metav1.ListMeta as a typed list writes it: resourceVersion, continue and remainingItemCount, each left
 * out when empty (an unstructured list's `continue: ""` is not carried over).
 */
export function listMetaOf(body: JsonObject): JsonObject {
  const metadata = isObject(body.metadata) ? body.metadata : {};
  const out: JsonObject = {};
  if (typeof metadata.resourceVersion === 'string' && metadata.resourceVersion) out.resourceVersion = metadata.resourceVersion;
  if (typeof metadata.continue === 'string' && metadata.continue) out.continue = metadata.continue;
  if (typeof metadata.remainingItemCount === 'number') out.remainingItemCount = metadata.remainingItemCount;
  return out;
}

/**
 * A list's PartialObjectMetadataList (apiserver handlers/response.go, asPartialObjectMetadataList): each item is a
 * PartialObjectMetadata that says its own kind and apiVersion, as the list's version; the list keeps its ListMeta.
 * An empty list's `items` is null: the typed list's nil slice, as encoding/json writes it.
 */
export function partialObjectMetadataList(list: JsonObject, version: MetaVersion): JsonObject {
  const items = (list.items as Json[]).filter(isObject).map((item) => partialObjectMetadata(item, version));
  return { kind: 'PartialObjectMetadataList', apiVersion: `meta.k8s.io/${version}`, metadata: listMetaOf(list), items: items.length ? items : null };
}
