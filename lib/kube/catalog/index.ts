import { HarnessError } from '../../errors';
import type { GroupVersionKind, GroupVersionResource, Operation } from '../admission';
import { BUILTIN_RESOURCES } from './builtin';
import { customResourceDefinitionResources } from './crd';
import type { CatalogEntry, ResourceInfo, SubresourceInfo } from './types';

export type { CatalogEntry, CustomResourceConversion, PrinterColumn, ResourceInfo, SubresourceInfo, SubresourceSpec } from './types';
export { BUILTIN_RESOURCES } from './builtin';

const CREATE_UPDATE_DELETE: readonly Operation[] = ['CREATE', 'UPDATE', 'DELETE'];
const UPDATE: readonly Operation[] = ['UPDATE'];

function resourceKey(group: string, version: string, resource: string): string {
  return `${group}/${version}/${resource}`;
}

function kindKey(gvk: GroupVersionKind): string {
  return `${gvk.group}/${gvk.version}/${gvk.kind}`;
}

function usage(message: string): never {
  throw new HarnessError('USAGE', message, 'give group ("" for core), version, kind, the plural resource name and namespaced');
}

/** Fills in the defaults and freezes, so entries handed out cannot change the catalog behind its back. */
function complete(info: ResourceInfo): CatalogEntry {
  const { group, version, kind, resource, namespaced } = info;
  const what = `resource ${JSON.stringify(resource)}`;
  if (typeof group !== 'string') usage(`${what}: group must be a string ("" for the core group)`);
  if (!version || typeof version !== 'string') usage(`${what}: version is required`);
  if (!kind || typeof kind !== 'string') usage(`${what}: kind is required`);
  if (!resource || typeof resource !== 'string' || resource.includes('/')) {
    usage(`${what}: resource must be a plural name without "/" (declare subresources in subresources)`);
  }
  if (typeof namespaced !== 'boolean') usage(`${what}: namespaced must be true or false`);
  const own: GroupVersionKind = { group, version, kind };
  const seen = new Set<string>();
  const subresources = (info.subresources ?? []).map((spec): SubresourceInfo => {
    if (!spec.name || spec.name.includes('/')) usage(`${what}: subresource name ${JSON.stringify(spec.name)} is not valid`);
    if (seen.has(spec.name)) usage(`${what}: subresource ${spec.name} is declared twice`);
    seen.add(spec.name);
    const operations = Object.freeze([...(spec.operations ?? UPDATE)]);
    return Object.freeze({
      name: spec.name,
      kind: Object.freeze({ ...(spec.kind ?? own) }),
      operations,
      connect: operations.includes('CONNECT'),
      admitted: operations.length > 0,
    });
  });
  return Object.freeze({
    group,
    version,
    kind,
    resource,
    namespaced,
    singular: info.singular || kind.toLowerCase(),
    operations: Object.freeze([...(info.operations ?? CREATE_UPDATE_DELETE)]),
    subresources: Object.freeze(subresources),
    // kube-apiserver's fallback key is GroupResource.String(): every version of a group/resource is equivalent.
    storageKey: info.storageKey || (group ? `${resource}.${group}` : resource),
    ...(info.schema !== undefined ? { schema: info.schema } : {}),
    ...(info.shortNames ? { shortNames: Object.freeze([...info.shortNames]) } : {}),
    ...(info.categories ? { categories: Object.freeze([...info.categories]) } : {}),
    ...(info.storageVersion ? { storageVersion: info.storageVersion } : {}),
    ...(info.conversion ? { conversion: info.conversion } : {}),
    ...(info.printerColumns ? { printerColumns: Object.freeze([...info.printerColumns]) } : {}),
  });
}

/**
 * A registry of served resources: kind ↔ resource, scope, subresources and the kinds they carry, and which
 * resources share storage (kube-apiserver's EquivalentResourceRegistry, used by matchPolicy Equivalent).
 * The module-level functions use `defaultCatalog`; create another to keep registrations apart (per harness, per test).
 */
export class ResourceCatalog {
  // In registration order, which is the order equivalents are listed (and tried) in.
  readonly #byResource = new Map<string, CatalogEntry>();
  readonly #byKind = new Map<string, CatalogEntry>();

  /** A catalog of kube-apiserver v1.36's built-in resources, or of `resources` when given. */
  constructor(resources: Iterable<ResourceInfo> = BUILTIN_RESOURCES) {
    for (const info of resources) this.register(info);
  }

  /**
   * A catalog with this one's resources, in the same order, that registrations into either leave the other
   * without: a harness registers its manifests' CRDs into a copy of the default catalog.
   */
  copy(): ResourceCatalog {
    const copy = new ResourceCatalog([]);
    for (const [key, entry] of this.#byResource) copy.#byResource.set(key, entry);
    for (const [key, entry] of this.#byKind) copy.#byKind.set(key, entry);
    return copy;
  }

  /**
   * Adds a resource, or replaces the one with the same group/version/resource. A replacement keeps its place among
   * its equivalents, as kube-apiserver's registry order does not change once a resource is installed.
   */
  register(info: ResourceInfo): CatalogEntry {
    const entry = complete(info);
    const key = resourceKey(entry.group, entry.version, entry.resource);
    const previous = this.#byResource.get(key);
    this.#byResource.set(key, entry);
    if (previous) this.#forgetKind(previous);
    this.#byKind.set(kindKey(entry), entry);
    return entry;
  }

  /**
   * Registers every served version of an apiextensions.k8s.io/v1 CustomResourceDefinition, all equivalent to each
   * other. Registering the same CRD again replaces it whole, so a version it stopped serving is gone.
   */
  registerCustomResourceDefinition(crd: unknown): CatalogEntry[] {
    const { storageKey, resources } = customResourceDefinitionResources(crd);
    this.unregister(storageKey);
    return resources.map((info) => this.register(info));
  }

  /**
   * Removes every resource stored under `storageKey` (all versions of a CustomResourceDefinition: one the
   * API refused on create is not served at all). Answers what it removed.
   */
  unregister(storageKey: string): CatalogEntry[] {
    const removed: CatalogEntry[] = [];
    for (const [key, entry] of [...this.#byResource]) {
      if (entry.storageKey !== storageKey) continue;
      this.#byResource.delete(key);
      this.#forgetKind(entry);
      removed.push(entry);
    }
    return removed;
  }

  /** The resource serving `gvk`, or undefined when the catalog does not know it. */
  resourceForKind(gvk: GroupVersionKind): CatalogEntry | undefined {
    return this.#byKind.get(kindKey(gvk));
  }

  /** The resource named `resource` (plural, no subresource) in `group`/`version`. */
  resourceByName(group: string, version: string, resource: string): CatalogEntry | undefined {
    return this.#byResource.get(resourceKey(group, version, resource));
  }

  /** What the catalog knows about `gvr`'s `subresource`, or undefined when it has no such subresource. */
  subresourceInfo(gvr: GroupVersionResource, subresource: string): SubresourceInfo | undefined {
    return this.resourceByName(gvr.group, gvr.version, gvr.resource)?.subresources.find((sub) => sub.name === subresource);
  }

  /** The kind requests to `gvr` (`subresource` "" for the resource itself) carry in `request.kind`. */
  kindFor(gvr: GroupVersionResource, subresource = ''): GroupVersionKind | undefined {
    const entry = this.resourceByName(gvr.group, gvr.version, gvr.resource);
    const kind = subresource ? entry?.subresources.find((sub) => sub.name === subresource)?.kind : entry && gvkOf(entry);
    return kind && { group: kind.group, version: kind.version, kind: kind.kind };
  }

  /**
   * The other resources stored with `gvr` that have `subresource` too, in registration order; `gvr` itself is left
   * out. Like kube-apiserver, a version the catalog does not serve still finds the equivalents of its group/resource.
   */
  equivalentResources(gvr: GroupVersionResource, subresource = ''): GroupVersionResource[] {
    const storageKey = this.#storageKeyOf(gvr);
    if (storageKey === undefined) return [];
    const equivalents: GroupVersionResource[] = [];
    for (const entry of this.#byResource.values()) {
      if (entry.storageKey !== storageKey) continue;
      if (entry.group === gvr.group && entry.version === gvr.version && entry.resource === gvr.resource) continue;
      if (subresource && !entry.subresources.some((sub) => sub.name === subresource)) continue;
      equivalents.push(gvrOf(entry));
    }
    return equivalents;
  }

  /** Every registered resource, in registration order. */
  resources(): CatalogEntry[] {
    return [...this.#byResource.values()];
  }

  #storageKeyOf(gvr: GroupVersionResource): string | undefined {
    const exact = this.resourceByName(gvr.group, gvr.version, gvr.resource);
    if (exact) return exact.storageKey;
    for (const entry of this.#byResource.values()) if (entry.group === gvr.group && entry.resource === gvr.resource) return entry.storageKey;
    return undefined;
  }

  /** Drops `entry`'s kind mapping, falling back to the latest other resource serving that kind. */
  #forgetKind(entry: CatalogEntry): void {
    const key = kindKey(entry);
    if (this.#byKind.get(key) !== entry) return;
    this.#byKind.delete(key);
    for (const other of this.#byResource.values()) if (kindKey(other) === key) this.#byKind.set(key, other);
  }
}

/** The catalog the functions below use: the built-in resources plus whatever was registered into it. */
export const defaultCatalog = new ResourceCatalog();

/** Adds (or replaces) a resource, e.g. an old API version for matchPolicy tests. */
export function registerResource(info: ResourceInfo): void {
  defaultCatalog.register(info);
}

/** Registers every served version of an apiextensions.k8s.io/v1 CustomResourceDefinition manifest. */
export function registerCustomResourceDefinition(crd: unknown): CatalogEntry[] {
  return defaultCatalog.registerCustomResourceDefinition(crd);
}

/** The resource serving `kind`, or undefined when the catalog does not know it. */
export function resourceForKind(gvk: GroupVersionKind): CatalogEntry | undefined {
  return defaultCatalog.resourceForKind(gvk);
}

/** The resource named `resource` (plural, no subresource) in `group`/`version`. */
export function resourceByName(group: string, version: string, resource: string): CatalogEntry | undefined {
  return defaultCatalog.resourceByName(group, version, resource);
}

/** What the catalog knows about `gvr`'s `subresource`, or undefined when it has no such subresource. */
export function subresourceInfo(gvr: GroupVersionResource, subresource: string): SubresourceInfo | undefined {
  return defaultCatalog.subresourceInfo(gvr, subresource);
}

/** The kind requests to `gvr`/`subresource` carry, e.g. `apps/v1 deployments/scale` → `autoscaling/v1 Scale`. */
export function kindFor(gvr: GroupVersionResource, subresource = ''): GroupVersionKind | undefined {
  return defaultCatalog.kindFor(gvr, subresource);
}

/** The other resources with `gvr`'s storage (matchPolicy Equivalent's candidates), in kube-apiserver's order. */
export function equivalentResources(gvr: GroupVersionResource, subresource = ''): GroupVersionResource[] {
  return defaultCatalog.equivalentResources(gvr, subresource);
}

export function gvrOf(info: ResourceInfo): GroupVersionResource {
  return { group: info.group, version: info.version, resource: info.resource };
}

export function gvkOf(info: ResourceInfo): GroupVersionKind {
  return { group: info.group, version: info.version, kind: info.kind };
}
