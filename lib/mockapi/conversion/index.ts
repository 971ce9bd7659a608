/**
 * The mock API's CRD conversion: custom resources whose CRD converts through a webhook are stored at the
 * storage version, and every read or write at another version goes through the converter, one
 * ConversionReview per object, as apiextensions-apiserver's CRD handler does (`pkg/apiserver/customresource_handler.go`,
 * its storage codec in `pkg/apiserver/conversion/converter.go`). With the watch cache (kube-apiserver's
 * default, `--watch-cache`), lists and watches at another version are served from a converted cache per
 * version (lib/mockapi/conversion/watch-cache.ts); without it, each one converts what it returns.
 */
import type { Authorizer } from '../../authz/authorizer';
import type { KubeObject } from '../../kube/admission';
import { joinApiVersion } from '../../kube/api-version';
import type { CatalogEntry } from '../../kube/catalog';
import type { JsonObject } from '../../kube/json';
import { ApiError, methodNotAllowed } from '../../kube/status';
import { serveRest, type RestAnswer, type RestCall } from '../rest';
import type { ObjectStore } from '../store';
import { CapturingStore } from './capturing-store';
import { convertStored, convertsThroughWebhook, type ObjectConverter } from './converter';
import { convertedWatch } from './watch-stream';
import { ConvertedCache } from './watch-cache';

export type { ObjectConverter, ObjectConversion } from './converter';

export interface ConversionOptions {
  converter: ObjectConverter;
  /** `--watch-cache`: lists and watches served from a cache converted as writes happen (kube's default), or converted per request. */
  watchCache: boolean;
}

const servedKey = (entry: CatalogEntry): string => `${entry.group}/${entry.version}/${entry.resource}`;

/** Conversion for one mock API's store: `serve` takes the requests that need it. */
export class ConversionLayer {
  readonly #caches = new Map<string, ConvertedCache>();
  readonly #started = new Set<string>();
  #closed = false;

  constructor(
    private readonly store: ObjectStore,
    private readonly options: ConversionOptions,
  ) {}

  /**
   * The answer to a request at a version other than the storage one of a CRD converting through a webhook;
   * undefined for every other request (served as before). The first request to such a CRD, at any version,
   * starts its watch caches, as the CRD handler creates the storage of every version on its first request.
   */
  serve(call: RestCall, authorizer: Authorizer): Promise<RestAnswer> | undefined {
    const { entry } = call.route;
    if (this.#closed || !convertsThroughWebhook(entry)) return undefined;
    if (this.options.watchCache) this.#startCaches(entry);
    if (entry.version === entry.storageVersion) return undefined;
    const storage = this.store.catalog.resourceByName(entry.group, entry.storageVersion ?? '', entry.resource);
    // A storage version that is not served has no path to read it at: nothing to convert from.
    if (!storage) return undefined;
    return this.#serve(call, storage, authorizer);
  }

  /** Resolves once every watch cache has converted the writes made so far: for tests, instead of waiting. */
  async settled(): Promise<void> {
    await Promise.all([...this.#caches.values()].map((cache) => cache.fresh()));
  }

  close(): void {
    this.#closed = true;
    for (const cache of this.#caches.values()) cache.close();
  }

  async #serve(call: RestCall, storage: CatalogEntry, authorizer: Authorizer): Promise<RestAnswer> {
    const served = call.route.entry;
    const atStorage: RestCall = { ...call, route: { ...call.route, entry: storage } };
    if (!call.route.subresource) {
      switch (call.verb) {
        case 'get':
          return { code: 200, body: await this.#getAt(serveRest(atStorage, this.store, authorizer).body as KubeObject, served, call.url) };
        case 'list':
        case 'deletecollection': {
          const list = serveRest(atStorage, this.store, authorizer);
          return { code: list.code, body: await this.#listAt(list.body as JsonObject, served) };
        }
        case 'watch': {
          if (!call.watches) throw new ApiError(methodNotAllowed());
          const source = call.watches.open(storage, call.route.namespace, call.url, call.route.name);
          return { code: 200, body: undefined, stream: convertedWatch(source, served, (object) => this.#decodeForWatch(object, served)) };
        }
        case 'delete':
          // A custom resource's delete answers a Status, nothing to convert.
          return serveRest(atStorage, this.store, authorizer);
      }
    }
    return this.#write(call, storage, authorizer);
  }

  /**
   * A GET without a resourceVersion reads etcd, not the watch cache (apiserver `pkg/storage/cacher/cacher.go`
   * Get): one review. With one (`0` and up) it reads the cache, which holds the object converted already.
   */
  async #getAt(object: KubeObject, served: CatalogEntry, url: URL): Promise<KubeObject> {
    const cache = this.#caches.get(servedKey(served));
    if (cache && url.searchParams.get('resourceVersion')) {
      await cache.fresh();
      const cached = cache.lookup(object);
      if (cached) return cached;
    }
    return convertStored(this.options.converter, object, served);
  }

  /** A list's items at `served`'s version: from its watch cache, or one review per item in order, the first failure failing the list. */
  async #listAt(list: JsonObject, served: CatalogEntry): Promise<JsonObject> {
    const items = (list.items ?? []) as unknown as KubeObject[];
    const shown: KubeObject[] = [];
    const cache = this.#caches.get(servedKey(served));
    if (cache) await cache.fresh();
    for (const item of items) {
      const object = cache ? cache.lookup(item) : await convertStored(this.options.converter, item, served);
      if (object) shown.push(object);
    }
    return { ...list, apiVersion: joinApiVersion(served), items: shown as unknown as JsonObject[] };
  }

  /** An event's object for a watch; nothing once the API is closing, as a stopping apiserver sends no more events. */
  async #decodeForWatch(object: KubeObject, served: CatalogEntry): Promise<KubeObject | undefined> {
    const cache = this.#caches.get(servedKey(served));
    let decoded: KubeObject | undefined;
    try {
      if (cache) await cache.fresh();
      decoded = cache ? cache.lookup(object) : await convertStored(this.options.converter, object, served);
    } catch (error) {
      if (this.#stopping()) return undefined;
      throw error;
    }
    return this.#stopping() ? undefined : decoded;
  }

  /**
   * A write (or a subresource read) at `served`'s version: the stored object decoded at that version, the
   * request's semantics run there, then the object it writes encoded at the storage version (one review),
   * stored, and decoded back for the answer (one more). With the watch cache an update starts from the cached
   * object, which storage encodes once more to compare with etcd's bytes (etcd3 store.go GuaranteedUpdate,
   * `getStateFromObject` on the cached existing object): one review before the write's own.
   */
  async #write(call: RestCall, storage: CatalogEntry, authorizer: Authorizer): Promise<RestAnswer> {
    const { entry: served, namespace, name } = call.route;
    const stored = name ? this.#stored(storage, namespace, name) : undefined;
    const current = stored && (await this.#current(stored, served, storage, call.verb === 'update' || call.verb === 'patch'));
    const capturing = new CapturingStore(this.store, { entry: served, namespace, name, current });
    const answer = serveRest(call, capturing, authorizer);
    const write = capturing.captured;
    if (!write) return answer;
    const creating = write.verb === 'create';
    const converter = this.options.converter;
    const encoded = await convertStored(converter, write.body, storage, creating);
    const result = creating
      ? this.store.create(storage, namespace, encoded, { ...write.options, prepared: true })
      : this.store.update(storage, namespace, name, encoded, write.options);
    const decoded = await convertStored(converter, result, served, creating);
    // A subresource may answer something else than the object (a Scale): that answer stands.
    const answersObject = (answer.body as KubeObject | undefined)?.kind === served.kind;
    return { code: answer.code, body: answersObject ? decoded : answer.body };
  }

  #stopping(): boolean {
    return this.#closed || this.options.converter.closing === true;
  }

  #stored(storage: CatalogEntry, namespace: string, name: string): KubeObject | undefined {
    try {
      return this.store.get(storage, namespace, name);
    } catch (error) {
      if (error instanceof ApiError && error.status.code === 404) return undefined;
      throw error;
    }
  }

  async #current(stored: KubeObject, served: CatalogEntry, storage: CatalogEntry, updating: boolean): Promise<KubeObject> {
    const cache = this.#caches.get(servedKey(served));
    if (cache) await cache.fresh();
    const cached = cache?.lookup(stored);
    if (!cached) return convertStored(this.options.converter, stored, served);
    if (updating) await convertStored(this.options.converter, cached, storage);
    return cached;
  }

  #startCaches(entry: CatalogEntry): void {
    if (this.#started.has(entry.storageKey)) return;
    this.#started.add(entry.storageKey);
    const storage = this.store.catalog.resourceByName(entry.group, entry.storageVersion ?? '', entry.resource);
    if (!storage) return;
    for (const served of this.store.catalog.resources()) {
      if (served.storageKey !== entry.storageKey || served.version === storage.version) continue;
      this.#caches.set(servedKey(served), new ConvertedCache(this.store, storage, served, this.options.converter));
    }
  }
}
