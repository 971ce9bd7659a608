import { createHash } from 'node:crypto';
import type { ResourceCatalog } from '../kube/catalog';
import type { JsonObject } from '../kube/json';
import { resourcesOf, servedGroups } from './discovery/facts';
import { resourcePaths } from './openapi-paths';
import { addKindSchema } from './openapi-schemas';

/*
 * OpenAPI v3 as kube-apiserver publishes it (kube-openapi:pkg/handler3/handler.go): a root index naming one
 * document per group-version, each URL carrying the hash of its document so clients cache it for good. The
 * documents are built on first request from the catalog and the schema table, and kept until the catalog's
 * resources change.
 */

// Paths the non-resource handlers publish besides the groups: discovery roots, the service-account issuer, /version.
const FIXED_PATHS = ['.well-known/openid-configuration', 'api', 'apis', 'openid/v1/jwks', 'version'];

/** Every path the root index names, sorted as handler3 sorts them. */
export function openApiPaths(catalog: ResourceCatalog): string[] {
  const paths = new Set(FIXED_PATHS);
  if (catalog.resources().some((entry) => entry.group === '')) paths.add('api/v1');
  for (const group of servedGroups(catalog)) {
    paths.add(`apis/${group.name}`);
    for (const version of group.versions) paths.add(`apis/${group.name}/${version}`);
  }
  return [...paths].sort();
}

const INFO = { title: 'Kubernetes', version: 'v1.36.2' };

/** One group-version's document: every resource's paths, and the schemas of its kinds and what they reach. */
function groupVersionDocument(catalog: ResourceCatalog, group: string, version: string): JsonObject {
  const schemas = new Map<string, JsonObject>();
  let paths: Record<string, JsonObject> = {};
  for (const entry of resourcesOf(catalog, group, version)) {
    const name = addKindSchema(entry, schemas);
    const schemaRef: JsonObject = name ? { $ref: `#/components/schemas/${name}` } : { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
    const listRef: JsonObject = name && schemas.has(`${name}List`) ? { $ref: `#/components/schemas/${name}List` } : { type: 'object' };
    paths = { ...paths, ...resourcePaths(entry, schemaRef, listRef) };
  }
  const sorted = Object.fromEntries([...schemas].sort(([a], [b]) => (a < b ? -1 : 1)));
  return { openapi: '3.0.0', info: INFO, paths, components: { schemas: sorted } };
}

interface Served {
  text: string;
  hash: string;
}
const cache = new WeakMap<ResourceCatalog, { fingerprint: string; paths: string[]; documents: Map<string, Served> }>();

// What the documents depend on: a registration (a CRD registered after the API started) changes it.
const fingerprintOf = (catalog: ResourceCatalog): string =>
  catalog
    .resources()
    .map((e) => `${e.group}/${e.version}/${e.resource}/${e.kind}`)
    .join(',');

/** The documents built so far for the catalog as it is now (a registration since empties them). */
function documentsOf(catalog: ResourceCatalog): { paths: string[]; documents: Map<string, Served> } {
  const fingerprint = fingerprintOf(catalog);
  let cached = cache.get(catalog);
  if (!cached || cached.fingerprint !== fingerprint) {
    cached = { fingerprint, paths: openApiPaths(catalog), documents: new Map() };
    cache.set(catalog, cached);
  }
  return cached;
}

function build(catalog: ResourceCatalog, documents: Map<string, Served>, path: string): Served {
  const known = documents.get(path);
  if (known) return known;
  const [root, group, version] = path.split('/');
  const document =
    root === 'api' && group === 'v1'
      ? groupVersionDocument(catalog, '', 'v1')
      : root === 'apis' && group && version
        ? groupVersionDocument(catalog, group, version)
        : { openapi: '3.0.0', info: INFO, paths: {}, components: {} };
  const text = JSON.stringify(document);
  const served = { text, hash: createHash('sha512').update(text).digest('hex').toUpperCase() };
  documents.set(path, served);
  return served;
}

/** The document at `path` (`api/v1`, `apis/apps/v1`, or one of the fixed paths), as served, or undefined. */
export function openApiDocument(catalog: ResourceCatalog, path: string): Served | undefined {
  const { paths, documents } = documentsOf(catalog);
  return paths.includes(path) ? build(catalog, documents, path) : undefined;
}

/** `/openapi/v3`: every document's server-relative URL with its hash. */
export function openApiRoot(catalog: ResourceCatalog): JsonObject {
  const { paths, documents } = documentsOf(catalog);
  const index: JsonObject = {};
  for (const path of paths) index[path] = { serverRelativeURL: `/openapi/v3/${path}?hash=${build(catalog, documents, path).hash}` };
  return { paths: index };
}
