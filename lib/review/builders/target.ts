import { HarnessError } from '../../errors';
import type { KubeObject, Operation } from '../../kube/admission';
import { splitApiVersion } from '../../kube/api-version';
import { defaultCatalog, gvrOf, type CatalogEntry, type ResourceCatalog, type SubresourceInfo } from '../../kube/catalog';
import { isNamespaceResource } from '../../kube/gvr';
import type { RequestOptions } from './options';
import { cloneJson } from '../../kube/json';

/** The catalog entry serving `object`'s apiVersion and kind. */
export function entryFor(object: KubeObject, catalog: ResourceCatalog): CatalogEntry {
  if (!object || typeof object !== 'object' || typeof object.apiVersion !== 'string' || typeof object.kind !== 'string') {
    throw new HarnessError('REVIEW_INVALID', 'the object has no apiVersion and kind', 'build objects with `objects.*()` or give apiVersion and kind');
  }
  const [group, version] = splitApiVersion(object.apiVersion);
  const entry = catalog.resourceForKind({ group, version, kind: object.kind });
  if (!entry) {
    throw new HarnessError(
      'REVIEW_INVALID',
      `no resource serves ${object.apiVersion} ${object.kind}`,
      'register custom resources with registerCustomResourceDefinition(crd) or through the manifests',
    );
  }
  return entry;
}

export function catalogOf(options: RequestOptions): ResourceCatalog {
  return options.catalog ?? defaultCatalog;
}

/** Refuses an operation the resource never admits (bindings are create-only, componentstatuses read-only). */
export function requireOperation(entry: CatalogEntry, operation: Operation): void {
  if (entry.operations.includes(operation)) return;
  const admitted = entry.operations.length > 0 ? `only ${entry.operations.join(', ')}` : 'no operation (it is read-only)';
  throw new HarnessError(
    'REVIEW_INVALID',
    `${entry.resource} admits ${admitted}, not ${operation}`,
    `build a ${entry.operations[0] ?? 'request for another resource'} instead`,
  );
}

function names(subresources: readonly SubresourceInfo[]): string {
  return subresources.map((s) => s.name).join(', ') || '(none)';
}

/** Every CONNECT subresource the catalog serves, for the hint of a CONNECT built on the wrong resource. */
function connectSubresources(catalog: ResourceCatalog): string {
  const seen = new Set<string>();
  for (const entry of catalog.resources()) for (const sub of entry.subresources) if (sub.connect) seen.add(`${entry.resource}/${sub.name}`);
  return [...seen].join(', ');
}

/**
 * The subresource `name` of `entry` when it admits `operation`; otherwise a HarnessError naming the
 * subresources that do (`pods/log` is never admitted: reads do not reach webhooks).
 */
export function subresourceFor(entry: CatalogEntry, name: string, operation: Operation, catalog: ResourceCatalog): SubresourceInfo {
  const sub = catalog.subresourceInfo(gvrOf(entry), name);
  const valid = entry.subresources.filter((s) => s.operations.includes(operation));
  const choices =
    valid.length > 0
      ? `${entry.resource} subresources admitted as ${operation}: ${names(valid)}`
      : `${entry.resource} has no subresource admitted as ${operation}`;
  if (!sub) {
    if (operation === 'CONNECT' && valid.length === 0) {
      throw new HarnessError(
        'REVIEW_INVALID',
        `${entry.resource} has no CONNECT subresource (${entry.resource}/${name})`,
        `CONNECT subresources: ${connectSubresources(catalog)}`,
      );
    }
    throw new HarnessError('REVIEW_INVALID', `${entry.resource} has no subresource ${JSON.stringify(name)}; it serves ${names(entry.subresources)}`, choices);
  }
  if (!sub.admitted) {
    throw new HarnessError('REVIEW_INVALID', `${entry.resource}/${name} never reaches admission webhooks: it is only read (GET)`, choices);
  }
  if (!sub.operations.includes(operation)) {
    throw new HarnessError('REVIEW_INVALID', `${entry.resource}/${name} is admitted as ${sub.operations.join(', ')}, not ${operation}`, choices);
  }
  return sub;
}

/** The request's namespace and a copy of the object placed in it: a namespace's requests carry its own name. */
export function placement(object: KubeObject, entry: CatalogEntry, options: RequestOptions): { namespace: string; object: KubeObject } {
  const copy = cloneJson(object);
  copy.metadata ??= {};
  if (isNamespaceResource(gvrOf(entry))) return { namespace: copy.metadata.name ?? '', object: copy };
  if (!entry.namespaced) return { namespace: '', object: copy };
  const namespace = copy.metadata.namespace ?? options.namespace ?? 'default';
  copy.metadata = { ...copy.metadata, namespace };
  return { namespace, object: copy };
}
