/**
 * What admission is asked about a write of a subresource that speaks its own kind:
 * - `pods/binding` and `pods/eviction`: the create handler admits a CREATE of the Binding / policy/v1
 *   Eviction the client posted (k8s.io/apiserver/pkg/endpoints/handlers/create.go `createHandler`; the
 *   REST storage, kubernetes `pkg/registry/core/pod/storage` BindingREST.Create and eviction.go
 *   EvictionREST.Create, acts on the admitted object), named after the pod, with CreateOptions;
 * - `<workload>/scale`: the update and patch handlers admit an UPDATE of an autoscaling/v1 Scale, the
 *   current Scale as oldObject, with UpdateOptions (update.go `UpdateResource`, patch.go `patchResource`;
 *   `pkg/registry/apps/deployment/storage` scaleUpdatedObjectInfo hands admission the Scale and moves
 *   the admitted spec.replicas onto the parent).
 */
import type { KubeObject } from '../../kube/admission';
import type { AdmissionAttributes } from '../../kube/attributes';
import { isObject } from '../../kube/json';
import { ApiError } from '../../kube/status';
import type { RestCall } from '../rest';
import { decodeScale } from '../subresources/scale';
import { baseAttributes, dryRunAnswer, parsedObject, queryDryRun, readCurrent, requestOptions, type ServeCall, withNamespace } from './admission-attributes';

const POD_ACTIONS = new Set(['binding', 'eviction']);

/** Whether the call is a subresource write admitted here: a POST of a pod's binding or eviction, a PUT or PATCH of a built-in's scale. */
export function isAdmittedSubresourceWrite(call: RestCall): boolean {
  const { entry, subresource } = call.route;
  if (entry.group === '' && entry.resource === 'pods' && POD_ACTIONS.has(subresource)) return call.verb === 'create';
  // The mock API serves the scale of the built-in workloads only (custom resources' scale paths are their CRD's).
  const servesScale = subresource === 'scale' && entry.schema === undefined && entry.subresources.some((sub) => sub.name === 'scale');
  return servesScale && (call.verb === 'update' || call.verb === 'patch');
}

/** A PUT's Scale as the update handler decodes it (into autoscaling/v1 Scale), its namespace filled from the path. */
function requestScale(call: RestCall): KubeObject | undefined {
  const body = parsedObject(call.body);
  if (!body) return undefined;
  try {
    const scale = decodeScale(body);
    // Encoded back for the webhook, a Scale always has a status with its replicas (autoscaling/v1
    // ScaleStatus.Replicas is not omitempty): a client sends none, the webhook sees 0.
    const status = { replicas: 0, ...(isObject(scale.status) ? scale.status : {}) };
    return withNamespace({ ...scale, status }, call.route.namespace);
  } catch (error) {
    if (error instanceof ApiError) return undefined;
    throw error;
  }
}

/** The attributes of a binding, eviction or scale write; undefined when the write fails before admission (the downstream answers it). */
export async function subresourceWriteAttributes(call: RestCall, serve: ServeCall): Promise<AdmissionAttributes | undefined> {
  const base = baseAttributes(call);
  const dryRun = queryDryRun(call);
  if (call.verb === 'create') {
    const object = parsedObject(call.body);
    if (!object) return undefined;
    const options = requestOptions('CreateOptions', call, dryRun);
    return { ...base, operation: 'CREATE', object: withNamespace(object, call.route.namespace), oldObject: null, dryRun, options };
  }
  const oldObject = await readCurrent(call, serve);
  if (!oldObject) return undefined;
  // A patch is applied to the current Scale (patch.go's patcher reads it through the scale storage's Get).
  const object = call.verb === 'update' ? requestScale(call) : await dryRunAnswer(call, serve);
  if (!object) return undefined;
  return { ...base, operation: 'UPDATE', object, oldObject, dryRun, options: requestOptions('UpdateOptions', call, dryRun) };
}
