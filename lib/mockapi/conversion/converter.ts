import type { KubeObject } from '../../kube/admission';
import { joinApiVersion } from '../../kube/api-version';
import type { CatalogEntry } from '../../kube/catalog';
import { ApiError, type ApiStatus } from '../../kube/status';

/** One object's conversion as the mock API needs it: the converted object, or the Statuses kube answers for the failure. */
export type ObjectConversion = { object: KubeObject } | { error: { message: string; status: ApiStatus; createStatus: ApiStatus } };

/**
 * What converts custom resources for the mock API: one ConversionReview for one object to `apiVersion`
 * (group/version). The harness gives its conversion capability (lib/conversion) this shape.
 */
export interface ObjectConverter {
  convert(object: KubeObject, apiVersion: string): Promise<ObjectConversion>;
  /** True once the converter's owner is closing: conversions failing from then on are its shutdown, not the webhook's answer. */
  readonly closing?: boolean;
}

/** True for a resource whose versions convert through a webhook: a CRD with `conversion.strategy: Webhook`. */
export function convertsThroughWebhook(entry: CatalogEntry): boolean {
  return entry.conversion?.strategy === 'Webhook' && entry.conversion.webhook !== undefined;
}

/** The object as etcd holds it: storage writes no resourceVersion into the bytes (versioner PrepareObjectForStorage). */
export function withoutResourceVersion(object: KubeObject): KubeObject {
  const { resourceVersion: _resourceVersion, ...metadata } = object.metadata ?? {};
  return { ...object, metadata };
}

/** The converted object with the resourceVersion etcd's revision gives it after decoding (versioner UpdateObject). */
export function withResourceVersion(object: KubeObject, resourceVersion: string | undefined): KubeObject {
  if (resourceVersion === undefined) return object;
  return { ...object, metadata: { ...object.metadata, resourceVersion } };
}

/**
 * A stored object decoded at `entry`'s version, as the CRD's storage codec does (apiextensions-apiserver
 * `pkg/apiserver/conversion/converter.go`): sent without its resourceVersion, which is put back on the
 * answer. A failed conversion throws kube's Status: a 500 without a reason, or on a create the text wrapped
 * twice as an internal error.
 */
export async function convertStored(converter: ObjectConverter, object: KubeObject, entry: CatalogEntry, creating = false): Promise<KubeObject> {
  const converted = await converter.convert(withoutResourceVersion(object), joinApiVersion(entry));
  if ('error' in converted) throw new ApiError(creating ? converted.error.createStatus : converted.error.status);
  return withResourceVersion(converted.object, object.metadata?.resourceVersion as string | undefined);
}
