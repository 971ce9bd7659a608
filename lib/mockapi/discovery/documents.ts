import { createHash } from 'node:crypto';
import type { CatalogEntry, ResourceCatalog, SubresourceInfo } from '../../kube/catalog';
import type { JsonObject } from '../../kube/json';
import { categoriesOf, isCustom, isStored, resourcesOf, servedGroups, shortNamesOf, storageVersionHash, subresourceVerbsOf, verbsOf } from './facts';

/*
 * The discovery documents kube-apiserver serves, built from the catalog: the legacy ones
 * (apiserver:pkg/endpoints/discovery/{legacy,root,group,version}.go, kube-aggregator's handler_apis.go) and the
 * aggregated one (apiserver:pkg/endpoints/discovery/aggregated/handler.go, apidiscovery.k8s.io/v2).
 */

const names = (entry: CatalogEntry): JsonObject => {
  const shortNames = shortNamesOf(entry);
  const categories = categoriesOf(entry);
  return { ...(shortNames ? { shortNames: [...shortNames] } : {}), ...(categories ? { categories: [...categories] } : {}) };
};

/** A subresource's kind differs from its parent's group-version only for scale, eviction, token and the like. */
const foreignKind = (entry: CatalogEntry, sub: SubresourceInfo): boolean => sub.kind.group !== entry.group || sub.kind.version !== entry.version;

// A CRD's subresources are listed status first, then scale (customresource_discovery_controller.go); built-ins by name.
const subresourcesOf = (entry: CatalogEntry): SubresourceInfo[] =>
  isCustom(entry)
    ? [...entry.subresources].sort((a, b) => (a.name === 'status' ? -1 : b.name === 'status' ? 1 : 0))
    : [...entry.subresources].sort((a, b) => (a.name < b.name ? -1 : 1));

/** One resource and its subresources as an APIResourceList lists them. */
function legacyResources(entry: CatalogEntry, catalog: ResourceCatalog): JsonObject[] {
  const own: JsonObject = {
    name: entry.resource,
    singularName: entry.singular,
    namespaced: entry.namespaced,
    kind: entry.kind,
    verbs: [...verbsOf(entry)],
    ...names(entry),
    ...(isStored(entry) ? { storageVersionHash: storageVersionHash(entry, catalog) } : {}),
  };
  const subresources = subresourcesOf(entry).map(
    (sub): JsonObject => ({
      name: `${entry.resource}/${sub.name}`,
      singularName: '',
      namespaced: entry.namespaced,
      ...(foreignKind(entry, sub) ? { group: sub.kind.group, version: sub.kind.version } : {}),
      kind: sub.kind.kind,
      verbs: [...subresourceVerbsOf(sub)],
    }),
  );
  return [own, ...subresources];
}

/** `/api`: APIVersions, with the address the client reached the server at. */
export function apiVersions(serverAddress: string): JsonObject {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] };
}

const groupVersion = (group: string, version: string): JsonObject => ({ groupVersion: `${group}/${version}`, version });

/** `/apis`: APIGroupList in the aggregator's order. */
export function apiGroupList(catalog: ResourceCatalog): JsonObject {
  const groups = servedGroups(catalog).map((group) => apiGroup(group.name, group.versions, false));
  return { kind: 'APIGroupList', apiVersion: 'v1', groups };
}

function apiGroup(name: string, versions: string[], typed: boolean): JsonObject {
  const listed = versions.map((version) => groupVersion(name, version));
  return { ...(typed ? { kind: 'APIGroup', apiVersion: 'v1' } : {}), name, versions: listed, preferredVersion: listed[0] ?? null };
}

/** `/apis/<group>`: APIGroup, or undefined when the catalog serves no version of it. */
export function apiGroupDocument(catalog: ResourceCatalog, group: string): JsonObject | undefined {
  const served = servedGroups(catalog).find((candidate) => candidate.name === group);
  return served && apiGroup(served.name, served.versions, true);
}

/**
 * `/api/v1` or `/apis/<group>/<version>`: APIResourceList, or undefined when the catalog serves nothing there.
 * The core group's list has no apiVersion (the legacy installer's quirk, kept by kube-apiserver).
 */
export function apiResourceList(catalog: ResourceCatalog, group: string, version: string): JsonObject | undefined {
  const entries = resourcesOf(catalog, group, version);
  if (entries.length === 0) return undefined;
  const custom = entries.every(isCustom);
  const resources = entries.flatMap((entry) => legacyResources(entry, catalog));
  if (!custom) resources.sort((a, b) => (String(a.name) < String(b.name) ? -1 : 1));
  return { kind: 'APIResourceList', ...(group ? { apiVersion: 'v1' } : {}), groupVersion: group ? `${group}/${version}` : version, resources };
}

/** One resource as APIResourceDiscovery (apidiscovery.k8s.io/v2). */
function discoveryResource(entry: CatalogEntry): JsonObject {
  const custom = isCustom(entry);
  const kindOf = (group: string, version: string, kind: string, foreign: boolean): JsonObject =>
    custom || foreign ? { group, version, kind } : { group: '', version: '', kind };
  const subresources = subresourcesOf(entry).map(
    (sub): JsonObject => ({
      subresource: sub.name,
      responseKind: kindOf(sub.kind.group, sub.kind.version, sub.kind.kind, foreignKind(entry, sub)),
      verbs: [...subresourceVerbsOf(sub)],
    }),
  );
  return {
    resource: entry.resource,
    responseKind: kindOf(entry.group, entry.version, entry.kind, false),
    scope: entry.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: entry.singular,
    verbs: [...verbsOf(entry)],
    ...names(entry),
    ...(subresources.length > 0 ? { subresources } : {}),
  };
}

function discoveryVersion(catalog: ResourceCatalog, group: string, version: string): JsonObject {
  return { version, resources: resourcesOf(catalog, group, version).map(discoveryResource), freshness: 'Current' };
}

/** An aggregated discovery document and its ETag. */
export interface AggregatedDiscovery {
  body: JsonObject;
  /** The hex SHA-512 of the document without its TypeMeta, as aggregated/etag.go computes it (quoted in the header). */
  etag: string;
}

function aggregated(items: JsonObject[]): AggregatedDiscovery {
  const content = { metadata: {}, items };
  const etag = createHash('sha512').update(JSON.stringify(content)).digest('hex').toUpperCase();
  return { body: { kind: 'APIGroupDiscoveryList', apiVersion: 'apidiscovery.k8s.io/v2', ...content }, etag };
}

/** Aggregated discovery of `/api` (the core group) or `/apis` (every other group). */
export function aggregatedDiscovery(catalog: ResourceCatalog, root: 'api' | 'apis'): AggregatedDiscovery {
  if (root === 'api') return aggregated([{ metadata: {}, versions: [discoveryVersion(catalog, '', 'v1')] }]);
  const items = servedGroups(catalog).map((group) => ({
    metadata: { name: group.name },
    versions: group.versions.map((version) => discoveryVersion(catalog, group.name, version)),
  }));
  return aggregated(items);
}
