import type { GroupVersionKind, GroupVersionResource } from './admission';

/** One served resource: how a kind is addressed and whether its objects live in a namespace. */
export interface ResourceInfo {
  group: string;
  version: string;
  kind: string;
  resource: string;
  namespaced: boolean;
}

// The built-in resources the harness knows how to address. Extend by `registerResource` (CRDs).
const BUILTIN: ResourceInfo[] = [
  ['', 'v1', 'Pod', 'pods', true],
  ['', 'v1', 'ConfigMap', 'configmaps', true],
  ['', 'v1', 'Secret', 'secrets', true],
  ['', 'v1', 'Service', 'services', true],
  ['', 'v1', 'ServiceAccount', 'serviceaccounts', true],
  ['', 'v1', 'PersistentVolumeClaim', 'persistentvolumeclaims', true],
  ['', 'v1', 'Namespace', 'namespaces', false],
  ['', 'v1', 'Node', 'nodes', false],
  ['apps', 'v1', 'Deployment', 'deployments', true],
  ['apps', 'v1', 'StatefulSet', 'statefulsets', true],
  ['apps', 'v1', 'DaemonSet', 'daemonsets', true],
  ['apps', 'v1', 'ReplicaSet', 'replicasets', true],
  ['batch', 'v1', 'Job', 'jobs', true],
  ['batch', 'v1', 'CronJob', 'cronjobs', true],
  ['networking.k8s.io', 'v1', 'Ingress', 'ingresses', true],
  ['networking.k8s.io', 'v1', 'NetworkPolicy', 'networkpolicies', true],
  ['rbac.authorization.k8s.io', 'v1', 'Role', 'roles', true],
  ['rbac.authorization.k8s.io', 'v1', 'RoleBinding', 'rolebindings', true],
  ['rbac.authorization.k8s.io', 'v1', 'ClusterRole', 'clusterroles', false],
  ['rbac.authorization.k8s.io', 'v1', 'ClusterRoleBinding', 'clusterrolebindings', false],
].map(([group, version, kind, resource, namespaced]) => ({ group, version, kind, resource, namespaced }) as ResourceInfo);

const byKind = new Map<string, ResourceInfo>();
for (const info of BUILTIN) registerResource(info);

function kindKey(group: string, version: string, kind: string): string {
  return `${group}/${version}/${kind}`;
}

/** Adds (or replaces) a resource, e.g. a served version of a CustomResourceDefinition. */
export function registerResource(info: ResourceInfo): void {
  byKind.set(kindKey(info.group, info.version, info.kind), info);
}

/** The resource serving `kind`, or undefined when the catalog does not know it. */
export function resourceForKind(gvk: GroupVersionKind): ResourceInfo | undefined {
  return byKind.get(kindKey(gvk.group, gvk.version, gvk.kind));
}

export function gvrOf(info: ResourceInfo): GroupVersionResource {
  return { group: info.group, version: info.version, resource: info.resource };
}

export function gvkOf(info: ResourceInfo): GroupVersionKind {
  return { group: info.group, version: info.version, kind: info.kind };
}
