// A small cluster for the plugins' unit tests: objects by apiVersion and kind, as PluginCluster lists them.
import type { GroupVersionResource, KubeObject, Operation } from '../../lib/kube/admission';
import { DEFAULT_USER, type AdmissionAttributes } from '../../lib/kube/attributes';
import type { JsonRecord } from '../../lib/kube/record';
import type { MutationRequest, PluginCluster } from '../../lib/plugins/plugin';

export function fakeCluster(...objects: KubeObject[]): PluginCluster & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    list(apiVersion, kind, namespace) {
      calls.push(`${apiVersion} ${kind} ${namespace}`);
      return objects.filter((o) => o.apiVersion === apiVersion && o.kind === kind && (namespace === '' || o.metadata?.namespace === namespace));
    },
    get(apiVersion, kind, namespace, name) {
      calls.push(`${apiVersion} ${kind} ${namespace} ${name}`);
      return objects.find((o) => o.apiVersion === apiVersion && o.kind === kind && (o.metadata?.namespace ?? '') === namespace && o.metadata?.name === name);
    },
  };
}

const KINDS: Record<string, [group: string, version: string, kind: string]> = {
  pods: ['', 'v1', 'Pod'],
  persistentvolumeclaims: ['', 'v1', 'PersistentVolumeClaim'],
  persistentvolumes: ['', 'v1', 'PersistentVolume'],
  volumeattributesclasses: ['storage.k8s.io', 'v1', 'VolumeAttributesClass'],
  ingresses: ['networking.k8s.io', 'v1', 'Ingress'],
  priorityclasses: ['scheduling.k8s.io', 'v1', 'PriorityClass'],
  configmaps: ['', 'v1', 'ConfigMap'],
};

/** kube's attributes for `operation` on `resource` (a plural of KINDS) with `object`. */
export function attributesFor(
  operation: Operation,
  resource: string,
  object: JsonRecord | null,
  extra: Partial<AdmissionAttributes> = {},
): AdmissionAttributes {
  const [group, version, kind] = KINDS[resource]!;
  return attributesOf(operation, { group, version, resource }, kind, object, extra);
}

/** kube's attributes for `operation` on `resource` of `kind` with `object`, named and placed as the object is unless `extra` says otherwise. */
export function attributesOf(
  operation: Operation,
  resource: GroupVersionResource,
  kind: string,
  object: JsonRecord | null,
  extra: Partial<AdmissionAttributes> = {},
): AdmissionAttributes {
  const metadata = (object?.metadata ?? {}) as { name?: string; namespace?: string };
  return {
    operation,
    kind: { group: resource.group, version: resource.version, kind },
    resource,
    subResource: '',
    name: metadata.name ?? '',
    namespace: metadata.namespace ?? '',
    userInfo: DEFAULT_USER,
    object: object as KubeObject | null,
    oldObject: null,
    dryRun: false,
    options: null,
    ...extra,
  };
}

/** A mutation request for a plugin, as the dispatcher builds it. */
export function mutationRequest(attributes: AdmissionAttributes, cluster?: PluginCluster): MutationRequest {
  return { attributes, object: attributes.object as JsonRecord, randomSuffix: (n) => 'x'.repeat(n), ...(cluster ? { cluster } : {}) };
}
