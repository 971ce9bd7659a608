/**
 * The mock API's writes as kube-apiserver's generic registry makes them: each create, update and patch goes
 * through the registry stage (lib/mockapi/writes/registry-stage.ts) before the store takes it.
 */
import type { KubeObject, UserInfo } from '../../kube/admission';
import type { CatalogEntry } from '../../kube/catalog';
import { storageRandom, type Registry } from '../../registry';
import type { ObjectStore } from '../store';
import { recordUpdate } from '../apply/managed-fields';
import { prepareCreate, prepareUpdate, type WriteStage } from './registry-stage';

export type { WriteStage } from './registry-stage';

/** What a write records in managedFields: the object to store from the stored one (null for a create) and the prepared one. */
export type FieldRecorder = (before: KubeObject | null, after: KubeObject) => KubeObject;

const updateRecorder =
  (stage: WriteStage, entry: CatalogEntry, subresource: string): FieldRecorder =>
  (before, after) =>
    recordUpdate(entry, before, after, { manager: stage.manager, subresource });

/** The stage for one request's user. */
export function writeStage(registry: Registry, store: ObjectStore, user: UserInfo, manager = 'unknown'): WriteStage {
  return { registry, store, random: storageRandom(store.random), user, manager };
}

/** POST: the registry stage, then storage (name uniqueness, the namespace's existence, the revision). */
export function createObject(
  stage: WriteStage,
  entry: CatalogEntry,
  namespace: string,
  body: KubeObject,
  dryRun: boolean,
  record = updateRecorder(stage, entry, ''),
): KubeObject {
  const prepared = record(null, prepareCreate(stage, entry, namespace, body, dryRun));
  return stage.store.create(entry, namespace, prepared, { dryRun, prepared: true });
}

/**
 * PUT, and a patch once applied to the stored object: the registry stage, the writer's managedFields, then
 * storage. `subresource`: the scale subresource writes its parent through here.
 */
export function updateObject(
  stage: WriteStage,
  entry: CatalogEntry,
  namespace: string,
  name: string,
  body: KubeObject,
  dryRun: boolean,
  subresource = '',
  record = updateRecorder(stage, entry, subresource),
): KubeObject {
  const prepared = prepareUpdate(stage, entry, namespace, name, body, dryRun);
  const stored = stage.store.get(entry, prepared.metadata?.namespace ?? '', name);
  const recorded = record(stored, prepared);
  return stage.store.update(entry, namespace, name, recorded, { dryRun });
}
