import type { GroupVersionKind, KubeObject, Operation } from '../../kube/admission';
import { gvkOf, gvrOf, type CatalogEntry } from '../../kube/catalog';
import { DEFAULT_USER } from '../../kube/attributes';
import { Review } from '../review';
import { optionsObject, type OptionsKind, type RequestOptions } from './options';
import { cloneJson } from '../../kube/json';

const OPTIONS_KIND: Record<Exclude<Operation, 'CONNECT'>, OptionsKind> = { CREATE: 'CreateOptions', UPDATE: 'UpdateOptions', DELETE: 'DeleteOptions' };

interface RequestParts {
  entry: CatalogEntry;
  operation: Exclude<Operation, 'CONNECT'>;
  subResource?: string;
  /** What the request carries in `kind`: the subresource's kind (Scale, Eviction…) or the resource's. */
  kind?: GroupVersionKind;
  name: string;
  namespace: string;
  object: KubeObject | null;
  oldObject: KubeObject | null;
  /** The options members the client sends (replaced by RequestOptions.options when given). */
  fields: Record<string, unknown>;
}

/** A CREATE, UPDATE or DELETE review from its parts and the caller's options. */
export function request(parts: RequestParts, options: RequestOptions): Review {
  const dryRun = options.dryRun ?? false;
  return new Review({
    operation: parts.operation,
    kind: parts.kind ?? gvkOf(parts.entry),
    resource: gvrOf(parts.entry),
    subResource: parts.subResource ?? '',
    name: parts.name,
    namespace: parts.namespace,
    userInfo: options.userInfo ? cloneJson(options.userInfo) : DEFAULT_USER,
    object: parts.object,
    oldObject: parts.oldObject,
    dryRun,
    options: optionsObject(OPTIONS_KIND[parts.operation], options.options ?? parts.fields, dryRun),
  });
}
