import type { KubeObject } from '../kube/admission';
import { objectAt, stringAt } from '../kube/record';
import { NOW, timestamp } from '../kube/time';
import type { AdmissionAttributes } from '../kube/attributes';
import { canonical } from './encode';
import { podGracePeriod } from './strategy/pod';

/** One run of admission inside the storage layer's delete, and what the storage layer was doing. */
export interface DeleteAttempt {
  attributes: AdmissionAttributes;
  /** What the storage layer was doing when it ran admission. */
  step: string;
}

/** metav1.ObjectMeta after rest.BeforeDelete marked a graceful delete: deletionTimestamp, grace period, generation. */
function markedForDeletion(stored: KubeObject, grace: number): KubeObject {
  const metadata = objectAt(stored, 'metadata');
  const generation = typeof metadata.generation === 'number' && metadata.generation > 0 ? { generation: metadata.generation + 1 } : {};
  const version = Number(stringAt(metadata, 'resourceVersion') ?? '0');
  return canonical({
    ...stored,
    metadata: {
      ...metadata,
      // The graceful-deletion update is one write.
      ...(Number.isFinite(version) && version > 0 ? { resourceVersion: String(version + 1) } : {}),
      ...generation,
      deletionTimestamp: timestamp(NOW + grace * 1000),
      deletionGracePeriodSeconds: grace,
    },
  } as KubeObject);
}

/**
 * The admission runs of one DELETE (k8s.io/apiserver/pkg/registry/generic/registry/store.go `Delete`): admission for a delete runs inside the storage
 * layer (AdmissionToValidateObjectDeleteFunc), once per storage attempt, mutating and validating
 * webhooks each time with a fresh uid. Most objects are deleted in one attempt. A pod with a grace
 * period of 0 (unscheduled, finished, or `gracePeriodSeconds: 0`) is deleted in two steps
 * (Store.Delete): the graceful-deletion update validates the pod as stored; the delete then validates
 * it again from the watch cache — still the stored pod when the cache has not seen the update yet, a
 * conflict that retries with the pod as the update left it (deletionTimestamp set, grace 0,
 * generation + 1). That race gives 2 or 3 admissions on a real apiserver
 * (fixtures/apiserver-captures/pods-delete.json: 2; fixtures/apiserver-outcomes/delete-with-options.json
 * and pods-deletecollection.json: 3); the harness always runs the 3, since a webhook must answer each
 * alike. A pod with a grace period (or finalizers) is only marked, in one admission; a dry run is
 * admitted once.
 */
export function deleteAttempts(attributes: AdmissionAttributes): DeleteAttempt[] {
  const stored = attributes.oldObject;
  const once = [{ attributes, step: 'delete' }];
  if (attributes.operation !== 'DELETE' || !stored || attributes.subResource !== '' || attributes.dryRun) return once;
  if (attributes.resource.group !== '' || attributes.resource.resource !== 'pods') return once;
  const finalizers = stored.metadata?.finalizers;
  if (Array.isArray(finalizers) && finalizers.length > 0) return once;
  const asked = attributes.options?.gracePeriodSeconds;
  if (podGracePeriod(stored, typeof asked === 'number' ? asked : undefined) > 0) return once;
  return [
    { attributes, step: 'graceful-deletion update of the pod as stored' },
    { attributes, step: 'delete, on the watch cache’s copy not yet updated' },
    { attributes: { ...attributes, oldObject: markedForDeletion(stored, 0) }, step: 'delete, retried on the pod marked for deletion' },
  ];
}
