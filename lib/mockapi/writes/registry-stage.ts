/**
 * The registry stage of the mock API's creates and updates, as kube-apiserver's generic registry runs it
 * (apiserver `pkg/registry/generic/registry/store.go` Create/Update, `pkg/registry/rest/create.go`
 * BeforeCreate, `update.go` BeforeUpdate): the body decoded into its kind and defaulted, the strategy's
 * PrepareForCreate/PrepareForUpdate, then its Validate/ValidateUpdate with kube's 422 texts. The decoding,
 * defaulting, strategy and validation are the registry's (lib/registry), the ones admission uses.
 */
import type { GroupVersionKind, KubeObject, UserInfo } from '../../kube/admission';
import type { AdmissionAttributes } from '../../kube/attributes';
import type { CatalogEntry } from '../../kube/catalog';
import { jsonEqual } from '../../kube/json';
import type { JsonRecord } from '../../kube/record';
import { ApiError, badRequest, conflict, invalid } from '../../kube/status';
import { preparedForValidation, type Registry, type StorageRandom } from '../../registry';
import { engines } from '../../registry/load-engines';
import { isBuiltin, timestamp, type ObjectStore } from '../store';
import { checkStrictDecoding, type FieldValidation } from './field-validation';

/** What the registry stage needs besides the request: the cluster's registry, the store and its random source. */
export interface WriteStage {
  registry: Registry;
  store: ObjectStore;
  random: StorageRandom;
  user: UserInfo;
  /** The field manager the write is recorded for in managedFields. */
  manager: string;
  /** What the request's unknown fields do (`?fieldValidation`); unset, they are dropped silently. */
  fieldValidation?: FieldValidation;
}

type Metadata = NonNullable<KubeObject['metadata']>;

// Kinds whose strategies start metadata.generation at 1 and raise it when the spec changes.
const GENERATION = new Set([
  'Pod',
  'Deployment',
  'ReplicaSet',
  'StatefulSet',
  'DaemonSet',
  'Job',
  'CronJob',
  'Ingress',
  'NetworkPolicy',
  'PodDisruptionBudget',
  'CustomResourceDefinition',
]);

export const kindOf = (entry: CatalogEntry): GroupVersionKind => ({ group: entry.group, version: entry.version, kind: entry.kind });
const hasStatus = (entry: CatalogEntry): boolean => entry.subresources.some((sub) => sub.name === 'status');
const tracksGeneration = (entry: CatalogEntry): boolean => GENERATION.has(entry.kind) || !isBuiltin(entry);

/**
 * The body decoded into its kind as the handler's serializer does (unknown fields dropped, a type error a
 * 400 with the decoder's text), a custom resource pruned to its schema, then the kind's defaults.
 */
export function decodeBody(registry: Registry, entry: CatalogEntry, body: KubeObject, validation?: FieldValidation): KubeObject {
  const kind = kindOf(entry);
  const decoded = engines().decodeObject(kind, body as JsonRecord, registry.schemaOf(kind));
  if (!decoded.ok) throw new ApiError(badRequest(`${entry.kind} in version "${entry.version}" cannot be handled as a ${entry.kind}: ${decoded.message}`));
  // A built-in kind's decode drops what its Go type lacks; a custom resource's pruning what its schema lacks.
  const { object, pruned } = registry.pruned(kind, decoded.object as KubeObject);
  checkStrictDecoding(validation, entry, { dropped: decoded.dropped, pruned, typed: isBuiltin(entry) });
  return registry.default(kind, object);
}

function attributesOf(
  stage: WriteStage,
  entry: CatalogEntry,
  operation: 'CREATE' | 'UPDATE',
  object: KubeObject,
  oldObject: KubeObject | null,
  dryRun: boolean,
): AdmissionAttributes {
  return {
    operation,
    kind: kindOf(entry),
    resource: { group: entry.group, version: entry.version, resource: entry.resource },
    subResource: '',
    name: object.metadata?.name ?? '',
    namespace: object.metadata?.namespace ?? '',
    userInfo: stage.user,
    object,
    oldObject,
    dryRun,
    options: null,
  };
}

/** The strategy's Validate / ValidateUpdate: throws kube's 422. */
function validate(stage: WriteStage, attributes: AdmissionAttributes): void {
  const refused = stage.registry.validate(attributes);
  if (refused) throw new ApiError(refused);
}

/**
 * A create's object as storage receives it: decoded, defaulted, with the uid and creationTimestamp
 * BeforeCreate assigns (whatever the client sent), a name for generateName (kube's 5-character suffix),
 * what the strategy's PrepareForCreate sets (generation 1, status reset, a pod's phase and QoS class, a
 * service's ClusterIP), and validated. A client's resourceVersion is kept for storage to refuse, as etcd3's does.
 */
export function prepareCreate(stage: WriteStage, entry: CatalogEntry, namespace: string, body: KubeObject, dryRun: boolean): KubeObject {
  const accepted = stage.store.accept(entry, namespace, body);
  const decoded = decodeBody(stage.registry, entry, accepted, stage.fieldValidation);
  const {
    uid: _uid,
    creationTimestamp: _created,
    generation,
    deletionTimestamp: _deleting,
    deletionGracePeriodSeconds: _grace,
    resourceVersion,
    ...metadata
  } = decoded.metadata ?? {};
  const fresh: Metadata = { ...metadata, creationTimestamp: timestamp(), ...(tracksGeneration(entry) || generation === undefined ? {} : { generation }) };
  let object: KubeObject = { ...decoded, metadata: fresh };
  // A status is the controllers' to write, through the status subresource: a create starts from none.
  if (hasStatus(entry)) {
    const { status: _status, ...rest } = object;
    object = isBuiltin(entry) ? { ...rest, status: {} } : rest;
  }
  const attributes = preparedForValidation(attributesOf(stage, entry, 'CREATE', object, null, dryRun), stage.random, { defaulted: true });
  validate(stage, attributes);
  const prepared = attributes.object as KubeObject;
  return resourceVersion === undefined ? prepared : { ...prepared, metadata: { ...prepared.metadata, resourceVersion } };
}

/** The members a write of the main resource may change beyond metadata and (with a status subresource) status. */
function specOf(entry: CatalogEntry, object: KubeObject): unknown {
  const { metadata: _metadata, status, apiVersion: _apiVersion, kind: _kind, ...rest } = object;
  return hasStatus(entry) ? rest : { ...rest, status };
}

/** The update handler's checkName: the body names the object on the URL (400). */
export function checkName(name: string, body: KubeObject): void {
  const bodyName = body.metadata?.name ?? '';
  if (bodyName !== name) throw new ApiError(badRequest(`the name of the object (${bodyName}) does not match the name on the URL (${name})`));
}

/**
 * The store's optimistic concurrency (registry/generic/registry/store.go Update): a body carrying a
 * resourceVersion other than the stored one is a 409, before the strategy sees it.
 */
export function checkPrecondition(entry: CatalogEntry, name: string, body: KubeObject, current: KubeObject): void {
  const sent = body.metadata?.resourceVersion;
  if (sent && sent !== current.metadata?.resourceVersion) throw new ApiError(conflict(entry, name));
  // Custom resources' strategy does not AllowUnconditionalUpdate: the version 0 a body without one parses to is refused.
  if (!sent && !isBuiltin(entry)) {
    const error = { type: 'FieldValueInvalid' as const, field: 'metadata.resourceVersion', body: 'Invalid value: 0x0: must be specified for an update' };
    throw new ApiError(invalid({ group: entry.group, kind: entry.kind }, name, [error]));
  }
}

/**
 * An update's object as storage receives it: decoded and defaulted, the stored object's identity where the
 * body has none (BeforeUpdate keeps uid, creationTimestamp and generation the server's), the status kept
 * when the kind has a status subresource, generation raised when the spec changed, and validated against
 * the stored object.
 */
export function prepareUpdate(stage: WriteStage, entry: CatalogEntry, namespace: string, name: string, body: KubeObject, dryRun: boolean): KubeObject {
  const accepted = stage.store.accept(entry, namespace, body);
  checkName(name, accepted);
  // Read back from storage, an object is decoded and defaulted as every read is.
  const current = decodeBody(stage.registry, entry, stage.store.get(entry, accepted.metadata?.namespace ?? '', name));
  checkPrecondition(entry, name, accepted, current);
  // An unconditional update is made against the stored version (store.go Update's doUnconditionalUpdate).
  const conditioned = accepted.metadata?.resourceVersion
    ? accepted
    : { ...accepted, metadata: { ...accepted.metadata, resourceVersion: current.metadata?.resourceVersion } };
  const decoded = decodeBody(stage.registry, entry, conditioned, stage.fieldValidation);
  const old = current.metadata ?? {};
  const changed = !jsonEqual(specOf(entry, decoded), specOf(entry, current));
  const generation = old.generation === undefined ? undefined : (old.generation as number) + (changed && tracksGeneration(entry) ? 1 : 0);
  const metadata: Metadata = {
    ...decoded.metadata,
    uid: old.uid,
    creationTimestamp: old.creationTimestamp,
    ...(decoded.metadata?.resourceVersion === undefined ? {} : { resourceVersion: decoded.metadata.resourceVersion }),
  };
  if (generation === undefined) delete metadata.generation;
  else metadata.generation = generation;
  let object: KubeObject = { ...decoded, metadata };
  if (hasStatus(entry)) object = { ...object, status: current.status };
  validate(stage, attributesOf(stage, entry, 'UPDATE', object, current, dryRun));
  return object;
}
