import { HarnessError } from '../errors';
import type { KubeObject } from '../kube/admission';
import { atStorageVersion, atVersionOf } from './storage-version';
import { splitApiVersion, joinApiVersion } from '../kube/api-version';
import { BUILTIN_RESOURCES, type CatalogEntry, type ResourceCatalog } from '../kube/catalog';
import { hashSeed, SeededRandom } from '../random';
import { cloneJson, deepFreeze, isObject, jsonEqual } from '../kube/json';
import { ApiError, alreadyExists, badRequest, conflict, internalError, invalid, notFound } from '../kube/status';
import { validateName } from './validation';
import { namespaceLabels } from '../kube/namespaces';
import { EventLog, type ChangeType } from './event-log';

export interface WriteOptions {
  /** `?dryRun=All`: everything is checked and the answer is the object as it would be stored, but nothing is. */
  dryRun?: boolean;
  /**
   * The body went through the registry stage (lib/mockapi/writes): its uid, creationTimestamp and generation
   * are the ones that stage assigned, kept as they are.
   */
  prepared?: boolean;
}

/** A list's answer: the items (copies) and the store's revision when it was read. */
export interface ListResult {
  items: KubeObject[];
  resourceVersion: string;
}

type Metadata = NonNullable<KubeObject['metadata']>;

// names.SimpleNameGenerator: the prefix is cut so prefix + 5 random characters fit in 63.
const MAX_GENERATE_NAME_PREFIX = 58;
const BUILTIN = new Set(BUILTIN_RESOURCES.map((r) => `${r.group}/${r.resource}`));

/** True for the resources kube-apiserver itself serves (whose list items carry no apiVersion/kind). */
export function isBuiltin(entry: CatalogEntry): boolean {
  return BUILTIN.has(`${entry.group}/${entry.resource}`);
}

/**
 * A stored object as a client sees it at `entry`'s version: kind and apiVersion first, as kube-apiserver
 * serializes them. Shallow: the rest is the stored (frozen) object's own, so it is for serializing, not changing.
 */
export function presentedAs(entry: CatalogEntry, object: KubeObject): KubeObject {
  const { apiVersion: _apiVersion, kind: _kind, ...rest } = atVersionOf(entry, object);
  return { kind: entry.kind, apiVersion: joinApiVersion(entry), ...rest };
}

/** metav1.Time: RFC 3339 in UTC, whole seconds. */
export function timestamp(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}

const isNamespaceEntry = (entry: CatalogEntry): boolean => entry.group === '' && entry.resource === 'namespaces';

/**
 * The mock cluster's objects. One bucket per storage key, so every served version of a resource sees the same
 * objects, re-labelled with the version asked for; a built-in kind kube converts with functions of its own
 * (an HPA) is stored at its storage version and converted on every read, as kube-apiserver's storage
 * codec does (lib/kube/conversion). Every write takes the next
 * resourceVersion of one cluster-wide counter, as etcd's revision does.
 */
export class ObjectStore {
  /** Every write in revision order: what watches replay and follow, and exact lists rebuild the past from. */
  readonly events = new EventLog();
  readonly #buckets = new Map<string, Map<string, KubeObject>>();
  readonly #namespaces: CatalogEntry;
  #revision = 0;

  constructor(
    readonly catalog: ResourceCatalog,
    /** Draws uids and generateName suffixes, for the store and the registry stage of the API's writes. */
    readonly random: SeededRandom,
  ) {
    const namespaces = catalog.resourceByName('', 'v1', 'namespaces');
    if (!namespaces)
      throw new HarnessError(
        'USAGE',
        'the mock API needs core v1 namespaces in its resource catalog',
        'register { group: "", version: "v1", kind: "Namespace", resource: "namespaces", namespaced: false }',
      );
    this.#namespaces = namespaces;
  }

  /** The revision of the last write. */
  get resourceVersion(): string {
    return String(this.#revision);
  }

  /** The resource serving `apiVersion`/`kind`, for callers that hold objects rather than paths. */
  entryFor(apiVersion: string, kind: string): CatalogEntry {
    const [group, version] = splitApiVersion(apiVersion);
    const entry = this.catalog.resourceForKind({ group, version, kind });
    if (!entry)
      throw new HarnessError('USAGE', `the mock API does not serve ${apiVersion} ${kind}`, 'register the resource in the catalog given to the mock API');
    return entry;
  }

  get(entry: CatalogEntry, namespace: string, name: string): KubeObject {
    const stored = this.#bucket(entry).get(this.#key(entry, namespace, name));
    if (!stored) throw new ApiError(notFound(entry, name));
    return this.#present(entry, stored);
  }

  /** Objects of `entry` in `namespace` ('' for all), in etcd key order (namespace, then name). */
  list(entry: CatalogEntry, namespace: string): ListResult {
    return { items: this.#storedIn(entry, namespace).map((object) => this.#present(entry, object)), resourceVersion: this.resourceVersion };
  }

  create(entry: CatalogEntry, namespace: string, body: KubeObject, options: WriteOptions = {}): KubeObject {
    const object = this.accept(entry, namespace, body);
    const metadata = object.metadata as Metadata;
    if (!metadata.name && metadata.generateName) metadata.name = metadata.generateName.slice(0, MAX_GENERATE_NAME_PREFIX) + this.random.suffix(5);
    const name = metadata.name ?? '';
    const errors = validateName(entry, name);
    if (errors.length > 0) throw new ApiError(invalid(entry, name, errors));
    if (entry.namespaced && !this.#bucket(this.#namespaces).has(this.#key(this.#namespaces, '', metadata.namespace ?? ''))) {
      // The NamespaceLifecycle admission plugin's answer.
      throw new ApiError(notFound(this.#namespaces, metadata.namespace ?? ''));
    }
    const key = this.#key(entry, metadata.namespace ?? '', name);
    if (this.#bucket(entry).has(key)) throw new ApiError(alreadyExists(entry, name));
    // etcd3's store refuses this on a real write only; a dry run never reaches it.
    if (metadata.resourceVersion && !options.dryRun) throw new ApiError(internalError('resourceVersion should not be set on objects to be created'));
    const { name: _name, generateName, namespace: ns, uid, resourceVersion: _rv, generation, creationTimestamp: created, ...rest } = metadata;
    object.metadata = {
      name,
      ...(generateName ? { generateName } : {}),
      ...(ns ? { namespace: ns } : {}),
      uid: options.prepared && uid ? uid : this.random.uuid(),
      ...(options.dryRun ? {} : { resourceVersion: String(this.#revision + 1) }),
      ...(generation !== undefined ? { generation } : {}),
      creationTimestamp: options.prepared && created ? created : timestamp(),
      ...rest,
    };
    if (isNamespaceEntry(entry)) this.#defaultNamespace(object, true);
    const stored = atStorageVersion(this.catalog, entry, object);
    if (!options.dryRun) this.#write(entry, key, stored);
    if (isNamespaceEntry(entry) && !options.dryRun) this.#defaultServiceAccount(name);
    return this.#present(entry, stored);
  }

  update(entry: CatalogEntry, namespace: string, name: string, body: KubeObject, options: WriteOptions = {}): KubeObject {
    const object = this.accept(entry, namespace, body);
    const metadata = object.metadata as Metadata;
    if ((metadata.name ?? '') !== name)
      throw new ApiError(badRequest(`the name of the object (${metadata.name ?? ''}) does not match the name on the URL (${name})`));
    const key = this.#key(entry, metadata.namespace ?? '', name);
    const existing = this.#bucket(entry).get(key);
    if (!existing) throw new ApiError(notFound(entry, name));
    const current = existing.metadata as Metadata;
    if (metadata.resourceVersion && metadata.resourceVersion !== current.resourceVersion) throw new ApiError(conflict(entry, name));
    // Identity and creation time are the server's; a client cannot change them.
    object.metadata = {
      ...metadata,
      uid: current.uid,
      creationTimestamp: current.creationTimestamp,
      resourceVersion: options.dryRun ? current.resourceVersion : String(this.#revision + 1),
    };
    if (isNamespaceEntry(entry)) this.#defaultNamespace(object, false);
    // etcd3's GuaranteedUpdate writes nothing when the bytes would not change: a no-op keeps its resourceVersion.
    const stored = atStorageVersion(this.catalog, entry, object);
    if (jsonEqual({ ...stored, metadata: { ...stored.metadata, resourceVersion: current.resourceVersion } }, existing)) return this.#present(entry, existing);
    if (!options.dryRun) this.#write(entry, key, stored);
    return this.#present(entry, stored);
  }

  /** Removes the object and answers with it as it was; a namespace takes its objects with it. */
  delete(entry: CatalogEntry, namespace: string, name: string, options: WriteOptions = {}): KubeObject {
    const key = this.#key(entry, namespace, name);
    const existing = this.#bucket(entry).get(key);
    if (!existing) throw new ApiError(notFound(entry, name));
    const answer = this.#present(entry, existing);
    if (isNamespaceEntry(entry)) {
      // No namespace controller runs, so finalization is instant; the answer still shows it starting, as kube's does.
      answer.metadata = { ...answer.metadata, deletionTimestamp: timestamp() };
      answer.status = { ...(isObject(answer.status) ? answer.status : {}), phase: 'Terminating' };
    }
    if (options.dryRun) return answer;
    if (isNamespaceEntry(entry)) {
      // The namespace controller deletes what the namespace holds, each object a write (and an event) of its own.
      for (const [storageKey, bucket] of this.#buckets) {
        if (storageKey === this.#namespaces.storageKey) continue;
        for (const objectKey of [...bucket.keys()]) if (objectKey.startsWith(`${name}/`)) this.#remove(storageKey, bucket, objectKey);
      }
    }
    this.#remove(entry.storageKey, this.#bucket(entry), key);
    return answer;
  }

  /**
   * Forgets the write history up to `resourceVersion` (the current one by default), as an apiserver restart
   * or an etcd compaction the watch cache no longer covers does: a watch from an older version then gets
   * `410 Expired` (`too old resource version: X (Y)`), an exact list `The resourceVersion for the provided list is too old.`
   */
  compact(resourceVersion: string | number = this.#revision): void {
    const revision = Number(resourceVersion);
    if (!Number.isSafeInteger(revision) || revision < 0 || revision > this.#revision) {
      throw new HarnessError(
        'USAGE',
        `compact: resourceVersion must be a whole number from 0 to the current ${this.#revision}, got ${String(resourceVersion)}`,
      );
    }
    this.events.compact(revision);
  }

  /**
   * The objects of `entry` in `namespace` ('' for all) as they were at `revision`, in key order, labelled with
   * `entry`'s version and uncopied: the current ones with every later write undone. Throws HistoryCompacted
   * when the writes to undo are forgotten.
   */
  viewAt(entry: CatalogEntry, namespace: string, revision: number): KubeObject[] {
    const objects = new Map(this.#bucket(entry));
    for (const event of this.events.newestAfter(revision)) {
      if (event.storageKey !== entry.storageKey) continue;
      if (event.type === 'ADDED') objects.delete(event.key);
      else objects.set(event.key, event.previous as KubeObject);
    }
    const prefix = entry.namespaced && namespace ? `${namespace}/` : '';
    return [...objects]
      .filter(([key]) => key.startsWith(prefix))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, object]) => this.#labelled(entry, object));
  }

  /**
   * Creates `object`, or replaces the stored one of the same name: for seeding a test's cluster. A
   * `status` given is kept as the cluster's controllers would have written it (a namespace being
   * terminated, a quota's usage), where an API create would reset it.
   */
  put(object: KubeObject): KubeObject {
    const entry = this.entryFor(object.apiVersion ?? '', object.kind ?? '');
    const namespace = entry.namespaced ? (object.metadata?.namespace ?? 'default') : '';
    const name = object.metadata?.name ?? '';
    const key = this.#key(entry, namespace, name);
    const exists = this.#bucket(entry).has(key);
    const { resourceVersion: _ignored, ...metadata } = object.metadata ?? {};
    const body = { ...object, metadata };
    const written = exists ? this.update(entry, namespace, name, body) : this.create(entry, namespace, body);
    if (object.status === undefined) return written;
    // The status given at the object's version, as storage holds it (an HPA's v1 status is v2's at storage).
    const status = atStorageVersion(this.catalog, entry, { ...object, apiVersion: joinApiVersion(entry) }).status;
    const withStatus = { ...cloneJson(this.#bucket(entry).get(key) as KubeObject), status: cloneJson(status) };
    this.#write(entry, key, withStatus);
    return this.#present(entry, withStatus);
  }

  /** The stored object, or undefined: for assertions. */
  read(apiVersion: string, kind: string, name: string, namespace = ''): KubeObject | undefined {
    const entry = this.entryFor(apiVersion, kind);
    const stored = this.#stored(entry, namespace, name);
    return stored && this.#present(entry, stored);
  }

  /**
   * The stored object itself, frozen, for the harness's own readers (the built-in plugins, policy
   * params, namespace lookups), which read on every admission and change nothing: no copy is made.
   */
  view(apiVersion: string, kind: string, name: string, namespace = ''): KubeObject | undefined {
    const entry = this.entryFor(apiVersion, kind);
    const stored = this.#stored(entry, namespace, name);
    return stored && this.#labelled(entry, stored);
  }

  /** `list` for the harness's own readers: the stored objects themselves, frozen. */
  listView(entry: CatalogEntry, namespace: string): KubeObject[] {
    return this.#storedIn(entry, namespace).map((object) => this.#labelled(entry, object));
  }

  #stored(entry: CatalogEntry, namespace: string, name: string): KubeObject | undefined {
    return this.#bucket(entry).get(this.#key(entry, entry.namespaced ? namespace : '', name));
  }

  // The stored objects of `entry` in `namespace` ('' for all), in etcd key order (namespace, then name).
  #storedIn(entry: CatalogEntry, namespace: string): KubeObject[] {
    const prefix = entry.namespaced && namespace ? `${namespace}/` : '';
    return [...this.#bucket(entry)]
      .filter(([key]) => key.startsWith(prefix))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, object]) => object);
  }

  // A stored object as the version asked for: itself when it is stored in that version.
  #labelled(entry: CatalogEntry, object: KubeObject): KubeObject {
    const apiVersion = joinApiVersion(entry);
    if (object.apiVersion === apiVersion && object.kind === entry.kind) return object;
    return Object.freeze({ ...atVersionOf(entry, object), apiVersion, kind: entry.kind });
  }

  #bucket(entry: CatalogEntry): Map<string, KubeObject> {
    let bucket = this.#buckets.get(entry.storageKey);
    if (!bucket) this.#buckets.set(entry.storageKey, (bucket = new Map()));
    return bucket;
  }

  #key(entry: CatalogEntry, namespace: string, name: string): string {
    return `${entry.namespaced ? namespace : ''}/${name}`;
  }

  /** Stores `object`, the private copy accept made: nothing else holds it. */
  #write(entry: CatalogEntry, key: string, object: KubeObject): void {
    const bucket = this.#bucket(entry);
    const previous = bucket.get(key);
    this.#revision++;
    // The revision the write takes is the object's version, whatever the caller put there (a status put keeps the last).
    (object.metadata as Metadata).resourceVersion = String(this.#revision);
    // Frozen once stored: `view` hands it out uncopied, and a change in place would bypass the store.
    deepFreeze(object);
    bucket.set(key, object);
    this.#record(previous ? 'MODIFIED' : 'ADDED', entry.storageKey, key, object, previous);
  }

  /** Deletes the object at `key`: a write of its own, whose event carries the last state at the new revision. */
  #remove(storageKey: string, bucket: Map<string, KubeObject>, key: string): void {
    const previous = bucket.get(key) as KubeObject;
    bucket.delete(key);
    this.#revision++;
    const last: KubeObject = { ...previous, metadata: { ...previous.metadata, resourceVersion: String(this.#revision) } };
    deepFreeze(last);
    this.#record('DELETED', storageKey, key, last, previous);
  }

  #record(type: ChangeType, storageKey: string, key: string, object: KubeObject, previous: KubeObject | undefined): void {
    this.events.append({ type, revision: this.#revision, storageKey, key, object, previous });
  }

  /** A copy labelled with the version it was asked for (converted to it first when its kind converts). */
  #present(entry: CatalogEntry, object: KubeObject): KubeObject {
    const { apiVersion: _apiVersion, kind: _kind, ...rest } = cloneJson(atVersionOf(entry, object));
    return { kind: entry.kind, apiVersion: joinApiVersion(entry), ...rest };
  }

  /**
   * The checks every write body goes through before its own: type, version and namespace (rest.BeforeCreate).
   * Answers a copy with the entry's apiVersion and kind and the request's namespace filled in.
   */
  accept(entry: CatalogEntry, namespace: string, body: KubeObject): KubeObject {
    const expected = joinApiVersion(entry);
    if (body.apiVersion && body.apiVersion !== expected) {
      throw new ApiError(badRequest(`the API version in the data (${body.apiVersion}) does not match the expected API version (${expected})`));
    }
    const object: KubeObject = { ...cloneJson(body), apiVersion: expected, kind: entry.kind };
    const metadata: Metadata = isObject(object.metadata) ? { ...object.metadata } : {};
    const requestNamespace = entry.namespaced ? namespace : '';
    if (!metadata.namespace || !requestNamespace) {
      if (requestNamespace) metadata.namespace = requestNamespace;
      else delete metadata.namespace;
    } else if (metadata.namespace !== requestNamespace) {
      throw new ApiError(badRequest('the namespace of the provided object does not match the namespace sent on the request'));
    }
    object.metadata = metadata;
    return object;
  }

  /**
   * The ServiceAccount controller's work, done at once as the namespace controller's is: every new
   * namespace gets its `default` account, which pods name unless they name another. Its uid derives
   * from the namespace, so adding it draws nothing from the store's random source.
   */
  #defaultServiceAccount(namespace: string): void {
    const entry = this.catalog.resourceByName('', 'v1', 'serviceaccounts');
    if (!entry) return;
    const key = this.#key(entry, namespace, 'default');
    if (this.#bucket(entry).has(key)) return;
    const uid = new SeededRandom(hashSeed(`serviceaccount ${namespace}/default`)).uuid();
    const metadata = { name: 'default', namespace, uid, resourceVersion: String(this.#revision + 1), creationTimestamp: timestamp() };
    this.#write(entry, key, { apiVersion: 'v1', kind: 'ServiceAccount', metadata });
  }

  /** The namespace strategy: the immutable name label, the `kubernetes` finalizer, phase Active. */
  #defaultNamespace(object: KubeObject, creating: boolean): void {
    const metadata = object.metadata as Metadata;
    metadata.labels = namespaceLabels(metadata.name ?? '', metadata.labels);
    const spec = isObject(object.spec) ? object.spec : {};
    object.spec = creating && !Array.isArray(spec.finalizers) ? { ...spec, finalizers: ['kubernetes'] } : spec;
    object.status = { ...(isObject(object.status) ? object.status : {}), phase: 'Active' };
  }
}
