import { createHash } from 'node:crypto';
import type { CatalogEntry, ResourceCatalog, SubresourceInfo } from '../../kube/catalog';

/*
 * What discovery says of a resource beyond what the catalog keeps for admission: the verbs its REST storage
 * serves, its short names and categories, the hash of its storage version, and the order groups are listed in.
 */

const EVERY_VERB = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'] as const;

// group/resource → the names each built-in REST storage declares (ShortNamesProvider, CategoriesProvider).
const BUILTIN_NAMES: Readonly<Record<string, { shortNames?: readonly string[]; categories?: readonly string[] }>> = {
  '/componentstatuses': { shortNames: ['cs'] },
  '/configmaps': { shortNames: ['cm'] },
  '/endpoints': { shortNames: ['ep'] },
  '/events': { shortNames: ['ev'] },
  '/limitranges': { shortNames: ['limits'] },
  '/namespaces': { shortNames: ['ns'] },
  '/nodes': { shortNames: ['no'] },
  '/persistentvolumeclaims': { shortNames: ['pvc'] },
  '/persistentvolumes': { shortNames: ['pv'] },
  '/pods': { shortNames: ['po'], categories: ['all'] },
  '/replicationcontrollers': { shortNames: ['rc'], categories: ['all'] },
  '/resourcequotas': { shortNames: ['quota'] },
  '/serviceaccounts': { shortNames: ['sa'] },
  '/services': { shortNames: ['svc'], categories: ['all'] },
  'apiregistration.k8s.io/apiservices': { categories: ['api-extensions'] },
  'apps/daemonsets': { shortNames: ['ds'], categories: ['all'] },
  'apps/deployments': { shortNames: ['deploy'], categories: ['all'] },
  'apps/replicasets': { shortNames: ['rs'], categories: ['all'] },
  'apps/statefulsets': { shortNames: ['sts'], categories: ['all'] },
  'events.k8s.io/events': { shortNames: ['ev'] },
  'autoscaling/horizontalpodautoscalers': { shortNames: ['hpa'], categories: ['all'] },
  'batch/cronjobs': { shortNames: ['cj'], categories: ['all'] },
  'batch/jobs': { categories: ['all'] },
  'certificates.k8s.io/certificatesigningrequests': { shortNames: ['csr'] },
  'networking.k8s.io/ingresses': { shortNames: ['ing'] },
  'networking.k8s.io/ipaddresses': { shortNames: ['ip'] },
  'networking.k8s.io/networkpolicies': { shortNames: ['netpol'] },
  'policy/poddisruptionbudgets': { shortNames: ['pdb'] },
  'storage.k8s.io/storageclasses': { shortNames: ['sc'] },
  'storage.k8s.io/volumeattributesclasses': { shortNames: ['vac'] },
  'admissionregistration.k8s.io/mutatingadmissionpolicies': { categories: ['api-extensions'] },
  'admissionregistration.k8s.io/mutatingadmissionpolicybindings': { categories: ['api-extensions'] },
  'admissionregistration.k8s.io/mutatingwebhookconfigurations': { categories: ['api-extensions'] },
  'admissionregistration.k8s.io/validatingadmissionpolicies': { categories: ['api-extensions'] },
  'admissionregistration.k8s.io/validatingadmissionpolicybindings': { categories: ['api-extensions'] },
  'admissionregistration.k8s.io/validatingwebhookconfigurations': { categories: ['api-extensions'] },
  'apiextensions.k8s.io/customresourcedefinitions': { shortNames: ['crd', 'crds'], categories: ['api-extensions'] },
  'scheduling.k8s.io/priorityclasses': { shortNames: ['pc'] },
};

// Storages that are not a generic registry store, with the verbs their REST interfaces give them.
const BUILTIN_VERBS: Readonly<Record<string, readonly string[]>> = {
  '/bindings': ['create'],
  '/componentstatuses': ['get', 'list'],
  // Namespaces are deleted one by one, through finalization: no deletecollection.
  '/namespaces': ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
};

// Subresources whose storage is not a get/update of the parent (connecters, creaters, the log stream).
const SUBRESOURCE_VERBS: Readonly<Record<string, readonly string[]>> = {
  attach: ['create', 'get'],
  exec: ['create', 'get'],
  portforward: ['create', 'get'],
  proxy: ['create', 'delete', 'get', 'patch', 'update'],
  log: ['get'],
  finalize: ['update'],
};

const key = (entry: CatalogEntry): string => `${entry.group}/${entry.resource}`;

/** Short names discovery lists for `entry`. */
export function shortNamesOf(entry: CatalogEntry): readonly string[] | undefined {
  return entry.shortNames ?? BUILTIN_NAMES[key(entry)]?.shortNames;
}

/** Categories discovery lists for `entry`. */
export function categoriesOf(entry: CatalogEntry): readonly string[] | undefined {
  return entry.categories ?? BUILTIN_NAMES[key(entry)]?.categories;
}

/**
 * Whether `entry` has a storage version: reviews and bindings are actions and componentstatuses is computed on
 * GET, so only resources with a watchable store carry a storageVersionHash.
 */
export function isStored(entry: CatalogEntry): boolean {
  return verbsOf(entry).includes('watch');
}

/** The verbs of `entry`, sorted as discovery sorts them. */
export function verbsOf(entry: CatalogEntry): readonly string[] {
  const special = BUILTIN_VERBS[key(entry)];
  if (special) return special;
  // The review resources are create-only (rest.Creater and nothing else).
  if (entry.operations.length === 1 && entry.operations[0] === 'CREATE') return ['create'];
  return EVERY_VERB;
}

/** The verbs of a subresource: creaters (binding, eviction, token) create; status-like ones get, patch and update. */
export function subresourceVerbsOf(sub: SubresourceInfo): readonly string[] {
  const special = SUBRESOURCE_VERBS[sub.name];
  if (special) return special;
  if (sub.operations.length === 1 && sub.operations[0] === 'CREATE') return ['create'];
  return ['get', 'patch', 'update'];
}

/**
 * discovery.StorageVersionHash (apiserver:pkg/endpoints/discovery/storageversionhash.go): the first 8 bytes of
 * sha256("<group>/<version>/<kind>") of the version objects are stored at, in standard base64.
 */
export function storageVersionHash(entry: CatalogEntry, catalog: ResourceCatalog): string {
  const version = entry.storageVersion ?? storageVersionOf(entry, catalog);
  return createHash('sha256').update(`${entry.group}/${version}/${entry.kind}`).digest().subarray(0, 8).toString('base64');
}

// A built-in group's storage version is its highest-priority version, which the catalog registers first.
function storageVersionOf(entry: CatalogEntry, catalog: ResourceCatalog): string {
  const first = catalog.resources().find((other) => other.group === entry.group && other.storageKey === entry.storageKey && other.resource === entry.resource);
  return first?.version ?? entry.version;
}

/**
 * GroupPriorityMinimum of each built-in group's APIService (pkg/controlplane/apiserver/aggregator.go,
 * APIVersionPriorities), by which the aggregator lists groups; a CRD's group gets 1000
 * (crdregistration_controller.go), so it comes after every built-in group.
 */
const GROUP_PRIORITY: Readonly<Record<string, number>> = {
  '': 18000,
  apps: 17800,
  'events.k8s.io': 17750,
  'authentication.k8s.io': 17700,
  'authorization.k8s.io': 17600,
  autoscaling: 17500,
  batch: 17400,
  'certificates.k8s.io': 17300,
  'networking.k8s.io': 17200,
  policy: 17100,
  'rbac.authorization.k8s.io': 17000,
  'storage.k8s.io': 16800,
  'admissionregistration.k8s.io': 16700,
  'apiextensions.k8s.io': 16700,
  'scheduling.k8s.io': 16600,
  'coordination.k8s.io': 16500,
  'node.k8s.io': 16300,
  'discovery.k8s.io': 16200,
  'resource.k8s.io': 16150,
  'flowcontrol.apiserver.k8s.io': 16100,
};
const CRD_GROUP_PRIORITY = 1000;

/** The aggregator always lists its own group first (kube-aggregator handler_apis.go). */
const AGGREGATOR_GROUP = 'apiregistration.k8s.io';

/**
 * The order of version strings by version.CompareKubeAwareVersionStrings: GA before beta before alpha, higher
 * numbers first, and anything not shaped like a Kubernetes version last, alphabetically.
 */
export function compareKubeAwareVersions(a: string, b: string): number {
  const rank = (v: string): [number, number, number] | undefined => {
    const match = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (!match) return undefined;
    const stability = match[2] === undefined ? 2 : match[2] === 'beta' ? 1 : 0;
    return [stability, Number(match[1]), Number(match[3] ?? 0)];
  };
  const ra = rank(a);
  const rb = rank(b);
  if (!ra || !rb) return ra ? -1 : rb ? 1 : a < b ? -1 : a > b ? 1 : 0;
  for (let i = 0; i < 3; i++) if (ra[i] !== rb[i]) return (rb[i] as number) - (ra[i] as number);
  return 0;
}

/** A served group and its versions, most preferred first. */
export interface ServedGroup {
  name: string;
  versions: string[];
}

/**
 * The groups the catalog serves (the core group excluded), in the aggregator's order: its own group, then by
 * group priority (higher first) and APIService name (`<version>.<group>`); versions by the catalog's order for
 * built-in groups (which is their priority), by kube-aware version order for others.
 */
export function servedGroups(catalog: ResourceCatalog): ServedGroup[] {
  const versions = new Map<string, string[]>();
  for (const entry of catalog.resources()) {
    if (entry.group === '') continue;
    const list = versions.get(entry.group) ?? [];
    if (!list.includes(entry.version)) list.push(entry.version);
    versions.set(entry.group, list);
  }
  const priority = (group: string): number => (group === AGGREGATOR_GROUP ? Infinity : (GROUP_PRIORITY[group] ?? CRD_GROUP_PRIORITY));
  return [...versions]
    .map(([name, list]) => ({ name, versions: name in GROUP_PRIORITY ? list : [...list].sort(compareKubeAwareVersions) }))
    .sort((a, b) => priority(b.name) - priority(a.name) || (`${a.versions[0]}.${a.name}` < `${b.versions[0]}.${b.name}` ? -1 : 1));
}

/** The catalog's resources of one group-version, sorted by name as discovery lists them. */
export function resourcesOf(catalog: ResourceCatalog, group: string, version: string): CatalogEntry[] {
  return catalog
    .resources()
    .filter((entry) => entry.group === group && entry.version === version)
    .sort((a, b) => (a.resource < b.resource ? -1 : a.resource > b.resource ? 1 : 0));
}

/** Whether the catalog entry comes from a CustomResourceDefinition (served by apiextensions-apiserver). */
export function isCustom(entry: CatalogEntry): boolean {
  return entry.storageVersion !== undefined || !(entry.group in GROUP_PRIORITY || entry.group === AGGREGATOR_GROUP);
}
