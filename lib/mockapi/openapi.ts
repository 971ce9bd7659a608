import { createHash } from 'node:crypto';
import type { ResourceCatalog } from '../kube/catalog';
import type { JsonObject } from '../kube/json';
import { servedGroups } from './discovery/facts';

/*
 * OpenAPI v3 as kube-apiserver publishes it (kube-openapi:pkg/handler3/handler.go): a root index naming one
 * document per group-version, each URL carrying the hash of its document so clients cache it forever.
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

/** A group-version's document (or a fixed path's): the OpenAPI envelope, its paths and schemas left out. */
export function openApiDocument(catalog: ResourceCatalog, path: string): JsonObject | undefined {
  if (!openApiPaths(catalog).includes(path)) return undefined;
  return { openapi: '3.0.0', info: { title: 'Kubernetes', version: 'v1.36.2' }, paths: {}, components: {} };
}

/** handler3's hash of a document: the upper-case hex SHA-512 of its bytes. */
const hashOf = (document: JsonObject): string => createHash('sha512').update(JSON.stringify(document)).digest('hex').toUpperCase();

/** `/openapi/v3`: every document's server-relative URL with its hash. */
export function openApiRoot(catalog: ResourceCatalog): JsonObject {
  const paths: JsonObject = {};
  for (const path of openApiPaths(catalog)) {
    const document = openApiDocument(catalog, path) as JsonObject;
    paths[path] = { serverRelativeURL: `/openapi/v3/${path}?hash=${hashOf(document)}` };
  }
  return { paths };
}
