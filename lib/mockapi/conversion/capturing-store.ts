import type { KubeObject } from '../../kube/admission';
import { joinApiVersion } from '../../kube/api-version';
import type { CatalogEntry } from '../../kube/catalog';
import { cloneJson } from '../../kube/json';
import { ApiError, notFound } from '../../kube/status';
import { ObjectStore, type WriteOptions } from '../store';

/** The write a request made, at the version it was made in, for the storage layer to convert and store. */
export interface CapturedWrite {
  verb: 'create' | 'update';
  body: KubeObject;
  options: WriteOptions;
}

// names.SimpleNameGenerator: the prefix is cut so prefix + 5 random characters fit in 63 (as store.create does).
const MAX_GENERATE_NAME_PREFIX = 58;

/**
 * The store a write at a non-storage version runs against: the request's REST semantics (registry stage,
 * patches, server-side apply, subresources) run unchanged, at the request's version, over the object as
 * decoded at that version; the one write they end in is captured instead of stored, to be converted to the
 * storage version first (the CRD storage's codec encodes at the storage version). Every other read goes to
 * the real store.
 */
export class CapturingStore extends ObjectStore {
  captured: CapturedWrite | undefined;

  constructor(
    private readonly real: ObjectStore,
    private readonly target: { entry: CatalogEntry; namespace: string; name: string; current: KubeObject | undefined },
  ) {
    // The real store's random source: a name generated here is one the real store would have drawn.
    super(real.catalog, real.random);
  }

  override get(entry: CatalogEntry, namespace: string, name: string): KubeObject {
    if (!this.#isTarget(entry, namespace, name)) return this.real.get(entry, namespace, name);
    const current = this.target.current;
    if (!current) throw new ApiError(notFound(entry, name));
    return { ...cloneJson(current), kind: entry.kind, apiVersion: joinApiVersion(entry) };
  }

  override create(entry: CatalogEntry, namespace: string, body: KubeObject, options: WriteOptions = {}): KubeObject {
    const object = this.accept(entry, namespace, body);
    const metadata = { ...object.metadata };
    // BeforeCreate names the object before storage encodes it: the review carries the generated name.
    if (!metadata.name && metadata.generateName) metadata.name = metadata.generateName.slice(0, MAX_GENERATE_NAME_PREFIX) + this.random.suffix(5);
    this.captured = { verb: 'create', body: { ...object, metadata }, options };
    return { ...object, metadata };
  }

  override update(entry: CatalogEntry, namespace: string, _name: string, body: KubeObject, options: WriteOptions = {}): KubeObject {
    const object = this.accept(entry, namespace, body);
    this.captured = { verb: 'update', body: object, options };
    return object;
  }

  #isTarget(entry: CatalogEntry, namespace: string, name: string): boolean {
    const { target } = this;
    return entry.storageKey === target.entry.storageKey && name === target.name && (!entry.namespaced || namespace === target.namespace);
  }
}
