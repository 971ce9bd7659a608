import { HarnessError } from '../errors';
import type { KubeObject, UserInfo } from '../kube/admission';
import { splitApiVersion } from '../kube/api-version';
import { defaultCatalog, gvkOf, gvrOf, type CatalogEntry, type ResourceCatalog } from '../kube/catalog';
import { isNamespaceResource } from '../match/request';
import { DEFAULT_USER, type AdmissionAttributes } from './attributes';
import { Review } from './review';

/** What every builder accepts. */
export interface RequestOptions {
  /** Who makes the request; kubeadm's admin by default. */
  userInfo?: UserInfo;
  dryRun?: boolean;
  /** The request's namespace when the object does not name one; `default` otherwise. */
  namespace?: string;
  /** Fields of the operation's options object (replacing the defaults kubectl would send). */
  options?: Record<string, unknown>;
  /** Where kinds are looked up; the default catalog (built-ins plus registered CRDs) otherwise. */
  catalog?: ResourceCatalog;
}

function entryFor(object: KubeObject, catalog: ResourceCatalog): CatalogEntry {
  if (!object || typeof object !== 'object' || typeof object.apiVersion !== 'string' || typeof object.kind !== 'string') {
    throw new HarnessError('REVIEW_INVALID', 'the object has no apiVersion and kind', 'build objects with `objects.*()` or give apiVersion and kind');
  }
  const [group, version] = splitApiVersion(object.apiVersion);
  const entry = catalog.resourceForKind({ group, version, kind: object.kind });
  if (!entry) {
    throw new HarnessError('REVIEW_INVALID', `no resource serves ${object.apiVersion} ${object.kind}`, 'register custom resources with registerCustomResourceDefinition(crd) or through the manifests');
  }
  return entry;
}

function operationOptions(kind: string, defaults: Record<string, unknown>, options: RequestOptions): KubeObject {
  // kubectl puts dryRun right after the type fields (fixtures/apiserver-captures/*-dryrun.json).
  return { kind, apiVersion: 'meta.k8s.io/v1', ...(options.dryRun ? { dryRun: ['All'] } : {}), ...(options.options ?? defaults) };
}

/** The request's own namespace: a namespace's requests carry its name (KUBE-FACTS §2.2). */
function placement(object: KubeObject, entry: CatalogEntry, options: RequestOptions): { namespace: string; object: KubeObject } {
  const copy = structuredClone(object);
  copy.metadata ??= {};
  if (isNamespaceResource(gvrOf(entry))) return { namespace: copy.metadata.name ?? '', object: copy };
  if (!entry.namespaced) return { namespace: '', object: copy };
  const namespace = copy.metadata.namespace ?? options.namespace ?? 'default';
  copy.metadata.namespace = namespace;
  return { namespace, object: copy };
}

function attributes(entry: CatalogEntry, fields: Omit<AdmissionAttributes, 'kind' | 'resource' | 'userInfo' | 'dryRun' | 'subResource'> & { subResource?: string }, options: RequestOptions): Review {
  return new Review({
    kind: gvkOf(entry),
    resource: gvrOf(entry),
    subResource: '',
    userInfo: options.userInfo ?? DEFAULT_USER,
    dryRun: options.dryRun ?? false,
    ...fields,
  });
}

/** A CREATE of `object`, as `kubectl create -f` sends it. */
function create(object: KubeObject, options: RequestOptions = {}): Review {
  const entry = entryFor(object, options.catalog ?? defaultCatalog);
  const placed = placement(object, entry, options);
  return attributes(
    entry,
    {
      operation: 'CREATE',
      name: placed.object.metadata?.name ?? '',
      namespace: placed.namespace,
      object: placed.object,
      oldObject: null,
      options: operationOptions('CreateOptions', { fieldManager: 'kubectl-create', fieldValidation: 'Strict' }, options),
    },
    options,
  );
}

/** An UPDATE from `oldObject` to `newObject`, as `kubectl replace` sends it (PATCH arrives the same way). */
function update(oldObject: KubeObject, newObject: KubeObject, options: RequestOptions = {}): Review {
  const entry = entryFor(newObject, options.catalog ?? defaultCatalog);
  const placed = placement(newObject, entry, options);
  const old = placement(oldObject, entry, { ...options, namespace: placed.namespace }).object;
  return attributes(
    entry,
    {
      operation: 'UPDATE',
      name: placed.object.metadata?.name ?? '',
      namespace: placed.namespace,
      object: placed.object,
      oldObject: old,
      options: operationOptions('UpdateOptions', { fieldManager: 'kubectl-replace', fieldValidation: 'Strict' }, options),
    },
    options,
  );
}

export interface DeleteOptions extends RequestOptions {
  /** One request of a deletecollection: the same, with an empty name (KUBE-FACTS §2.3). */
  collection?: boolean;
}

/** A DELETE of `object`: no object, the stored one as oldObject, DeleteOptions as `kubectl delete` sends them. */
function remove(object: KubeObject, options: DeleteOptions = {}): Review {
  const entry = entryFor(object, options.catalog ?? defaultCatalog);
  const placed = placement(object, entry, options);
  return attributes(
    entry,
    {
      operation: 'DELETE',
      name: options.collection ? '' : (placed.object.metadata?.name ?? ''),
      namespace: placed.namespace,
      object: null,
      oldObject: placed.object,
      options: operationOptions('DeleteOptions', options.collection ? {} : { propagationPolicy: 'Background' }, options),
    },
    options,
  );
}

const CONNECT_OPTION_DEFAULTS: Record<string, Record<string, unknown>> = {
  exec: { stdout: true, stderr: true, command: ['sh'] },
  attach: { stdout: true, stderr: true },
  portforward: {},
  proxy: { path: '/' },
};

/**
 * A CONNECT to a subresource (`pods/exec`, `pods/attach`, `pods/portforward`, `*\/proxy`): the object is
 * the connect options (e.g. PodExecOptions), there is no oldObject, no options and never dryRun.
 */
function connect(object: KubeObject, subResource: string, fields: Record<string, unknown> = {}, options: Omit<RequestOptions, 'dryRun' | 'options'> = {}): Review {
  const catalog = options.catalog ?? defaultCatalog;
  const entry = entryFor(object, catalog);
  const sub = catalog.subresourceInfo(gvrOf(entry), subResource);
  if (!sub?.connect) {
    const known = entry.subresources.filter((s) => s.connect).map((s) => s.name);
    throw new HarnessError('REVIEW_INVALID', `${entry.resource}/${subResource} is not a CONNECT subresource`, known.length > 0 ? `${entry.resource} has ${known.join(', ')}` : `${entry.resource} has no CONNECT subresource`);
  }
  const placed = placement(object, entry, options);
  return new Review({
    operation: 'CONNECT',
    kind: { group: sub.kind.group, version: sub.kind.version, kind: sub.kind.kind },
    resource: gvrOf(entry),
    subResource,
    name: placed.object.metadata?.name ?? '',
    namespace: placed.namespace,
    userInfo: options.userInfo ?? DEFAULT_USER,
    object: { kind: sub.kind.kind, apiVersion: sub.kind.group ? `${sub.kind.group}/${sub.kind.version}` : sub.kind.version, ...(CONNECT_OPTION_DEFAULTS[subResource] ?? {}), ...fields },
    oldObject: null,
    dryRun: false,
    options: null,
  });
}

/** Builders for the requests kube-apiserver admits. */
export const review = { create, update, delete: remove, connect };
