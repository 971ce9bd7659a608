import { HarnessError } from '../../errors';
import type { KubeObject } from '../../kube/admission';
import type { CatalogEntry } from '../../kube/catalog';
import { objectAt, stringAt } from '../objects/json';
import type { Review } from '../review';
import type { RequestOptions } from './options';
import { request } from './request';
import { catalogOf, entryFor, placement, requireOperation } from './target';
import { canonical } from '../../registry/encode';
import { podGracePeriod } from '../../registry/strategy/pod';
import { withCreator } from './write';
import { asStored } from '../../registry/stored';

export interface DeleteOptions extends RequestOptions {
  /** One request of a deletecollection: the same, with an empty name and no kubectl options (k8s.io/apiserver/pkg/endpoints/handlers/delete.go `DeleteCollection`). */
  collection?: boolean;
  /** `kubectl delete` (propagationPolicy Background, the default) or a raw DELETE with no options. */
  via?: 'kubectl' | 'api';
  /** `--cascade=foreground|orphan` sends Foreground or Orphan. */
  propagationPolicy?: 'Background' | 'Foreground' | 'Orphan';
  /** `--grace-period`. */
  gracePeriodSeconds?: number;
}

function deleteFields(entry: CatalogEntry, stored: KubeObject, options: DeleteOptions): Record<string, unknown> {
  const via = options.via ?? (options.collection ? 'api' : 'kubectl');
  const isPod = entry.group === '' && entry.resource === 'pods';
  // A deletecollection builds its options once, before any item's strategy sees them.
  const grace = isPod && !options.collection ? podGracePeriod(stored, options.gracePeriodSeconds) : options.gracePeriodSeconds;
  const uid = stringAt(objectAt(stored, 'metadata'), 'uid');
  // The namespace registry adds a uid precondition, so a namespace recreated meanwhile is not deleted.
  const preconditions = entry.group === '' && entry.resource === 'namespaces' && !options.collection && uid ? { preconditions: { uid } } : {};
  const propagationPolicy = options.propagationPolicy ?? (via === 'kubectl' ? 'Background' : undefined);
  return {
    ...(grace === undefined ? {} : { gracePeriodSeconds: grace }),
    ...preconditions,
    ...(propagationPolicy ? { propagationPolicy } : {}),
  };
}

/**
 * A DELETE of `object`: no object, the stored object as oldObject, DeleteOptions as `kubectl delete`
 * sends them (after the registry's changes: a pod's grace period, a namespace's uid precondition).
 * An unscheduled pod's delete is admitted twice, the second time with deletionTimestamp set; this is the first.
 */
export function remove(object: KubeObject, options: DeleteOptions = {}): Review {
  const entry = entryFor(object, catalogOf(options));
  requireOperation(entry, 'DELETE');
  const placed = placement(object, entry, options);
  const stored = canonical(withCreator(asStored(placed.object), options));
  return request(
    {
      entry,
      operation: 'DELETE',
      name: options.collection ? '' : (stored.metadata?.name ?? ''),
      namespace: placed.namespace,
      object: null,
      oldObject: stored,
      fields: deleteFields(entry, stored, options),
    },
    options,
  );
}

/** A deletecollection (`DELETE …/<resource>?labelSelector=…`): one DELETE per item, each with an empty name. */
export function deleteCollection(items: readonly KubeObject[], options: Omit<DeleteOptions, 'collection'> = {}): Review[] {
  for (const item of items) {
    const entry = entryFor(item, catalogOf(options));
    if (entry.group === '' && entry.resource === 'namespaces') {
      throw new HarnessError(
        'REVIEW_INVALID',
        'namespaces cannot be deleted as a collection: kube-apiserver answers 405 MethodNotAllowed and admits nothing',
        'delete each namespace with review.delete(namespace)',
      );
    }
  }
  return items.map((item) => remove(item, { ...options, collection: true }));
}
