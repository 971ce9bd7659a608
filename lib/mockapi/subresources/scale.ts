/**
 * The scale subresource of the built-in workloads (kubernetes `pkg/registry/apps/deployment/storage`
 * ScaleREST and its siblings): an autoscaling/v1 Scale in and out; a write validates the Scale
 * (`pkg/apis/autoscaling/validation` ValidateScale), then updates the parent's spec.replicas through its
 * own registry stage (its generation rises, its validation runs) with the Scale's resourceVersion as the
 * precondition.
 */
import type { KubeObject } from '../../kube/admission';
import type { CatalogEntry } from '../../kube/catalog';
import { isObject } from '../../kube/json';
import { scaleOf } from '../../kube/scale';
import { ApiError, badRequest, invalid } from '../../kube/status';
import { engines } from '../../registry/load-engines';
import type { JsonRecord } from '../../kube/record';
import { updateObject, type WriteStage } from '../writes';

const SCALE = { group: 'autoscaling', version: 'v1', kind: 'Scale' };

export function readScale(stage: WriteStage, entry: CatalogEntry, namespace: string, name: string): KubeObject {
  return scaleOf(stage.store.get(entry, namespace, name));
}

/** The Scale body decoded as the handler decodes it into autoscaling/v1 Scale. */
export function decodeScale(body: KubeObject): KubeObject {
  const decoded = engines().decodeObject(SCALE, { ...body, apiVersion: 'autoscaling/v1', kind: 'Scale' } as JsonRecord, undefined);
  if (!decoded.ok) throw new ApiError(badRequest(`Scale in version "v1" cannot be handled as a Scale: ${decoded.message}`));
  return decoded.object as KubeObject;
}

export function writeScale(stage: WriteStage, entry: CatalogEntry, namespace: string, name: string, body: KubeObject, dryRun: boolean): KubeObject {
  const scale = decodeScale(body);
  const replicas = isObject(scale.spec) && typeof scale.spec.replicas === 'number' ? scale.spec.replicas : 0;
  if (replicas < 0) {
    const error = { type: 'FieldValueInvalid' as const, field: 'spec.replicas', body: `Invalid value: ${replicas}: must be greater than or equal to 0` };
    throw new ApiError(invalid({ group: SCALE.group, kind: SCALE.kind }, name, [error]));
  }
  const parent = stage.store.get(entry, namespace, name);
  const resourceVersion = scale.metadata?.resourceVersion;
  const next: KubeObject = {
    ...parent,
    metadata: { ...parent.metadata, ...(resourceVersion ? { resourceVersion } : {}) },
    spec: { ...(isObject(parent.spec) ? parent.spec : {}), replicas },
  };
  return scaleOf(updateObject(stage, entry, namespace, name, next, dryRun, 'scale'));
}
