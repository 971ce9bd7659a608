import type { KubeObject } from '../../kube/admission';
import { joinApiVersion } from '../../kube/api-version';
import type { CatalogEntry } from '../../kube/catalog';
import type { StoreEvent } from '../event-log';
import type { ObjectStore } from '../store';
import { withoutResourceVersion, type ObjectConverter } from './converter';

/** The key a store event and a list item share: `<namespace>/<name>`, '' namespace for cluster-scoped objects. */
export function objectKey(entry: CatalogEntry, object: KubeObject): string {
  return `${entry.namespaced ? (object.metadata?.namespace ?? '') : ''}/${object.metadata?.name ?? ''}`;
}

/**
 * The watch cache of one served version other than the storage one (apiserver `pkg/storage/cacher`, one
 * cacher per version of a CRD, created with its storage in the CRD handler's `getOrCreateServingInfoFor`):
 * its reflector lists every stored object and then follows every write, decoding each through the
 * converter — one ConversionReview per object and per event, one at a time, in revision order, whoever
 * asked. Lists and watches at that version are then served from what it holds, without a review.
 *
 * A conversion that fails leaves the object as the cache last held it (none when it never converted), so
 * reads keep answering from older contents, as the recorded LISTs did while the webhook failed.
 */
export class ConvertedCache {
  /** `key` → resourceVersion → the object at this version, without its resourceVersion. */
  readonly #objects = new Map<string, Map<number, KubeObject>>();
  #tail: Promise<void> = Promise.resolve();
  readonly #unsubscribe: () => void;
  #closed = false;

  constructor(
    store: ObjectStore,
    private readonly storage: CatalogEntry,
    private readonly served: CatalogEntry,
    private readonly converter: ObjectConverter,
  ) {
    // The reflector's LIST, then its watch from the list's revision: one subscription taken in the same turn.
    for (const object of store.listView(storage, '')) this.#enqueue(objectKey(storage, object), Number(object.metadata?.resourceVersion), object);
    this.#unsubscribe = store.events.subscribe((event) => this.#follow(event));
  }

  /** Resolves once every write made so far is converted (or failed): the cache is as fresh as the store. */
  fresh(): Promise<void> {
    return this.#tail;
  }

  /**
   * `object` (stored, at the storage version) as this cache holds it at this version, with the object's
   * resourceVersion; the last older state it converted when this one failed; undefined when it holds none.
   * Call after `fresh()`.
   */
  lookup(object: KubeObject): KubeObject | undefined {
    const versions = this.#objects.get(objectKey(this.storage, object));
    if (!versions) return undefined;
    const revision = Number(object.metadata?.resourceVersion);
    let best: number | undefined;
    for (const held of versions.keys()) if (held <= revision && (best === undefined || held > best)) best = held;
    const found = best === undefined ? undefined : versions.get(best);
    return found && { ...found, metadata: { ...found.metadata, resourceVersion: object.metadata?.resourceVersion ?? String(revision) } };
  }

  /** Stops following the store; conversions queued and not started are dropped. */
  close(): void {
    this.#closed = true;
    this.#unsubscribe();
  }

  #follow(event: StoreEvent): void {
    if (event.storageKey !== this.storage.storageKey) return;
    this.#enqueue(event.key, event.revision, event.object);
  }

  #enqueue(key: string, revision: number, object: KubeObject): void {
    this.#tail = this.#tail.then(() => this.#convert(key, revision, object));
  }

  async #convert(key: string, revision: number, object: KubeObject): Promise<void> {
    // Nothing new starts once the API or the harness is closing: no connection opened after close().
    if (this.#closed || this.converter.closing) return;
    let converted;
    try {
      converted = await this.converter.convert(withoutResourceVersion(object), joinApiVersion(this.served));
    } catch {
      // A converter that throws (the harness closing under it) fails this event only; the cache goes on.
      return;
    }
    if ('error' in converted) return;
    let versions = this.#objects.get(key);
    if (!versions) this.#objects.set(key, (versions = new Map()));
    versions.set(revision, converted.object);
  }
}
