import { loadManifestSet, type ManifestSet } from '../config/load';
import { type Refusal, refusedError } from '../config/refusal';
import { defaultCatalog, type ResourceCatalog } from '../kube/catalog';
import { leaveOutRefused, refusalsOnCreate } from '../lint';
import { Registry } from '../registry';
import { celRefusals, type HarnessOptions } from './options';

/** The manifests of a harness, loaded, and what the API does with their kinds and CustomResourceDefinitions. */
export interface LoadedManifests {
  /** The resources this harness serves: the built-in API and the manifests' CRDs. */
  catalog: ResourceCatalog;
  /** The objects kube-apiserver accepts on create (all of them, unless `celRefusals: 'leave-out'`). */
  manifests: ManifestSet;
  registry: Registry;
  /** The objects left out, as kube-apiserver refused them: what `h.lint()` reports. */
  refusals: readonly Refusal[];
}

/**
 * Loads and validates the manifests; their CRDs register into this harness's catalog (a copy, so no other
 * harness of the process sees them). Objects the API server refuses on create for their CEL (CRD rules
 * and their cost, matchConditions, policy expressions) are all refused at once, or left out with
 * `celRefusals: 'leave-out'`.
 */
export async function loadHarnessManifests(options: HarnessOptions): Promise<LoadedManifests> {
  const whenRefused = celRefusals(options);
  const catalog = options.catalog ?? defaultCatalog.copy();
  const loaded = loadManifestSet(options.manifests ?? [], { catalog });
  const registry = new Registry(catalog, { allowPrivileged: options.allowPrivileged ?? false });
  const refusals = await refusalsOnCreate(loaded, registry);
  if (refusals.length > 0 && whenRefused === 'throw') throw refusedError(refusals);
  return { catalog, manifests: leaveOutRefused(loaded, catalog, refusals), registry, refusals };
}
