import type { KubeObject } from '../../kube/admission';
import type { CatalogEntry } from '../../kube/catalog';
import { ApiError } from '../../kube/status';
import { HistoryCompacted, type StoreEvent } from '../event-log';
import { objectFilter } from '../list';
import { listOptionsOf, parseResourceVersion, validateListOptions, type ListOptions } from '../list-options';
import type { ObjectFilter } from '../selectors';
import { presentedAs, type ObjectStore } from '../store';
import { tooLargeResourceVersion, watchTooOld } from '../version-errors';
import { bookmark, encodeEvent, eventFor, type WatchEvent } from './events';

/** The timers watches run on: Node's by default, a test's own to end a `timeoutSeconds` watch without waiting. */
export interface WatchClock {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

export const NODE_TIMERS: WatchClock = { setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (timer) => clearTimeout(timer as NodeJS.Timeout) };

// cacher.go defaultBookmarkFrequency, and the bookmark cache_watcher.go's nextBookmarkTime sends 2 s before a deadline.
const BOOKMARK_EVERY_MS = 60_000;
const BOOKMARK_BEFORE_DEADLINE_MS = 2_000;

/** Where a watch starts: the objects it first sends as ADDED, and the history it replays after them. */
interface Start {
  initial: readonly KubeObject[];
  replay: readonly StoreEvent[];
  /** Ends the initial events with a bookmark (sendInitialEvents with allowWatchBookmarks). */
  endBookmark: boolean;
}

/** One open watch: a stream of events for one resource in one namespace ('' for all) through its selectors. */
class Watcher {
  readonly #hub: WatchHub;
  #controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  #unsubscribe: (() => void) | undefined;
  readonly #timers = new Set<unknown>();
  #ended = false;

  constructor(
    hub: WatchHub,
    private readonly entry: CatalogEntry,
    private readonly namespace: string,
    private readonly matches: ObjectFilter,
    private readonly options: ListOptions,
  ) {
    this.#hub = hub;
  }

  /** The response body: headers go out at once (an empty first chunk), then the events as they come. */
  stream(start: Start): ReadableStream<Uint8Array> {
    return new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.#controller = controller;
        controller.enqueue(new Uint8Array(0));
        for (const object of start.initial) this.#send({ type: 'ADDED', object: presentedAs(this.entry, object) });
        if (start.endBookmark) this.#send(bookmark(this.entry, this.#hub.revision(), true));
        for (const event of start.replay) this.#deliver(event);
        this.#unsubscribe = this.#hub.store.events.subscribe((event) => this.#deliver(event));
        this.#arm();
      },
      cancel: () => this.end(),
    });
  }

  /** A stream that carries one ERROR event and ends, as the watch cache answers a version it no longer holds. */
  failed(event: WatchEvent): ReadableStream<Uint8Array> {
    return new ReadableStream<Uint8Array>({
      start: (controller) => {
        controller.enqueue(new Uint8Array(0));
        controller.enqueue(encodeEvent(event));
        controller.close();
      },
    });
  }

  /** Stops the watch and ends its response, as the server does at timeoutSeconds or on shutdown. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#unsubscribe?.();
    for (const timer of this.#timers) this.#hub.clock.clearTimeout(timer);
    this.#timers.clear();
    this.#hub.forget(this);
    try {
      this.#controller?.close();
    } catch {
      // The client cancelled the stream: it is closed already.
    }
  }

  #deliver(event: StoreEvent): void {
    if (event.storageKey !== this.entry.storageKey) return;
    const watched = eventFor(this.entry, event, (object) => this.#inScope(object) && this.matches(object));
    if (watched) this.#send(watched);
  }

  #inScope(object: KubeObject): boolean {
    return !this.namespace || object.metadata?.namespace === this.namespace;
  }

  #send(event: WatchEvent): void {
    if (this.#ended) return;
    try {
      this.#controller?.enqueue(encodeEvent(event));
    } catch {
      // The stream is gone without a cancel: end the watch rather than fail the write that is notifying it.
      this.end();
    }
  }

  #after(ms: number, fn: () => void): void {
    const timer = this.#hub.clock.setTimeout(() => {
      this.#timers.delete(timer);
      fn();
    }, ms * this.#hub.timeScale);
    this.#timers.add(timer);
  }

  /** The deadline (timeoutSeconds) and, with allowWatchBookmarks, the bookmarks: every minute and 2 s before the deadline. */
  #arm(): void {
    const timeoutMs = (this.options.timeoutSeconds ?? 0) * 1000;
    if (timeoutMs > 0) this.#after(timeoutMs, () => this.end());
    if (!this.options.allowWatchBookmarks) return;
    let elapsed = 0;
    const schedule = (): void => {
      let next = BOOKMARK_EVERY_MS;
      const beforeDeadline = timeoutMs - BOOKMARK_BEFORE_DEADLINE_MS - elapsed;
      if (timeoutMs > 0 && beforeDeadline < next) next = beforeDeadline;
      if (next <= 0) return;
      this.#after(next, () => {
        elapsed += next;
        this.#send(bookmark(this.entry, this.#hub.revision(), false));
        schedule();
      });
    };
    schedule();
  }
}

/**
 * The open watches of a mock API. A watch is served as kube-apiserver's watch cache serves it (apiserver
 * `pkg/storage/cacher/cacher.go`, Watch): from a resourceVersion it replays the writes after it, then follows
 * the store; without one (or with sendInitialEvents) it first sends every current object as ADDED.
 */
export class WatchHub {
  readonly #open = new Set<Watcher>();

  constructor(
    readonly store: ObjectStore,
    readonly clock: WatchClock = NODE_TIMERS,
    /** Real time per second of the API's clock, as its injected latency runs. */
    readonly timeScale = 1,
  ) {}

  /** How many watches are open: for tests proving that nothing is left behind. */
  get size(): number {
    return this.#open.size;
  }

  revision(): number {
    return Number(this.store.resourceVersion);
  }

  /**
   * The response body of a watch request; `name` for one object (the deprecated `/watch/…/<name>` path).
   * Throws ApiError for a request kube refuses before streaming.
   */
  open(entry: CatalogEntry, namespace: string, url: URL, name = ''): ReadableStream<Uint8Array> {
    // On a `/watch/` path without `?watch`, kube decodes and validates the options as a list's (get.go, forceWatch).
    const options = listOptionsOf(url);
    validateListOptions(options);
    const selected = objectFilter(options.labelSelector, options.fieldSelector);
    const filter = name ? (object: KubeObject) => object.metadata?.name === name && selected(object) : selected;
    const watcher = new Watcher(this, entry, namespace, filter, options);
    const requested = parseResourceVersion(options.resourceVersion);
    const current = this.revision();
    if (requested > current) throw new ApiError(tooLargeResourceVersion(requested, current));
    let start: Start;
    // Without the WatchList defaults (a `/watch/` path), no version still means the objects first, but no end bookmark.
    if (options.sendInitialEvents || (options.sendInitialEvents === undefined && requested === 0)) {
      const initial = this.store.listView(entry, namespace).filter(filter);
      start = { initial, replay: [], endBookmark: options.sendInitialEvents === true && options.allowWatchBookmarks };
    } else if (requested === 0) {
      start = { initial: [], replay: [], endBookmark: false };
    } else {
      try {
        start = { initial: [], replay: this.store.events.since(requested), endBookmark: false };
      } catch (error) {
        if (!(error instanceof HistoryCompacted)) throw error;
        return watcher.failed({ type: 'ERROR', object: watchTooOld(error.requested, error.compacted) });
      }
    }
    this.#open.add(watcher);
    return watcher.stream(start);
  }

  forget(watcher: Watcher): void {
    this.#open.delete(watcher);
  }

  /** Ends every open watch: their responses end, as a stopping apiserver's do. */
  closeAll(): void {
    for (const watcher of [...this.#open]) watcher.end();
  }
}
