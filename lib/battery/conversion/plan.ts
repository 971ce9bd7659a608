import type { KubeObject } from '../../kube/admission';
import { isRecord } from '../../kube/json';
import { customResource, customVersion } from '../../review/objects/custom/crd';

/** A CustomResourceDefinition whose `spec.conversion.strategy` is Webhook, as the manifests hold it. */
export interface WebhookCrd {
  name: string;
  document: Record<string, unknown>;
  group: string;
  /** Every version it declares (kube converts between all of them), and those it serves (clients read at those). */
  versions: string[];
  served: string[];
  storage: string;
  listKind: string;
}

export type ConversionScenario =
  | { type: 'round-trip'; crd: WebhookCrd; title: string; object: KubeObject; via: string }
  | { type: 'list'; crd: WebhookCrd; title: string; objects: KubeObject[]; from: string; to: string };

/** The CRDs of the manifests with a conversion webhook, in the order given. */
export function webhookCrds(documents: readonly unknown[]): WebhookCrd[] {
  return documents.filter(isRecord).flatMap((document) => {
    if (document.kind !== 'CustomResourceDefinition' || !isRecord(document.spec)) return [];
    const spec = document.spec;
    if (!isRecord(spec.conversion) || spec.conversion.strategy !== 'Webhook') return [];
    const versions = (Array.isArray(spec.versions) ? spec.versions : []).filter(isRecord);
    const names = isRecord(spec.names) ? spec.names : {};
    const metadata = isRecord(document.metadata) ? document.metadata : {};
    return [
      {
        name: String(metadata.name ?? ''),
        document,
        group: String(spec.group ?? ''),
        versions: versions.map((v) => String(v.name)),
        served: versions.filter((v) => v.served === true).map((v) => String(v.name)),
        storage: String(versions.find((v) => v.storage === true)?.name ?? ''),
        listKind: String(names.listKind ?? `${String(names.kind ?? '')}List`),
      },
    ];
  });
}

/** An object of `version` as the API stores it (uid, resourceVersion, creationTimestamp), with labels and annotations to keep. */
function storedObject(crd: WebhookCrd, version: string, seed: number, index: number): KubeObject {
  const namespaced = customVersion(crd.document, version).namespaced;
  return customResource(
    crd.document,
    {
      ...(namespaced ? { namespace: 'default' } : {}),
      labels: { 'app.kubernetes.io/name': 'conversion-check', 'example.com/index': String(index) },
      annotations: { 'example.com/note': `object ${index} written at ${version}` },
    },
    { version, seed: seed + index, stored: true },
  );
}

/**
 * The conversion battery's scenarios for each CRD: two objects stored at each served version sent to every
 * other declared version and back (what a write at one version and a read at another do), then several
 * objects of the storage version in one review to another version. Derived from the seed.
 */
export function planConversion(crds: readonly WebhookCrd[], seed: number): ConversionScenario[] {
  const scenarios: ConversionScenario[] = [];
  for (const crd of crds) {
    for (const [i, version] of crd.served.entries()) {
      // Two objects of each version: the schema's optional members are drawn at random, so they differ.
      for (const n of [1, 2]) {
        const object = storedObject(crd, version, seed + 10 * i, n);
        for (const via of crd.versions.filter((v) => v !== version)) {
          scenarios.push({ type: 'round-trip', crd, title: `${version} → ${via} → ${version} (object ${n})`, object, via });
        }
      }
    }
    const from = crd.served.includes(crd.storage) ? crd.storage : crd.served[0];
    const to = crd.versions.find((v) => v !== from);
    if (from && to) {
      const objects = [0, 1, 2].map((i) => storedObject(crd, from, seed + 100, i));
      scenarios.push({ type: 'list', crd, title: `${objects.length} objects in one review: ${from} → ${to}`, objects, from, to });
    }
  }
  return scenarios;
}
