import { HarnessError } from '../../errors';
import type { KubeObject } from '../../kube/admission';
import type { Review } from '../review';
import type { JsonObject } from '../objects/json';
import { updateWriter, type RequestOptions, type UpdateVia, type Writer } from './options';
import { applyPatch, type PatchType } from './merge-patch';
import { request } from './request';
import { catalogOf, entryFor, placement, requireOperation, subresourceFor } from './target';
import { canonical } from '../../registry/encode';
import { stampUpdate, withCreator } from './write';
import { asStored, withIdentity } from '../../registry/stored';

export interface UpdateOptions extends RequestOptions {
  /** The client: `kubectl replace` (default), `kubectl patch --type=…`, `kubectl apply --server-side`, or a raw PUT. */
  via?: UpdateVia;
  /**
   * A subresource written with the object's own kind: `status`, `ephemeralcontainers`, `resize`,
   * `finalize`, `approval`. (Scale has its own kind: use `review.scale`.)
   */
  subResource?: string;
}

/** The parts of an UPDATE every builder shares: stored old object, identity carried over, managedFields recorded. */
export function updateAs(oldObject: KubeObject, newObject: KubeObject, options: RequestOptions, writer: Writer, subResource = '', fields?: JsonObject): Review {
  const catalog = catalogOf(options);
  const entry = entryFor(newObject, catalog);
  if (subResource) {
    const sub = subresourceFor(entry, subResource, 'UPDATE', catalog);
    if (sub.kind.kind !== entry.kind || sub.kind.group !== entry.group) {
      throw new HarnessError(
        'REVIEW_INVALID',
        `${entry.resource}/${subResource} carries ${sub.kind.group || 'core'}/${sub.kind.version} ${sub.kind.kind}, not ${entry.kind}`,
        `use review.${subResource}(…)`,
      );
    }
  } else {
    requireOperation(entry, 'UPDATE');
  }
  const placed = placement(newObject, entry, options);
  const stored = withCreator(asStored(placement(oldObject, entry, { ...options, namespace: placed.namespace }).object), options);
  const next = withIdentity(stored, placed.object);
  const scope = subResource === 'status' ? 'status' : 'object';
  return request(
    {
      entry,
      operation: 'UPDATE',
      subResource,
      name: next.metadata?.name ?? '',
      namespace: placed.namespace,
      object: stampUpdate(stored, next, writer, options, scope, subResource || undefined, fields),
      oldObject: canonical(stored),
      fields: writer.fields,
    },
    options,
  );
}

/**
 * An UPDATE from `oldObject` (stored: given a uid, resourceVersion and creationTimestamp if it has
 * none) to `newObject` (which keeps the stored identity, as a client that read it does). PUT and
 * every kind of PATCH arrive this way.
 */
export function update(oldObject: KubeObject, newObject: KubeObject, options: UpdateOptions = {}): Review {
  return updateAs(oldObject, newObject, options, updateWriter(options.via ?? 'replace', options), options.subResource);
}

export interface PatchOptions extends RequestOptions {
  /** The patch type, as in `kubectl patch --type`: strategic by default, like kubectl. */
  type?: PatchType;
  subResource?: string;
}

/** The UPDATE a `kubectl patch` of `stored` makes: the patched object, UpdateOptions with kubectl-patch. */
export function patch(stored: KubeObject, patchDocument: unknown, options: PatchOptions = {}): Review {
  const type = options.type ?? 'strategic';
  const old = asStored(stored);
  return updateAs(old, applyPatch(old, patchDocument, type), options, updateWriter(`${type}-patch`, options), options.subResource);
}
