import type { KubeObject } from '../../kube/admission';
import type { CatalogEntry } from '../../kube/catalog';
import { joinApiVersion } from '../../kube/api-version';
import type { ApiStatus } from '../../kube/status';
import type { StoreEvent } from '../event-log';
import type { ObjectFilter } from '../selectors';
import { presentedAs } from '../store';

/** One line of a watch stream, as kube-apiserver's watch encoder writes it (metav1.WatchEvent). */
export interface WatchEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: KubeObject | ApiStatus;
}

/** The annotation on the bookmark that ends a watch's initial events (`storage.AnnotateInitialEventsEndBookmark`). */
export const INITIAL_EVENTS_END = 'k8s.io/initial-events-end';

const withVersion = (object: KubeObject, revision: number): KubeObject => ({ ...object, metadata: { ...object.metadata, resourceVersion: String(revision) } });

/**
 * A store event as one watcher sees it through its selectors (apiserver `pkg/storage/cacher/cache_watcher.go`,
 * convertToWatchEvent): an object that starts matching is ADDED, one that stops matching is DELETED with its old
 * content at the new resourceVersion; undefined when the watcher sees neither state.
 */
export function eventFor(entry: CatalogEntry, event: StoreEvent, matches: ObjectFilter): WatchEvent | undefined {
  const now = event.type !== 'DELETED' && matches(event.object);
  const before = event.previous !== undefined && matches(event.previous);
  if (now) return { type: before ? 'MODIFIED' : 'ADDED', object: presentedAs(entry, event.object) };
  if (!before) return undefined;
  const last = event.type === 'DELETED' ? event.object : withVersion(event.previous as KubeObject, event.revision);
  return { type: 'DELETED', object: presentedAs(entry, last) };
}

/** A BOOKMARK: the kind, apiVersion and resourceVersion only, plus the end-of-initial-events annotation when it is that one. */
export function bookmark(entry: CatalogEntry, revision: number, endsInitialEvents: boolean): WatchEvent {
  const metadata = { resourceVersion: String(revision), ...(endsInitialEvents ? { annotations: { [INITIAL_EVENTS_END]: 'true' } } : {}) };
  return { type: 'BOOKMARK', object: { kind: entry.kind, apiVersion: joinApiVersion(entry), metadata } };
}

const encoder = new TextEncoder();

/** One JSON event per line, as the stream carries it. */
export const encodeEvent = (event: WatchEvent): Uint8Array => encoder.encode(`${JSON.stringify(event)}\n`);
