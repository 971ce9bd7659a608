/**
 * How server-side apply (and so a MutatingAdmissionPolicy's ApplyConfiguration) merges the lists, maps
 * and structs of the built-in kinds: the facts kube-apiserver reads from its own OpenAPI extensions
 * (`x-kubernetes-list-type`, `x-kubernetes-list-map-keys`, `x-kubernetes-map-type`, and for lists
 * without a list type `x-kubernetes-patch-strategy: merge` + `x-kubernetes-patch-merge-key`, as
 * kube-openapi pkg/schemaconv `getListElementRelationship` reads them).
 *
 * Why hand-written: no package on the npm registry ships Kubernetes' OpenAPI with these extensions
 * for a recent release. kubernetes-models (the schema table's source) strips them from its
 * declarations and validators; @kubernetes/client-node and kubernetes-types carry only types;
 * kubernetes-client ships swagger files that stop at 1.13; cdk8s-cli, kubernetes-fluent-client and
 * @pulumi/kubernetes ship none. The facts below were read from the structured-merge-diff schema that
 * Kubernetes generates from that OpenAPI (client-go applyconfigurations/internal/internal.go, from the
 * 1.35 development cycle: it has PodSpec.workloadRef and ContainerRestartRule), for the GA versions of
 * the groups webhooks and policies touch. Everything not listed follows the OpenAPI defaults: a list
 * is atomic, a map and a struct are granular.
 *
 * Definitions are named as in OpenAPI (`io.k8s.api.core.v1.PodSpec`), like the schema table's.
 */
import type { Json } from '../../kube/json';

/** A list field's relationship when it is not atomic: a set, or a list-map with these keys. */
export type ListSemantics = 'set' | readonly string[];

const CORE = 'io.k8s.api.core.v1';
const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';
const APPS = 'io.k8s.api.apps.v1';
const BATCH = 'io.k8s.api.batch.v1';
const ADMISSION = 'io.k8s.api.admissionregistration.v1';

const CONTAINER_LISTS: Readonly<Record<string, ListSemantics>> = {
  env: ['name'],
  ports: ['containerPort', 'protocol'],
  volumeDevices: ['devicePath'],
  volumeMounts: ['mountPath'],
};

/** Definition → list field → set or list-map keys. */
export const LIST_SEMANTICS: Readonly<Record<string, Readonly<Record<string, ListSemantics>>>> = {
  [`${META}.ObjectMeta`]: { finalizers: 'set', ownerReferences: ['uid'] },

  [`${CORE}.ComponentStatus`]: { conditions: ['type'] },
  [`${CORE}.Container`]: CONTAINER_LISTS,
  [`${CORE}.ContainerRestartRuleOnExitCodes`]: { values: 'set' },
  [`${CORE}.ContainerStatus`]: { allocatedResourcesStatus: ['name'], volumeMounts: ['mountPath'] },
  [`${CORE}.EphemeralContainer`]: CONTAINER_LISTS,
  [`${CORE}.NamespaceStatus`]: { conditions: ['type'] },
  [`${CORE}.NodeSpec`]: { podCIDRs: 'set' },
  [`${CORE}.NodeStatus`]: { addresses: ['type'], conditions: ['type'] },
  [`${CORE}.PersistentVolumeClaimStatus`]: { conditions: ['type'] },
  [`${CORE}.PodSpec`]: {
    containers: ['name'],
    ephemeralContainers: ['name'],
    hostAliases: ['ip'],
    imagePullSecrets: ['name'],
    initContainers: ['name'],
    resourceClaims: ['name'],
    schedulingGates: ['name'],
    topologySpreadConstraints: ['topologyKey', 'whenUnsatisfiable'],
    volumes: ['name'],
  },
  [`${CORE}.PodStatus`]: { conditions: ['type'], podIPs: ['ip'], resourceClaimStatuses: ['name'] },
  [`${CORE}.ReplicationControllerStatus`]: { conditions: ['type'] },
  [`${CORE}.ResourceRequirements`]: { claims: ['name'] },
  [`${CORE}.ResourceStatus`]: { resources: ['resourceID'] },
  [`${CORE}.ServiceAccount`]: { secrets: ['name'] },
  [`${CORE}.ServiceSpec`]: { ports: ['port', 'protocol'] },
  [`${CORE}.ServiceStatus`]: { conditions: ['type'] },

  [`${APPS}.DaemonSetStatus`]: { conditions: ['type'] },
  [`${APPS}.DeploymentStatus`]: { conditions: ['type'] },
  [`${APPS}.ReplicaSetStatus`]: { conditions: ['type'] },
  [`${APPS}.StatefulSetStatus`]: { conditions: ['type'] },

  // JobStatus.conditions is atomic (`+listType=atomic`).
  [`${BATCH}.PodFailurePolicyOnExitCodesRequirement`]: { values: 'set' },
  [`${BATCH}.UncountedTerminatedPods`]: { failed: 'set', succeeded: 'set' },

  // Read from v1beta1, the version of that tree: mutations and variables atomic, matchConditions by name.
  [`${ADMISSION}.MutatingAdmissionPolicySpec`]: { matchConditions: ['name'] },
  [`${ADMISSION}.MutatingWebhook`]: { matchConditions: ['name'] },
  [`${ADMISSION}.MutatingWebhookConfiguration`]: { webhooks: ['name'] },
  [`${ADMISSION}.ValidatingAdmissionPolicyBindingSpec`]: { validationActions: 'set' },
  [`${ADMISSION}.ValidatingAdmissionPolicySpec`]: { matchConditions: ['name'], variables: ['name'] },
  [`${ADMISSION}.ValidatingAdmissionPolicyStatus`]: { conditions: ['type'] },
  [`${ADMISSION}.ValidatingWebhook`]: { matchConditions: ['name'] },
  [`${ADMISSION}.ValidatingWebhookConfiguration`]: { webhooks: ['name'] },

  'io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerStatus': { conditions: ['type'] },
  'io.k8s.api.certificates.v1.CertificateSigningRequestStatus': { conditions: ['type'] },
  'io.k8s.api.discovery.v1.Endpoint': { addresses: 'set' },
  'io.k8s.api.networking.v1.ServiceCIDRStatus': { conditions: ['type'] },
  'io.k8s.api.policy.v1.PodDisruptionBudgetStatus': { conditions: ['type'] },
};

/** Definition → map fields that are `x-kubernetes-map-type: atomic` (`+mapType=atomic`). */
export const ATOMIC_MAP_FIELDS: Readonly<Record<string, readonly string[]>> = {
  [`${CORE}.PodSpec`]: ['nodeSelector'],
  [`${CORE}.ReplicationControllerSpec`]: ['selector'],
  [`${CORE}.ServiceSpec`]: ['selector'],
};

/** Definition → struct fields whose `$ref` says `x-kubernetes-map-type: granular` over an atomic struct. */
export const GRANULAR_REF_FIELDS: Readonly<Record<string, readonly string[]>> = {
  [`${CORE}.PersistentVolumeSpec`]: ['claimRef'],
};

/** Structs that are `x-kubernetes-map-type: atomic` (`+structType=atomic`): replaced whole, never merged. */
export const ATOMIC_STRUCTS: ReadonlySet<string> = new Set([
  `${META}.LabelSelector`,
  `${META}.OwnerReference`,
  `${CORE}.ConfigMapKeySelector`,
  `${CORE}.EndpointAddress`,
  `${CORE}.EndpointPort`,
  `${CORE}.FileKeySelector`,
  `${CORE}.LocalObjectReference`,
  `${CORE}.NodeSelector`,
  `${CORE}.NodeSelectorTerm`,
  `${CORE}.ObjectFieldSelector`,
  `${CORE}.ObjectReference`,
  `${CORE}.ResourceFieldSelector`,
  `${CORE}.ScopeSelector`,
  `${CORE}.SecretKeySelector`,
  `${CORE}.SecretReference`,
  `${CORE}.TopologySelectorTerm`,
  `${CORE}.TypedLocalObjectReference`,
  `${ADMISSION}.MatchResources`,
  `${ADMISSION}.NamedRuleWithOperations`,
  `${ADMISSION}.ParamKind`,
  `${ADMISSION}.ParamRef`,
  `${ADMISSION}.Variable`,
  'io.k8s.api.autoscaling.v1.CrossVersionObjectReference',
  'io.k8s.api.discovery.v1.EndpointPort',
  'io.k8s.api.networking.v1.ServiceBackendPort',
  'io.k8s.api.rbac.v1.RoleRef',
  'io.k8s.api.rbac.v1.Subject',
]);

/**
 * The OpenAPI `default` of list-map key fields, by the item's definition. openapi-gen writes the zero
 * value as the default of a non-pointer field without omitempty, and kubebuilder `+default` markers
 * add others (`protocol: TCP`). A key field listed without a default (ObjectReference.name) makes an
 * item that omits it an error.
 */
export const KEY_DEFAULTS: Readonly<Record<string, Readonly<Record<string, Json>>>> = {
  [`${META}.Condition`]: { type: '' },
  [`${META}.OwnerReference`]: { uid: '' },
  [`${CORE}.ComponentCondition`]: { type: '' },
  [`${CORE}.Container`]: { name: '' },
  [`${CORE}.ContainerPort`]: { containerPort: 0, protocol: 'TCP' },
  [`${CORE}.EnvVar`]: { name: '' },
  [`${CORE}.EphemeralContainer`]: { name: '' },
  [`${CORE}.HostAlias`]: { ip: '' },
  [`${CORE}.LocalObjectReference`]: { name: '' },
  [`${CORE}.NamespaceCondition`]: { type: '' },
  [`${CORE}.NodeAddress`]: { type: '' },
  [`${CORE}.NodeCondition`]: { type: '' },
  [`${CORE}.PersistentVolumeClaimCondition`]: { type: '' },
  [`${CORE}.PodCondition`]: { type: '' },
  [`${CORE}.PodIP`]: { ip: '' },
  [`${CORE}.PodResourceClaim`]: { name: '' },
  [`${CORE}.PodResourceClaimStatus`]: { name: '' },
  [`${CORE}.PodSchedulingGate`]: { name: '' },
  [`${CORE}.ReplicationControllerCondition`]: { type: '' },
  [`${CORE}.ResourceClaim`]: { name: '' },
  [`${CORE}.ResourceHealth`]: { resourceID: '' },
  [`${CORE}.ResourceStatus`]: { name: '' },
  [`${CORE}.ServicePort`]: { port: 0, protocol: 'TCP' },
  [`${CORE}.TopologySpreadConstraint`]: { topologyKey: '', whenUnsatisfiable: '' },
  [`${CORE}.Volume`]: { name: '' },
  [`${CORE}.VolumeDevice`]: { devicePath: '' },
  [`${CORE}.VolumeMount`]: { mountPath: '' },
  [`${CORE}.VolumeMountStatus`]: { mountPath: '' },
  [`${APPS}.DaemonSetCondition`]: { type: '' },
  [`${APPS}.DeploymentCondition`]: { type: '' },
  [`${APPS}.ReplicaSetCondition`]: { type: '' },
  [`${APPS}.StatefulSetCondition`]: { type: '' },
  [`${ADMISSION}.MatchCondition`]: { name: '' },
  [`${ADMISSION}.MutatingWebhook`]: { name: '' },
  [`${ADMISSION}.ValidatingWebhook`]: { name: '' },
  [`${ADMISSION}.Variable`]: { name: '' },
  'io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerCondition': { type: '' },
  'io.k8s.api.certificates.v1.CertificateSigningRequestCondition': { type: '' },
};

/**
 * The OpenAPI packages whose facts were read in full. Kinds of other packages (alpha and beta
 * versions, resource.k8s.io, storage.k8s.io, flowcontrol…) get the OpenAPI defaults, which differ from
 * kube-apiserver wherever their lists are sets or list-maps (mostly `status.conditions`).
 */
export const VERIFIED_PACKAGES: readonly string[] = [
  META,
  CORE,
  APPS,
  BATCH,
  ADMISSION,
  'io.k8s.api.autoscaling.v1',
  'io.k8s.api.autoscaling.v2',
  'io.k8s.api.certificates.v1',
  'io.k8s.api.coordination.v1',
  'io.k8s.api.discovery.v1',
  'io.k8s.api.events.v1',
  'io.k8s.api.networking.v1',
  'io.k8s.api.policy.v1',
  'io.k8s.api.rbac.v1',
];
