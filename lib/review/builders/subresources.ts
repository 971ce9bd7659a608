import type { KubeObject } from '../../kube/admission';
import type { CatalogEntry, SubresourceInfo } from '../../kube/catalog';
import { container, podSpec } from '../../registry/defaults/pod';
import { withSeed } from '../objects/faker';
import { isObject, listAt, objectAt, stringAt } from '../objects/json';
import { managedFieldsOf } from '../objects/managed-fields';
import { deepMerge } from '../objects/merge';
import { hashSeed } from '../../random';
import type { Review } from '../review';
import { users } from '../users';
import { kubectlWriter, updateWriter, type RequestOptions, type UpdateVia, type Writer } from './options';
import { request } from './request';
import { catalogOf, entryFor, placement, subresourceFor } from './target';
import { canonical } from '../../registry/encode';
import { stampCreate, stampUpdate, withCreator } from './write';
import { asStored } from '../../registry/stored';
import { joinApiVersion } from '../../kube/api-version';
import { scaleOf } from '../../kube/scale';

/** The stored parent of a subresource request, its catalog entry and the subresource (validated). */
function parentOf(object: KubeObject, subResource: string, operation: 'CREATE' | 'UPDATE', options: RequestOptions) {
  const catalog = catalogOf(options);
  const entry = entryFor(object, catalog);
  const sub = subresourceFor(entry, subResource, operation, catalog);
  const placed = placement(object, entry, options);
  return { entry, sub, namespace: placed.namespace, stored: canonical(withCreator(asStored(placed.object), options)) };
}

function nameOf(object: KubeObject): string {
  return object.metadata?.name ?? '';
}

/** A CREATE of a subresource (eviction, binding, token): the new object, no oldObject, CreateOptions. */
function createSubresource(
  entry: CatalogEntry,
  sub: SubresourceInfo,
  parent: KubeObject,
  namespace: string,
  object: KubeObject,
  writer: Writer,
  options: RequestOptions,
): Review {
  return request(
    {
      entry,
      operation: 'CREATE',
      subResource: sub.name,
      kind: kindOf(sub),
      name: nameOf(parent),
      namespace,
      object: stampCreate(object, writer, options, sub.name),
      oldObject: null,
      fields: writer.fields,
    },
    options,
  );
}

/** A copy of the kind a subresource's requests carry (the catalog's is frozen). */
function kindOf(sub: SubresourceInfo): { group: string; version: string; kind: string } {
  return { group: sub.kind.group, version: sub.kind.version, kind: sub.kind.kind };
}

export interface StatusOptions extends RequestOptions {
  /** `kubectl patch --subresource=status` (merge patch, default), `kubectl replace --subresource=status`, or a raw PUT. */
  via?: Extract<UpdateVia, 'merge-patch' | 'replace' | 'api'>;
}

/** An UPDATE of `object`'s status subresource: the object's kind, `status` deep-merged into the stored one. */
export function status(object: KubeObject, newStatus: Record<string, unknown>, options: StatusOptions = {}): Review {
  const { entry, sub, namespace, stored } = parentOf(object, 'status', 'UPDATE', options);
  const next = { ...stored, status: deepMerge(objectAt(stored, 'status'), newStatus) };
  const writer = updateWriter(options.via ?? 'merge-patch', options);
  return request(
    {
      entry,
      operation: 'UPDATE',
      subResource: sub.name,
      name: nameOf(stored),
      namespace,
      object: stampUpdate(stored, next, writer, options, 'status', 'status'),
      oldObject: stored,
      fields: writer.fields,
    },
    options,
  );
}

/** The autoscaling/v1 Scale the scale subresource serves for `parent`, `replicas` in its spec. */
function scaleFor(parent: KubeObject, replicas: number): KubeObject {
  const scale = scaleOf(parent);
  // The scale view of the parent's managers: whoever set spec.replicas owns the Scale's.
  const managed = managedFieldsOf(parent)
    .filter((e) => isObject(objectAt(e.fieldsV1, 'f:spec')['f:replicas']))
    .map((e) => ({ ...e, apiVersion: 'autoscaling/v1', fieldsV1: { 'f:spec': { 'f:replicas': {} } } }));
  return { ...scale, metadata: { ...scale.metadata, ...(managed.length > 0 ? { managedFields: managed } : {}) }, spec: { replicas } };
}

export interface ScaleOptions extends RequestOptions {
  /** `kubectl scale` (default), `kubectl patch --subresource=scale` (merge patch), or a raw PUT of a Scale. */
  via?: 'kubectl' | 'merge-patch' | 'api';
}

/** `kubectl scale --replicas=N`: an UPDATE of `<resource>/scale` carrying autoscaling/v1 Scale objects. */
export function scale(target: KubeObject, replicas: number, options: ScaleOptions = {}): Review {
  const { entry, sub, namespace, stored } = parentOf(target, 'scale', 'UPDATE', options);
  const spec = objectAt(stored, 'spec');
  const before = scaleFor(stored, typeof spec.replicas === 'number' ? spec.replicas : 1);
  const after = { ...before, spec: { replicas } };
  const via = options.via ?? 'kubectl';
  const writer = via === 'kubectl' ? kubectlWriter(options) : updateWriter(via, options);
  return request(
    {
      entry,
      operation: 'UPDATE',
      subResource: sub.name,
      kind: kindOf(sub),
      name: nameOf(stored),
      namespace,
      object: stampUpdate(before, after, writer, options, 'object', 'scale'),
      oldObject: canonical(before),
      fields: writer.fields,
    },
    options,
  );
}

/** An eviction (`kubectl drain`, or a POST to `pods/<name>/eviction`): CREATE of a policy/v1 Eviction. */
export function evict(pod: KubeObject, options: RequestOptions & { deleteOptions?: Record<string, unknown> } = {}): Review {
  const { deleteOptions, ...rest } = options;
  const { entry, sub, namespace, stored } = parentOf(pod, 'eviction', 'CREATE', rest);
  const eviction = {
    kind: sub.kind.kind,
    apiVersion: joinApiVersion(sub.kind),
    metadata: { name: nameOf(stored), namespace },
    ...(deleteOptions ? { deleteOptions } : {}),
  };
  return createSubresource(entry, sub, stored, namespace, eviction, kubectlWriter(rest), rest);
}

/** The scheduler binding `pod` to `node` (CREATE of `pods/binding`, a v1 Binding), as the scheduler by default. */
export function bind(pod: KubeObject, node: string, options: RequestOptions = {}): Review {
  const { entry, sub, namespace, stored } = parentOf(pod, 'binding', 'CREATE', options);
  const binding = {
    kind: sub.kind.kind,
    apiVersion: joinApiVersion(sub.kind),
    metadata: { name: nameOf(stored), namespace },
    target: { kind: 'Node', name: node, apiVersion: 'v1' },
  };
  const writer = kubectlWriter({ userAgent: 'kube-scheduler', ...options });
  return createSubresource(entry, sub, stored, namespace, binding, writer, { userInfo: users.scheduler(), ...options });
}

export interface TokenOptions extends RequestOptions {
  audiences?: string[];
  /** `--duration`; the API defaults it to one hour. */
  expirationSeconds?: number;
  /** The object the token is bound to (`--bound-object-kind/name/uid`). */
  boundObject?: { kind: string; apiVersion?: string; name: string; uid?: string };
}

/** `kubectl create token <sa>`: CREATE of `serviceaccounts/token`, an authentication.k8s.io/v1 TokenRequest with no name of its own. */
export function token(serviceAccount: KubeObject, options: TokenOptions = {}): Review {
  const { audiences, expirationSeconds, boundObject, ...rest } = options;
  const { entry, sub, namespace, stored } = parentOf(serviceAccount, 'token', 'CREATE', rest);
  const tokenRequest = {
    kind: sub.kind.kind,
    apiVersion: joinApiVersion(sub.kind),
    metadata: { namespace },
    spec: {
      audiences: audiences ?? null,
      expirationSeconds: expirationSeconds ?? 3600,
      boundObjectRef: boundObject
        ? { kind: boundObject.kind, apiVersion: boundObject.apiVersion ?? 'v1', name: boundObject.name, ...(boundObject.uid ? { uid: boundObject.uid } : {}) }
        : null,
    },
    status: { token: '', expirationTimestamp: null },
  };
  return createSubresource(entry, sub, stored, namespace, tokenRequest, kubectlWriter(rest), rest);
}

export interface DebugOptions extends RequestOptions {
  /** `--image`; busybox by default, as kubectl's docs use. */
  image?: string;
  /** `-c`; kubectl names it `debugger-xxxxx` otherwise. */
  container?: string;
  /** `--target`: share that container's process namespace. */
  target?: string;
  /** `-it`. */
  interactive?: boolean;
}

/** `kubectl debug <pod> --image=…`: an UPDATE of `pods/ephemeralcontainers` adding one ephemeral container. */
export function debug(pod: KubeObject, options: DebugOptions = {}): Review {
  const { image = 'busybox:1.36', container: name, target, interactive, ...rest } = options;
  const { entry, sub, namespace, stored } = parentOf(pod, 'ephemeralcontainers', 'UPDATE', rest);
  const spec = objectAt(stored, 'spec');
  const containerName = name ?? `debugger-${withSeed(hashSeed(JSON.stringify(objectAt(stored, 'metadata').uid)), (gen) => gen.suffix(5))}`;
  const added = container({
    name: containerName,
    image,
    ...(interactive ? { stdin: true, tty: true } : {}),
    ...(target ? { targetContainerName: target } : {}),
  });
  const next = { ...stored, spec: podSpec({ ...spec, ephemeralContainers: [...listAt(spec, 'ephemeralContainers'), added] }) };
  const writer = kubectlWriter(rest);
  return request(
    {
      entry,
      operation: 'UPDATE',
      subResource: sub.name,
      name: nameOf(stored),
      namespace,
      object: stampUpdate(stored, next, writer, rest, 'object', sub.name),
      oldObject: stored,
      fields: writer.fields,
    },
    rest,
  );
}

/** A PUT to `namespaces/<name>/finalize` with the finalizers left (none by default): how a stuck namespace is released. */
export function finalize(namespace: KubeObject, options: RequestOptions & { finalizers?: string[] } = {}): Review {
  const { finalizers = [], ...rest } = options;
  const { entry, sub, namespace: name, stored } = parentOf(namespace, 'finalize', 'UPDATE', rest);
  const spec = finalizers.length > 0 ? { finalizers } : {};
  const writer = updateWriter('api', rest);
  return request(
    {
      entry,
      operation: 'UPDATE',
      subResource: sub.name,
      name: nameOf(stored),
      namespace: name,
      object: stampUpdate(stored, { ...stored, spec }, writer, rest, 'object', sub.name),
      oldObject: stored,
      fields: writer.fields,
    },
    rest,
  );
}

/**
 * `kubectl patch pod --subresource=resize`: an UPDATE of `pods/resize` giving containers new
 * resources (in-place pod resize), keyed by container name.
 */
export function resize(pod: KubeObject, resources: Record<string, Record<string, unknown>>, options: RequestOptions = {}): Review {
  const { entry, sub, namespace, stored } = parentOf(pod, 'resize', 'UPDATE', options);
  const spec = objectAt(stored, 'spec');
  const containers = listAt(spec, 'containers').map((c) => {
    const wanted = resources[stringAt(c, 'name') ?? ''];
    return wanted ? { ...c, resources: wanted } : c;
  });
  const writer = updateWriter('merge-patch', options);
  const next = canonical({ ...stored, spec: { ...spec, containers } });
  return request(
    {
      entry,
      operation: 'UPDATE',
      subResource: sub.name,
      name: nameOf(stored),
      namespace,
      object: stampUpdate(stored, next, writer, options, 'object', sub.name),
      oldObject: stored,
      fields: writer.fields,
    },
    options,
  );
}
