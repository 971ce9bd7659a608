/**
 * The status subresource: the parent object itself on GET; a write keeps everything but metadata and
 * status as stored, as the kinds' status strategies do (kubernetes `pkg/registry/core/pod/strategy.go`
 * podStatusStrategy.PrepareForUpdate: `newPod.Spec = oldPod.Spec`), and leaves generation alone.
 */
import type { KubeObject } from '../../kube/admission';
import type { CatalogEntry } from '../../kube/catalog';
import { recordUpdate } from '../apply/managed-fields';
import { checkName, checkPrecondition, decodeBody, type WriteStage } from '../writes/registry-stage';

export function readStatus(stage: WriteStage, entry: CatalogEntry, namespace: string, name: string): KubeObject {
  return stage.store.get(entry, namespace, name);
}

export function writeStatus(stage: WriteStage, entry: CatalogEntry, namespace: string, name: string, body: KubeObject, dryRun: boolean): KubeObject {
  const accepted = stage.store.accept(entry, namespace, body);
  checkName(name, accepted);
  const current = decodeBody(stage.registry, entry, stage.store.get(entry, accepted.metadata?.namespace ?? '', name));
  checkPrecondition(entry, name, accepted, current);
  const decoded = decodeBody(stage.registry, entry, accepted);
  const old = current.metadata ?? {};
  const { metadata: _stored, status: _old, ...spec } = current;
  const metadata = {
    ...decoded.metadata,
    uid: old.uid,
    creationTimestamp: old.creationTimestamp,
    ...(old.generation === undefined ? {} : { generation: old.generation }),
  };
  if (old.generation === undefined) delete metadata.generation;
  const object: KubeObject = { ...spec, metadata, ...(decoded.status === undefined ? {} : { status: decoded.status }) };
  const recorded = recordUpdate(entry, current, object, { manager: stage.manager, subresource: 'status' });
  return stage.store.update(entry, namespace, name, recorded, { dryRun });
}
