import { loadManifestSet, type ManifestSet } from '../config/load';
import { HarnessError } from '../errors';
import { defaultCatalog, type ResourceCatalog } from '../kube/catalog';
import { Registry } from '../registry';
import type { HarnessOptions } from './options';

/** The manifests of a harness, loaded, and what the API does with their kinds and CustomResourceDefinitions. */
export interface LoadedManifests {
  /** The resources this harness serves: the built-in API and the manifests' CRDs. */
  catalog: ResourceCatalog;
  manifests: ManifestSet;
  registry: Registry;
}

/**
 * Loads and validates the manifests; their CRDs register into this harness's catalog (a copy, so no other
 * harness of the process sees them) and are refused, as the API server refuses them on create, when
 * their schemas or validation rules are invalid.
 */
export async function loadHarnessManifests(options: HarnessOptions): Promise<LoadedManifests> {
  const catalog = options.catalog ?? defaultCatalog.copy();
  const manifests = loadManifestSet(options.manifests ?? [], { catalog });
  const registry = new Registry(catalog, { allowPrivileged: options.allowPrivileged ?? false });
  const refusedDefinitions = await registry.prepare();
  if (refusedDefinitions.length > 0) {
    const lines = refusedDefinitions.flatMap(({ resource, errors }) => errors.map((e) => `${resource}: ${e.field}: ${e.body}`));
    throw new HarnessError(
      'MANIFEST_INVALID',
      `invalid CustomResourceDefinition:\n  ${lines.join('\n  ')}`,
      'the API server would reject these definitions on create; fix their x-kubernetes-validations',
    );
  }
  return { catalog, manifests, registry };
}
