import type { KubeObject } from '../../kube/admission';
import type { Review } from '../review';
import { createWriter, type CreateVia, type RequestOptions } from './options';
import { request } from './request';
import { catalogOf, entryFor, placement, requireOperation } from './target';
import { stampCreate } from './write';

export interface CreateOptions extends RequestOptions {
  /** The client: `kubectl create -f` (default), `kubectl apply --server-side` of a new object, or a raw POST. */
  via?: CreateVia;
}

/**
 * A CREATE of `object`, sent as given (build it with `objects.*` or `objects.fromYaml` for the API
 * defaults). With only `metadata.generateName`, the request has no name: webhooks see the name only
 * after the registry generated it, which is after mutating admission.
 */
export function create(object: KubeObject, options: CreateOptions = {}): Review {
  return createAs(object, options, options.via ?? 'kubectl');
}

/** The create of a server-side apply; `fields` are the fieldsV1 of the applied configuration. */
export function createAs(object: KubeObject, options: RequestOptions, via: CreateVia, fields?: Record<string, unknown>): Review {
  const entry = entryFor(object, catalogOf(options));
  requireOperation(entry, 'CREATE');
  const placed = placement(object, entry, options);
  const writer = createWriter(via, options);
  return request(
    {
      entry,
      operation: 'CREATE',
      name: placed.object.metadata?.name ?? '',
      namespace: placed.namespace,
      object: stampCreate(placed.object, writer, options, undefined, fields),
      oldObject: null,
      fields: writer.fields,
    },
    options,
  );
}
