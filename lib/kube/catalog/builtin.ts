import type { Operation } from '../admission';
import { splitApiVersion } from '../api-version';
import type { ResourceInfo, SubresourceSpec } from './types';

/*
 * The resources a kube-apiserver v1.36 serves with its default --runtime-config: GA versions only, since beta and
 * alpha APIs are off by default and the deprecated versions (extensions/v1beta1, apps/v1beta1, batch/v1beta1,
 * policy/v1beta1, autoscaling/v2beta2, discovery.k8s.io/v1beta1, …) are no longer served at all.
 *
 * Rows are in the order kube-apiserver installs them — the core group first, then the REST storage providers in
 * the order of pkg/controlplane StorageProviders, each group's versions in priority order — because that order is
 * the order of EquivalentResourceRegistry's lists, and so the order in which matchPolicy Equivalent tries
 * equivalents. apiextensions.k8s.io and apiregistration.k8s.io are served by the delegated servers and come last.
 */

type Scope = 'Namespaced' | 'Cluster';

// group, served versions (highest priority first), Kind, plural resource, scope, admitted operations, storage key
type ResourceRow = readonly [
  group: string,
  versions: string,
  kind: string,
  resource: string,
  scope: Scope,
  operations?: readonly Operation[],
  storageKey?: string,
];

const ON_CREATE: readonly Operation[] = ['CREATE'];
const ON_UPDATE: readonly Operation[] = ['UPDATE'];
const ON_CONNECT: readonly Operation[] = ['CONNECT'];
const NEVER: readonly Operation[] = [];

const RESOURCES: readonly ResourceRow[] = [
  ['', 'v1', 'Binding', 'bindings', 'Namespaced', ON_CREATE], // the legacy way to bind a pod: create-only
  ['', 'v1', 'ComponentStatus', 'componentstatuses', 'Cluster', NEVER], // read-only, computed on GET
  ['', 'v1', 'ConfigMap', 'configmaps', 'Namespaced'],
  ['', 'v1', 'Endpoints', 'endpoints', 'Namespaced'],
  ['', 'v1', 'Event', 'events', 'Namespaced'],
  ['', 'v1', 'LimitRange', 'limitranges', 'Namespaced'],
  ['', 'v1', 'Namespace', 'namespaces', 'Cluster'],
  ['', 'v1', 'Node', 'nodes', 'Cluster'],
  ['', 'v1', 'PersistentVolumeClaim', 'persistentvolumeclaims', 'Namespaced'],
  ['', 'v1', 'PersistentVolume', 'persistentvolumes', 'Cluster'],
  ['', 'v1', 'Pod', 'pods', 'Namespaced'],
  ['', 'v1', 'PodTemplate', 'podtemplates', 'Namespaced'],
  ['', 'v1', 'ReplicationController', 'replicationcontrollers', 'Namespaced'],
  ['', 'v1', 'ResourceQuota', 'resourcequotas', 'Namespaced'],
  ['', 'v1', 'Secret', 'secrets', 'Namespaced'],
  ['', 'v1', 'ServiceAccount', 'serviceaccounts', 'Namespaced'],
  ['', 'v1', 'Service', 'services', 'Namespaced'],
  // The review resources are create-only and never stored: a POST asks a question and gets the answer back.
  ['authentication.k8s.io', 'v1', 'SelfSubjectReview', 'selfsubjectreviews', 'Cluster', ON_CREATE],
  ['authentication.k8s.io', 'v1', 'TokenReview', 'tokenreviews', 'Cluster', ON_CREATE],
  ['authorization.k8s.io', 'v1', 'LocalSubjectAccessReview', 'localsubjectaccessreviews', 'Namespaced', ON_CREATE],
  ['authorization.k8s.io', 'v1', 'SelfSubjectAccessReview', 'selfsubjectaccessreviews', 'Cluster', ON_CREATE],
  ['authorization.k8s.io', 'v1', 'SelfSubjectRulesReview', 'selfsubjectrulesreviews', 'Cluster', ON_CREATE],
  ['authorization.k8s.io', 'v1', 'SubjectAccessReview', 'subjectaccessreviews', 'Cluster', ON_CREATE],
  // Both versions are GA and read one storage; v2 has the higher priority, so it is registered (and tried) first.
  ['autoscaling', 'v2 v1', 'HorizontalPodAutoscaler', 'horizontalpodautoscalers', 'Namespaced'],
  ['batch', 'v1', 'CronJob', 'cronjobs', 'Namespaced'],
  ['batch', 'v1', 'Job', 'jobs', 'Namespaced'],
  ['certificates.k8s.io', 'v1', 'CertificateSigningRequest', 'certificatesigningrequests', 'Cluster'],
  ['coordination.k8s.io', 'v1', 'Lease', 'leases', 'Namespaced'],
  ['discovery.k8s.io', 'v1', 'EndpointSlice', 'endpointslices', 'Namespaced'],
  ['networking.k8s.io', 'v1', 'IngressClass', 'ingressclasses', 'Cluster'],
  ['networking.k8s.io', 'v1', 'Ingress', 'ingresses', 'Namespaced'],
  ['networking.k8s.io', 'v1', 'IPAddress', 'ipaddresses', 'Cluster'],
  ['networking.k8s.io', 'v1', 'NetworkPolicy', 'networkpolicies', 'Namespaced'],
  ['networking.k8s.io', 'v1', 'ServiceCIDR', 'servicecidrs', 'Cluster'],
  ['node.k8s.io', 'v1', 'RuntimeClass', 'runtimeclasses', 'Cluster'],
  ['policy', 'v1', 'PodDisruptionBudget', 'poddisruptionbudgets', 'Namespaced'],
  ['rbac.authorization.k8s.io', 'v1', 'ClusterRoleBinding', 'clusterrolebindings', 'Cluster'],
  ['rbac.authorization.k8s.io', 'v1', 'ClusterRole', 'clusterroles', 'Cluster'],
  ['rbac.authorization.k8s.io', 'v1', 'RoleBinding', 'rolebindings', 'Namespaced'],
  ['rbac.authorization.k8s.io', 'v1', 'Role', 'roles', 'Namespaced'],
  ['scheduling.k8s.io', 'v1', 'PriorityClass', 'priorityclasses', 'Cluster'],
  ['storage.k8s.io', 'v1', 'CSIDriver', 'csidrivers', 'Cluster'],
  ['storage.k8s.io', 'v1', 'CSINode', 'csinodes', 'Cluster'],
  ['storage.k8s.io', 'v1', 'CSIStorageCapacity', 'csistoragecapacities', 'Namespaced'],
  ['storage.k8s.io', 'v1', 'StorageClass', 'storageclasses', 'Cluster'],
  ['storage.k8s.io', 'v1', 'VolumeAttachment', 'volumeattachments', 'Cluster'],
  ['storage.k8s.io', 'v1', 'VolumeAttributesClass', 'volumeattributesclasses', 'Cluster'],
  ['flowcontrol.apiserver.k8s.io', 'v1', 'FlowSchema', 'flowschemas', 'Cluster'],
  ['flowcontrol.apiserver.k8s.io', 'v1', 'PriorityLevelConfiguration', 'prioritylevelconfigurations', 'Cluster'],
  ['apps', 'v1', 'ControllerRevision', 'controllerrevisions', 'Namespaced'],
  ['apps', 'v1', 'DaemonSet', 'daemonsets', 'Namespaced'],
  ['apps', 'v1', 'Deployment', 'deployments', 'Namespaced'],
  ['apps', 'v1', 'ReplicaSet', 'replicasets', 'Namespaced'],
  ['apps', 'v1', 'StatefulSet', 'statefulsets', 'Namespaced'],
  // Listed so requests can be built, although kube-apiserver never sends these kinds to webhooks (k8s.io/apiserver/pkg/admission/plugin/webhook/predicates/rules/rules.go).
  ['admissionregistration.k8s.io', 'v1', 'MutatingAdmissionPolicy', 'mutatingadmissionpolicies', 'Cluster'],
  ['admissionregistration.k8s.io', 'v1', 'MutatingAdmissionPolicyBinding', 'mutatingadmissionpolicybindings', 'Cluster'],
  ['admissionregistration.k8s.io', 'v1', 'MutatingWebhookConfiguration', 'mutatingwebhookconfigurations', 'Cluster'],
  ['admissionregistration.k8s.io', 'v1', 'ValidatingAdmissionPolicy', 'validatingadmissionpolicies', 'Cluster'],
  ['admissionregistration.k8s.io', 'v1', 'ValidatingAdmissionPolicyBinding', 'validatingadmissionpolicybindings', 'Cluster'],
  ['admissionregistration.k8s.io', 'v1', 'ValidatingWebhookConfiguration', 'validatingwebhookconfigurations', 'Cluster'],
  // kube-apiserver stores these in core v1 events' etcd prefix (AddCohabitatingResources), hence one storage key.
  ['events.k8s.io', 'v1', 'Event', 'events', 'Namespaced', undefined, 'events'],
  ['resource.k8s.io', 'v1', 'DeviceClass', 'deviceclasses', 'Cluster'],
  ['resource.k8s.io', 'v1', 'ResourceClaim', 'resourceclaims', 'Namespaced'],
  ['resource.k8s.io', 'v1', 'ResourceClaimTemplate', 'resourceclaimtemplates', 'Namespaced'],
  ['resource.k8s.io', 'v1', 'ResourceSlice', 'resourceslices', 'Cluster'],
  ['apiextensions.k8s.io', 'v1', 'CustomResourceDefinition', 'customresourcedefinitions', 'Cluster'],
  ['apiregistration.k8s.io', 'v1', 'APIService', 'apiservices', 'Cluster'],
];

// resource[.group], subresource, the kind its requests carry ('' = the parent's own kind), admitted operations
type SubresourceRow = readonly [resource: string, name: string, kind: string, operations: readonly Operation[]];

const SUBRESOURCES: readonly SubresourceRow[] = [
  ['namespaces', 'finalize', '', ON_UPDATE],
  ['namespaces', 'status', '', ON_UPDATE],
  ['nodes', 'proxy', 'v1 NodeProxyOptions', ON_CONNECT],
  ['nodes', 'status', '', ON_UPDATE],
  ['persistentvolumeclaims', 'status', '', ON_UPDATE],
  ['persistentvolumes', 'status', '', ON_UPDATE],
  ['pods', 'attach', 'v1 PodAttachOptions', ON_CONNECT],
  ['pods', 'binding', 'v1 Binding', ON_CREATE],
  ['pods', 'ephemeralcontainers', '', ON_UPDATE],
  ['pods', 'eviction', 'policy/v1 Eviction', ON_CREATE],
  ['pods', 'exec', 'v1 PodExecOptions', ON_CONNECT],
  ['pods', 'log', '', NEVER], // GET-only: reads never reach admission
  ['pods', 'portforward', 'v1 PodPortForwardOptions', ON_CONNECT],
  ['pods', 'proxy', 'v1 PodProxyOptions', ON_CONNECT],
  ['pods', 'resize', '', ON_UPDATE], // served since InPlacePodVerticalScaling went on by default (beta 1.33, GA 1.35)
  ['pods', 'status', '', ON_UPDATE],
  ['replicationcontrollers', 'scale', 'autoscaling/v1 Scale', ON_UPDATE],
  ['replicationcontrollers', 'status', '', ON_UPDATE],
  ['resourcequotas', 'status', '', ON_UPDATE],
  ['serviceaccounts', 'token', 'authentication.k8s.io/v1 TokenRequest', ON_CREATE],
  ['services', 'proxy', 'v1 ServiceProxyOptions', ON_CONNECT],
  ['services', 'status', '', ON_UPDATE],
  ['horizontalpodautoscalers.autoscaling', 'status', '', ON_UPDATE],
  ['cronjobs.batch', 'status', '', ON_UPDATE],
  ['jobs.batch', 'status', '', ON_UPDATE],
  ['certificatesigningrequests.certificates.k8s.io', 'approval', '', ON_UPDATE],
  ['certificatesigningrequests.certificates.k8s.io', 'status', '', ON_UPDATE],
  ['ingresses.networking.k8s.io', 'status', '', ON_UPDATE],
  ['servicecidrs.networking.k8s.io', 'status', '', ON_UPDATE],
  ['poddisruptionbudgets.policy', 'status', '', ON_UPDATE],
  ['volumeattachments.storage.k8s.io', 'status', '', ON_UPDATE],
  ['flowschemas.flowcontrol.apiserver.k8s.io', 'status', '', ON_UPDATE],
  ['prioritylevelconfigurations.flowcontrol.apiserver.k8s.io', 'status', '', ON_UPDATE],
  ['daemonsets.apps', 'status', '', ON_UPDATE],
  // The apps scale subresources speak autoscaling/v1 Scale, not an apps kind (their REST storage says so).
  ['deployments.apps', 'scale', 'autoscaling/v1 Scale', ON_UPDATE],
  ['deployments.apps', 'status', '', ON_UPDATE],
  ['replicasets.apps', 'scale', 'autoscaling/v1 Scale', ON_UPDATE],
  ['replicasets.apps', 'status', '', ON_UPDATE],
  ['statefulsets.apps', 'scale', 'autoscaling/v1 Scale', ON_UPDATE],
  ['statefulsets.apps', 'status', '', ON_UPDATE],
  ['validatingadmissionpolicies.admissionregistration.k8s.io', 'status', '', ON_UPDATE],
  ['resourceclaims.resource.k8s.io', 'status', '', ON_UPDATE],
  ['customresourcedefinitions.apiextensions.k8s.io', 'status', '', ON_UPDATE],
  ['apiservices.apiregistration.k8s.io', 'status', '', ON_UPDATE],
];

function subresourceSpec([, name, kind, operations]: SubresourceRow): SubresourceSpec {
  if (!kind) return { name, operations };
  const [apiVersion = '', kindName = ''] = kind.split(' ');
  const [group, version] = splitApiVersion(apiVersion);
  return { name, kind: { group, version, kind: kindName }, operations };
}

const qualifiedName = ([group, , , resource]: ResourceRow): string => (group ? `${resource}.${group}` : resource);

// Grouped once: Jest evaluates this module again in every spec file, and a scan of SUBRESOURCES per
// resource (and of RESOURCES per subresource below) cost several milliseconds of each file's require.
const SUBRESOURCES_OF = new Map<string, SubresourceRow[]>();
for (const row of SUBRESOURCES) {
  const rows = SUBRESOURCES_OF.get(row[0]);
  if (rows) rows.push(row);
  else SUBRESOURCES_OF.set(row[0], [row]);
}

function expand(row: ResourceRow): ResourceInfo[] {
  const [group, versions, kind, resource, scope, operations, storageKey] = row;
  const subresources = (SUBRESOURCES_OF.get(qualifiedName(row)) ?? []).map(subresourceSpec);
  return versions.split(' ').map((version) => ({
    group,
    version,
    kind,
    resource,
    namespaced: scope === 'Namespaced',
    ...(operations ? { operations } : {}),
    subresources,
    ...(storageKey ? { storageKey } : {}),
  }));
}

/** Every built-in resource version, in kube-apiserver's registration order. */
export const BUILTIN_RESOURCES: readonly ResourceInfo[] = RESOURCES.flatMap(expand);

// A misspelt parent in SUBRESOURCES would silently drop the subresource; fail at load instead.
const QUALIFIED_NAMES = new Set(RESOURCES.map(qualifiedName));
for (const [parent, name] of SUBRESOURCES) {
  if (!QUALIFIED_NAMES.has(parent)) throw new Error(`catalog: subresource ${parent}/${name} names no built-in resource`);
}
