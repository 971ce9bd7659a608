import type { KubeObject } from '../kube/admission';

/** The change types a watch carries for objects (BOOKMARK and ERROR are the stream's own). */
export type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

/**
 * One write to the store, as the watch cache keeps it (apiserver `pkg/storage/cacher/watch_cache.go`,
 * watchCacheEvent): the object after the write and the one before it, both as stored (frozen, shared).
 */
export interface StoreEvent {
  readonly type: ChangeType;
  /** The store-wide revision this write took; a DELETED event's object carries it too. */
  readonly revision: number;
  /** The storage bucket (every served version of a resource shares one). */
  readonly storageKey: string;
  /** `<namespace>/<name>` ('' namespace for cluster-scoped objects): etcd's key order. */
  readonly key: string;
  /** After the write; for DELETED, the last state with the deletion's resourceVersion (what a watch sends). */
  readonly object: KubeObject;
  /** Before the write; undefined for ADDED. */
  readonly previous: KubeObject | undefined;
}

/** A watch or list asked for history the log no longer holds (kube's 410 Expired). */
export class HistoryCompacted extends Error {
  constructor(
    readonly requested: number,
    readonly compacted: number,
  ) {
    super(`too old resource version: ${requested} (${compacted})`);
  }
}

export type EventListener = (event: StoreEvent) => void;

/**
 * The store's history: every write in revision order, as one counter orders them (etcd's revision). Watches
 * replay it from the version they ask for and then follow it; exact lists rebuild a past state from it.
 * `compact(revision)` forgets what came before, as an apiserver restart or etcd compaction under a full watch
 * cache does, so that asking for older versions gets kube's 410.
 */
export class EventLog {
  #events: StoreEvent[] = [];
  #compacted = 0;
  readonly #listeners = new Set<EventListener>();

  /** Versions at or below this one can no longer be replayed. 0 while nothing was compacted. */
  get compactedRevision(): number {
    return this.#compacted;
  }

  append(event: StoreEvent): void {
    this.#events.push(event);
    for (const listener of [...this.#listeners]) listener(event);
  }

  /** Calls `listener` with every event appended from now on, until the returned function is called. */
  subscribe(listener: EventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The events after `revision`, oldest first. Throws HistoryCompacted when some of them are forgotten. */
  since(revision: number): readonly StoreEvent[] {
    if (revision < this.#compacted) throw new HistoryCompacted(revision, this.#compacted);
    return this.#events.slice(this.#firstAfter(revision));
  }

  /** The events after `revision`, newest first, for undoing them; throws HistoryCompacted like `since`. */
  newestAfter(revision: number): readonly StoreEvent[] {
    return [...this.since(revision)].reverse();
  }

  /**
   * Forgets the history up to and including `revision` (the current one by default): a watch or exact list from
   * an older version is answered with 410. The state at `revision` itself stays reachable.
   */
  compact(revision: number): void {
    if (revision <= this.#compacted) return;
    this.#compacted = revision;
    this.#events = this.#events.slice(this.#firstAfter(revision));
  }

  // Binary search: the index of the first event with a revision above `revision`.
  #firstAfter(revision: number): number {
    let low = 0;
    let high = this.#events.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.#events[middle] as StoreEvent).revision <= revision) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}
