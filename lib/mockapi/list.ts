import type { KubeObject } from '../kube/admission';
import type { CatalogEntry } from '../kube/catalog';
import type { Json, JsonObject } from '../kube/json';
import { joinApiVersion } from '../kube/api-version';
import { ApiError, badRequest } from '../kube/status';
import { decodeContinue, encodeContinue } from './continue-token';
import { HistoryCompacted } from './event-log';
import { listOptionsOf, parseResourceVersion, validateListOptions, type ListOptions } from './list-options';
import { parseFieldSelector, parseLabelSelector, SelectorSyntaxError, type ObjectFilter } from './selectors';
import { isBuiltin, type ObjectStore } from './store';
import { CONTINUE_TOO_OLD, LIST_TOO_OLD, resourceExpired, tooLargeResourceVersion } from './version-errors';

/** The objects a `labelSelector` and `fieldSelector` pick; a selector kube would refuse is a 400. */
export function objectFilter(labelSelector: string, fieldSelector: string): ObjectFilter {
  try {
    const labels = parseLabelSelector(labelSelector);
    const fields = parseFieldSelector(fieldSelector);
    return (object) => labels(object) && fields(object);
  } catch (error) {
    if (error instanceof SelectorSyntaxError) throw new ApiError(badRequest(error.message));
    throw error;
  }
}

/** A List as the API serializes it: items of built-in kinds carry no apiVersion/kind of their own. */
export function listOf(entry: CatalogEntry, items: readonly KubeObject[], metadata: JsonObject): JsonObject {
  if (isBuiltin(entry)) {
    const shown = items.map(({ apiVersion: _a, kind: _k, ...rest }) => rest);
    return { kind: `${entry.kind}List`, apiVersion: joinApiVersion(entry), metadata, items: shown as Json[] };
  }
  // A custom resource's list is unstructured, whose SetContinue writes the key even when empty
  // (apimachinery `pkg/apis/meta/v1/unstructured/unstructured_list.go`): the last page says `continue: ""`.
  return { kind: `${entry.kind}List`, apiVersion: joinApiVersion(entry), metadata: { continue: '', ...metadata }, items: items as Json[] };
}

/** An object's key under the list's prefix, as a continue token names it: `name`, or `namespace/name` across namespaces. */
function relativeKey(entry: CatalogEntry, namespace: string, object: KubeObject): string {
  const name = object.metadata?.name ?? '';
  return entry.namespaced && !namespace ? `${object.metadata?.namespace ?? ''}/${name}` : name;
}

interface Snapshot {
  items: KubeObject[];
  revision: number;
  /** The relative key to start from ('' for the beginning). */
  start: string;
}

/** The objects at `revision`; a forgotten revision is kube's 410 with `message`. */
function objectsAt(store: ObjectStore, entry: CatalogEntry, namespace: string, revision: number, expired: () => ApiError): KubeObject[] {
  try {
    return store.viewAt(entry, namespace, revision);
  } catch (error) {
    if (error instanceof HistoryCompacted) throw expired();
    throw error;
  }
}

/** A page after the first: the snapshot its token names (apiserver `pkg/storage/interfaces.go`, ValidateListOptions). */
function continuedSnapshot(options: ListOptions, store: ObjectStore, entry: CatalogEntry, namespace: string): Snapshot {
  if (options.resourceVersion !== '' && options.resourceVersion !== '0')
    throw new ApiError(badRequest('specifying resource version is not allowed when using continue'));
  const point = decodeContinue(options.continue);
  if (typeof point === 'string') throw new ApiError(badRequest(`invalid continue token: ${point}`));
  const current = Number(store.resourceVersion);
  if (point.revision < 0) return { items: store.listView(entry, namespace), revision: current, start: point.startKey };
  if (point.revision > current) throw new ApiError(tooLargeResourceVersion(point.revision, current));
  // Past compaction the rest can only come from the latest state: kube offers a token for that, at revision -1.
  const expired = () => new ApiError(resourceExpired(CONTINUE_TOO_OLD, encodeContinue({ revision: -1, startKey: point.startKey })));
  return { items: objectsAt(store, entry, namespace, point.revision, expired), revision: point.revision, start: point.startKey };
}

/**
 * The state a first page (or an unpaginated list) reads: the latest for no version, `0` or NotOlderThan;
 * the state at that version for `Exact`, and for a legacy version with a limit (kube's "legacy exact").
 */
function firstSnapshot(options: ListOptions, store: ObjectStore, entry: CatalogEntry, namespace: string): Snapshot {
  const requested = parseResourceVersion(options.resourceVersion);
  const current = Number(store.resourceVersion);
  if (requested > current) throw new ApiError(tooLargeResourceVersion(requested, current));
  const exact = options.resourceVersionMatch === 'Exact' || (options.resourceVersionMatch === '' && options.limit > 0 && requested > 0);
  if (!exact) return { items: store.listView(entry, namespace), revision: current, start: '' };
  const expired = () => new ApiError(resourceExpired(LIST_TOO_OLD));
  return { items: objectsAt(store, entry, namespace, requested, expired), revision: requested, start: '' };
}

/**
 * A LIST as kube-apiserver answers it: resourceVersion and resourceVersionMatch choose the state read, the
 * selectors filter it, `limit` cuts it into pages over one snapshot, each but the last with a continue token
 * and (without selectors) the count of items left. Throws ApiError for what kube refuses.
 */
export function serveList(url: URL, entry: CatalogEntry, namespace: string, store: ObjectStore): JsonObject {
  const options = listOptionsOf(url);
  validateListOptions(options);
  const filter = objectFilter(options.labelSelector, options.fieldSelector);
  const { items, revision, start } = options.continue ? continuedSnapshot(options, store, entry, namespace) : firstSnapshot(options, store, entry, namespace);
  const keyed = items.map((object) => ({ key: relativeKey(entry, namespace, object), object })).filter(({ key }) => key >= start);
  const selected = keyed.filter(({ object }) => filter(object));
  const metadata: JsonObject = { resourceVersion: String(revision) };
  if (options.limit <= 0 || selected.length <= options.limit)
    return listOf(
      entry,
      selected.map(({ object }) => object),
      metadata,
    );

  const page = selected.slice(0, options.limit);
  const last = page[page.length - 1] as { key: string };
  metadata.continue = encodeContinue({ revision, startKey: `${last.key}\u0000` });
  // Without selectors the count is etcd's count of keys left; with them it would be wrong, so kube leaves it out.
  if (!options.labelSelector && !options.fieldSelector) metadata.remainingItemCount = keyed.length - options.limit;
  return listOf(
    entry,
    page.map(({ object }) => object),
    metadata,
  );
}
