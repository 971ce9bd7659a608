import { HarnessError } from '../errors';
import type { KubeObject, UserInfo } from '../kube/admission';
import { gvkOf, gvrOf, resourceForKind } from '../kube/catalog';
import { splitApiVersion } from '../kube/api-version';
import { DEFAULT_USER } from './attributes';
import { Review } from './review';

export interface CreateOptions {
  /** Who makes the request; kubeadm's admin by default. */
  userInfo?: UserInfo;
  dryRun?: boolean;
  /** The namespace of the request when the object does not name one; `default` otherwise. */
  namespace?: string;
  /** Fields of the CreateOptions object; kubectl create's by default. */
  options?: Record<string, unknown>;
}

/** A CREATE of `object`, as `kubectl create -f` sends it. */
function create(object: KubeObject, options: CreateOptions = {}): Review {
  const info = lookup(object);
  const copy = structuredClone(object);
  copy.metadata ??= {};
  const namespace = info.namespaced ? (copy.metadata.namespace ?? options.namespace ?? 'default') : '';
  if (info.namespaced) copy.metadata.namespace = namespace;
  // A namespace's own requests carry its name as their namespace (KUBE-FACTS §2.2).
  const requestNamespace = info.kind === 'Namespace' && info.group === '' ? (copy.metadata.name ?? '') : namespace;
  return new Review({
    operation: 'CREATE',
    kind: gvkOf(info),
    resource: gvrOf(info),
    subResource: '',
    name: copy.metadata.name ?? '',
    namespace: requestNamespace,
    userInfo: options.userInfo ?? DEFAULT_USER,
    object: copy,
    oldObject: null,
    dryRun: options.dryRun ?? false,
    options: {
      kind: 'CreateOptions',
      apiVersion: 'meta.k8s.io/v1',
      ...(options.options ?? { fieldManager: 'kubectl-create', fieldValidation: 'Strict' }),
    },
  });
}

function lookup(object: KubeObject) {
  if (!object || typeof object !== 'object' || typeof object.apiVersion !== 'string' || typeof object.kind !== 'string') {
    throw new HarnessError('REVIEW_INVALID', 'the object has no apiVersion and kind', 'build objects with `objects.*()` or give apiVersion and kind');
  }
  const [group, version] = splitApiVersion(object.apiVersion);
  const info = resourceForKind({ group, version, kind: object.kind });
  if (!info) {
    throw new HarnessError('REVIEW_INVALID', `no resource serves ${object.apiVersion} ${object.kind}`, 'register custom resources from their CustomResourceDefinition manifest');
  }
  return info;
}

/** Builders for the requests kube-apiserver admits. */
export const review = { create };
