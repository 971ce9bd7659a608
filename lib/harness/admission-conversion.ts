import type { ConversionResult } from '../conversion';
import type { ObjectVersionConverter } from '../dispatch/versioned';
import type { GroupVersionKind, KubeObject } from '../kube/admission';
import { joinApiVersion } from '../kube/api-version';
import type { ResourceCatalog } from '../kube/catalog';

/** `h.convert`: the harness's conversion capability (lib/harness/conversion.ts). */
type Convert = (objects: KubeObject, toVersion: string) => Promise<ConversionResult>;

/**
 * The admission chain's converter (lib/dispatch/versioned.ts): a custom resource whose CRD converts through
 * a webhook goes to the version a webhook matched through that conversion webhook, one ConversionReview per
 * object, as kube-apiserver's dispatchers convert it with the CRD's converter. Undefined when no CRD of the
 * catalog converts through a webhook; other kinds are left to the matching step's relabelling.
 */
export function admissionConverter(catalog: ResourceCatalog, convert: Convert | undefined): ObjectVersionConverter | undefined {
  const converting = catalog.resources().filter((entry) => entry.conversion?.strategy === 'Webhook');
  if (!convert || converting.length === 0) return undefined;
  const converts = (kind: GroupVersionKind): boolean => converting.some((entry) => entry.group === kind.group && entry.kind === kind.kind);
  return async (object, kind) => {
    if (!converts(kind)) return undefined;
    const result = await convert(object, joinApiVersion(kind));
    if (result.error) return { error: result.error.message };
    const [converted] = result.objects;
    return converted ? { object: converted } : { error: `conversion of ${object.metadata?.name ?? ''} to ${joinApiVersion(kind)} returned no object` };
  };
}
