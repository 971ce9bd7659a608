import type { CatalogEntry, ResourceCatalog } from '../kube/catalog';

/** What a REST path addresses: one resource's collection or item, maybe in a namespace, maybe a subresource. */
export interface Route {
  entry: CatalogEntry;
  /** The namespace in the path; '' for cluster-scoped resources and for lists across all namespaces. */
  namespace: string;
  /** '' for a collection. */
  name: string;
  subresource: string;
  /** Reached through the deprecated `/watch/` paths, which serve only watches. */
  watchPath?: boolean;
}

/**
 * Resolves `/api/v1/…` and `/apis/<group>/<version>/…` the way kube-apiserver's installer lays routes out:
 * `[namespaces/<ns>/]<resource>[/<name>[/<subresource>]]`. Undefined when no served resource has that path.
 */
export function parseApiPath(pathname: string, catalog: ResourceCatalog): Route | undefined {
  let segments: string[];
  try {
    segments = pathname.split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    return undefined; // a malformed %-escape names nothing
  }
  let group: string;
  let rest: string[];
  if (segments[0] === 'api' && segments.length >= 3) {
    group = '';
    rest = segments.slice(1);
  } else if (segments[0] === 'apis' && segments.length >= 4) {
    group = segments[1] as string;
    rest = segments.slice(2);
  } else {
    return undefined;
  }
  const [version, ...path] = rest as [string, ...string[]];
  // The deprecated `/watch/` paths (the installer's WATCH and WATCHLIST actions) address the same collections and items.
  if (path[0] === 'watch' && path.length > 1) {
    const prefix = group ? ['apis', group, version] : ['api', version];
    const watched = parseApiPath(`/${[...prefix, ...path.slice(1)].map(encodeURIComponent).join('/')}`, catalog);
    return watched && !watched.subresource ? { ...watched, watchPath: true } : undefined;
  }
  const resolve = (resource: string | undefined): CatalogEntry | undefined =>
    resource === undefined ? undefined : catalog.resourceByName(group, version, resource);

  // `namespaces/<ns>/<resource>…` is a namespaced resource; `namespaces/<name>[/<sub>]` is the namespace itself.
  const namespacedEntry = path[0] === 'namespaces' && path.length >= 3 ? resolve(path[2]) : undefined;
  if (namespacedEntry?.namespaced) {
    if (path.length > 5) return undefined;
    return { entry: namespacedEntry, namespace: path[1] as string, name: path[3] ?? '', subresource: path[4] ?? '' };
  }
  const entry = resolve(path[0]);
  if (!entry || path.length > 3) return undefined;
  // A namespaced resource has no items outside a namespace: `/api/v1/pods` lists them all, `/api/v1/pods/x` is no path.
  if (entry.namespaced && path.length > 1) return undefined;
  return { entry, namespace: '', name: path[1] ?? '', subresource: path[2] ?? '' };
}
