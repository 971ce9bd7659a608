import type { GroupVersionKind, KubeObject } from '../kube/admission';
import type { ResourceCatalog } from '../kube/catalog';
import { jsonEqual, type JsonObject } from '../kube/json';
import type { JsonRecord } from '../kube/record';
import { internalError, invalid, type ApiStatus, type FieldError } from '../kube/status';
import type { AdmissionAttributes } from '../kube/attributes';
import { addedPaths } from './changes';
import { apiDefaults } from './defaults';
import { semanticEqual } from './equality';
import { engines, loadEngines } from './load-engines';
import { asStored, withIdentity } from './stored';

/** kube-apiserver flags that change what the registry accepts. */
export interface RegistryOptions {
  /** `--allow-privileged`: false (kube-apiserver's default) refuses privileged containers in pod validation. */
  allowPrivileged?: boolean;
}

/** What kube-apiserver made of a webhook's patched object (callAttrMutatingHook after the JSON patch applied). */
export type PatchedObject =
  | {
      ok: true;
      /** Decoded into the kind (unknown fields dropped) and defaulted: what the next webhook and storage see. */
      object: KubeObject;
      /** The same before defaulting: what the comparison with the object before looks at. */
      decoded: KubeObject;
      /** `!Semantic.DeepEqual(before, decoded)`: the verdict the mutation annotation and reinvocation follow. */
      changed: boolean;
      /** `changed` only because the object before held the request's sub-second managedFields time (no semantic change). */
      onlyFreshTimes: boolean;
      /** Fields the kind does not have, dropped by the decode (`spec.bogusField`). */
      dropped: string[];
      /** Fields the defaulters filled in after the decode (`spec.containers[1].imagePullPolicy`). */
      defaulted: string[];
    }
  /** The patched JSON does not decode into the kind: 500, whatever the failurePolicy. */
  | { ok: false; status: ApiStatus };

/**
 * The registry stage: what kube-apiserver does to an object of a kind, for one cluster (its catalog's
 * custom resources and its server flags). It knows nothing of webhooks; the dispatcher asks it after
 * each patch and between the admission phases.
 */
export class Registry {
  constructor(
    readonly catalog: ResourceCatalog,
    readonly options: RegistryOptions = {},
  ) {}

  /**
   * Compiles the CEL validation rules of every custom resource version the catalog serves (the CEL
   * library loads on the first one): call once before validating. Answers the errors kube-apiserver
   * would refuse those CustomResourceDefinitions with, by version (with the storage the CRD's versions share).
   */
  async prepare(): Promise<{ resource: string; storageKey: string; errors: FieldError[] }[]> {
    const refused: { resource: string; storageKey: string; errors: FieldError[] }[] = [];
    for (const entry of this.catalog.resources()) {
      if (entry.schema === undefined) continue;
      const { prepareCustomResourceValidation, structuralSchema } = await loadEngines();
      const errors = await prepareCustomResourceValidation(structuralSchema(entry.schema));
      if (errors.length > 0) refused.push({ resource: `${entry.resource}.${entry.group}/${entry.version}`, storageKey: entry.storageKey, errors });
    }
    return refused;
  }

  /**
   * Loads what decoding and validation need (a chunk of its own, loaded once per process): await it
   * before the first admission or patched call. Defaults of built-in kinds need nothing loaded.
   */
  async ready(): Promise<void> {
    await loadEngines();
  }

  /** A custom resource version's openAPIV3Schema, or undefined for a built-in kind. */
  schemaOf(kind: GroupVersionKind): unknown {
    return this.catalog.resourceForKind(kind)?.schema;
  }

  /**
   * callAttrMutatingHook's steps after the JSON patch: the patched JSON decoded into `kind` (a type
   * error ends the request with a 500; fields the kind lacks are dropped), compared semantically
   * with the object before, then defaulted. `freshTimes`: the object before still holds the
   * request's managedFields time with its sub-second precision, which the round trip truncates — the
   * first patch of a request therefore always reports a change (fixtures/apiserver-outcomes/README.md).
   */
  decodePatched(kind: GroupVersionKind, before: KubeObject, patched: KubeObject, freshTimes: boolean): PatchedObject {
    const schema = this.schemaOf(kind);
    const decoded = engines().decodeObject(kind, patched as JsonRecord, schema);
    if (!decoded.ok) return { ok: false, status: internalError(decoded.message) };
    const equal = semanticEqual(kind, before as JsonRecord, decoded.object, schema);
    const defaulted = this.#defaults(decoded.object, schema);
    return {
      ok: true,
      object: defaulted as KubeObject,
      decoded: decoded.object as KubeObject,
      changed: freshTimes || !equal,
      onlyFreshTimes: freshTimes && equal,
      dropped: decoded.dropped,
      defaulted: addedPaths(decoded.object, defaulted),
    };
  }

  /**
   * The request as admission gets it from the API's handlers: the request body decoded into its kind
   * and defaulted, the stored object defaulted as it is on every read, and an update's object carrying
   * the stored object's identity where it names none (a patch is applied to the stored object). A raw
   * AdmissionRequest written by hand may leave out what the API always has: an oldObject without a
   * uid is taken as stored (uid, resourceVersion, creationTimestamp derived from its content, as the
   * builders' stored objects are). Objects the builders made come back unchanged.
   */
  requestView(attributes: AdmissionAttributes): AdmissionAttributes {
    const { object, oldObject, kind } = attributes;
    if (attributes.operation === 'CONNECT') return attributes;
    const decodedOld = oldObject && this.#storedOnce(kind, oldObject);
    let decoded = object && this.#defaultedOnce(kind, object);
    if (decoded && decodedOld && attributes.operation === 'UPDATE' && attributes.subResource === '') decoded = withIdentity(decodedOld, decoded);
    return decoded === object && decodedOld === oldObject ? attributes : { ...attributes, object: decoded, oldObject: decodedOld };
  }

  // Reviews and their objects are immutable, so each object is defaulted once; an object the
  // defaulters leave as it is comes back itself (its cached JSON stays valid).
  readonly #defaulted = new WeakMap<KubeObject, KubeObject>();
  #defaultedOnce(kind: GroupVersionKind, object: KubeObject): KubeObject {
    let result = this.#defaulted.get(object);
    if (!result) {
      const defaulted = this.#decodedBody(kind, object);
      result = jsonEqual(defaulted, object) ? object : defaulted;
      this.#defaulted.set(object, result);
    }
    return result;
  }

  // A request body (or a stored object read back) as the API decodes it: defaulted; a custom resource
  // pruned to its schema first (apiextensions-apiserver's schemaCoercingDecoder).
  #decodedBody(kind: GroupVersionKind, object: KubeObject): KubeObject {
    const schema = this.schemaOf(kind);
    if (schema === undefined) return this.default(kind, object);
    return this.default(kind, this.storedForm(kind, object));
  }

  /**
   * The object as storage keeps it and every read gives it back: a custom resource pruned to its
   * schema (fields a mutating webhook added that the schema lacks are gone from then on); a
   * built-in object as it is (its decode already dropped what its type lacks).
   */
  storedForm(kind: GroupVersionKind, object: KubeObject): KubeObject {
    return this.pruned(kind, object).object;
  }

  /** `storedForm`, and the paths of the fields pruning dropped (sorted), which field validation reports. */
  pruned(kind: GroupVersionKind, object: KubeObject): { object: KubeObject; pruned: string[] } {
    const schema = this.schemaOf(kind);
    if (schema === undefined) return { object, pruned: [] };
    const { pruneCustomResource, structuralSchema } = engines();
    const { object: pruned, pruned: dropped } = pruneCustomResource(structuralSchema(schema), object as JsonObject);
    return dropped.length === 0 ? { object, pruned: [] } : { object: pruned as KubeObject, pruned: dropped };
  }

  readonly #stored = new WeakMap<KubeObject, KubeObject>();
  #storedOnce(kind: GroupVersionKind, object: KubeObject): KubeObject {
    let result = this.#stored.get(object);
    if (!result) {
      result = asStored(this.#defaultedOnce(kind, object));
      this.#stored.set(object, result);
    }
    return result;
  }

  /** The kind's defaults applied to a decoded object (the scheme's defaulters, or a CRD's schema defaults). */
  default(kind: GroupVersionKind, object: KubeObject): KubeObject {
    return this.#defaults(object as JsonRecord, this.schemaOf(kind)) as KubeObject;
  }

  /**
   * The kind's ObjectDefaulter, as callAttrMutatingHook runs it after every patch: the scheme's
   * defaulters for built-in kinds; a CRD's structural schema defaults for custom resources (no pruning
   * there: the API prunes a custom resource only when decoding a request body or reading it back).
   */
  #defaults(object: JsonRecord, schema: unknown): JsonRecord {
    if (schema === undefined) return apiDefaults(object);
    const { defaultCustomResource, structuralSchema } = engines();
    return defaultCustomResource(structuralSchema(schema), object as JsonObject) as JsonRecord;
  }

  /** Semantic equality of two objects of `kind`, as apimachinery's Semantic.DeepEqual judges their typed forms. */
  equal(kind: GroupVersionKind, a: KubeObject, b: KubeObject): boolean {
    return semanticEqual(kind, a as JsonRecord, b as JsonRecord, this.schemaOf(kind));
  }

  /**
   * The strategy's Validate / ValidateUpdate on the object about to be stored (already through
   * BeforeCreate/BeforeUpdate): the 422 a client gets, or undefined when the object is valid.
   * Subresource writes, deletes and connects are not validated here.
   */
  validate(attributes: AdmissionAttributes): ApiStatus | undefined {
    const { operation, subResource, object, oldObject, kind } = attributes;
    if (subResource !== '' || !object || (operation !== 'CREATE' && operation !== 'UPDATE')) return undefined;
    const entry = this.catalog.resourceForKind(kind);
    const errors = engines().validateObject(
      {
        group: kind.group,
        version: kind.version,
        kind: kind.kind,
        namespaced: entry?.namespaced ?? attributes.namespace !== '',
        statusSubresource: entry?.subresources.some((sub) => sub.name === 'status') ?? false,
      },
      object as JsonRecord,
      operation === 'UPDATE' ? (oldObject as JsonRecord | null) : null,
      entry?.schema,
      { allowPrivileged: this.options.allowPrivileged ?? false },
    );
    if (errors.length === 0) return undefined;
    return invalid({ group: kind.group, kind: kind.kind }, object.metadata?.name ?? '', errors);
  }
}
