/**
 * Go named types of fields, where they differ from the structural type the schema table knows.
 *
 * Why hand-written: the OpenAPI schema (and so kubernetes-models) describes `resources.limits` as
 * `map[string]Quantity` and `imagePullPolicy` as a string, but in Go they are `v1.ResourceList` and
 * `v1.PullPolicy`, and Go's decode errors print the named type (`... of type v1.ResourceList`). No npm
 * package carries these names, so the ones a webhook's patch most often hits are listed here, each taken
 * from the upstream file named above its entries. A field missing here prints its structural type
 * (`map[string]resource.Quantity`, `string`): a known, narrow divergence.
 *
 * Format: definition id → json field → the field's Go type as reflect prints it. `[]X` names the
 * element of a slice field; anything else names the field's own type (a string, number or map).
 */
export const GO_NAMED_FIELD_TYPES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  // staging/src/k8s.io/api/core/v1/types.go
  'io.k8s.api.core.v1.ResourceRequirements': { limits: 'v1.ResourceList', requests: 'v1.ResourceList' },
  'io.k8s.api.core.v1.VolumeResourceRequirements': { limits: 'v1.ResourceList', requests: 'v1.ResourceList' },
  'io.k8s.api.core.v1.PodSpec': {
    overhead: 'v1.ResourceList',
    restartPolicy: 'v1.RestartPolicy',
    dnsPolicy: 'v1.DNSPolicy',
    preemptionPolicy: 'v1.PreemptionPolicy',
  },
  'io.k8s.api.core.v1.Container': {
    imagePullPolicy: 'v1.PullPolicy',
    terminationMessagePolicy: 'v1.TerminationMessagePolicy',
    restartPolicy: 'v1.ContainerRestartPolicy',
  },
  'io.k8s.api.core.v1.EphemeralContainer': {
    imagePullPolicy: 'v1.PullPolicy',
    terminationMessagePolicy: 'v1.TerminationMessagePolicy',
    restartPolicy: 'v1.ContainerRestartPolicy',
  },
  'io.k8s.api.core.v1.ContainerPort': { protocol: 'v1.Protocol' },
  'io.k8s.api.core.v1.ServicePort': { protocol: 'v1.Protocol' },
  'io.k8s.api.core.v1.Toleration': { operator: 'v1.TolerationOperator', effect: 'v1.TaintEffect' },
  'io.k8s.api.core.v1.Capabilities': { add: '[]v1.Capability', drop: '[]v1.Capability' },
  'io.k8s.api.core.v1.SecurityContext': { procMount: 'v1.ProcMountType' },
  'io.k8s.api.core.v1.SeccompProfile': { type: 'v1.SeccompProfileType' },
  'io.k8s.api.core.v1.VolumeMount': { mountPropagation: 'v1.MountPropagationMode' },
  'io.k8s.api.core.v1.HTTPGetAction': { scheme: 'v1.URIScheme' },
  'io.k8s.api.core.v1.ServiceSpec': {
    type: 'v1.ServiceType',
    sessionAffinity: 'v1.ServiceAffinity',
    externalTrafficPolicy: 'v1.ServiceExternalTrafficPolicy',
    internalTrafficPolicy: 'v1.ServiceInternalTrafficPolicy',
    ipFamilies: '[]v1.IPFamily',
    ipFamilyPolicy: 'v1.IPFamilyPolicy',
  },
  'io.k8s.api.core.v1.PodStatus': { phase: 'v1.PodPhase', qosClass: 'v1.PodQOSClass' },
  'io.k8s.api.core.v1.ContainerStatus': { allocatedResources: 'v1.ResourceList' },
  'io.k8s.api.core.v1.ResourceQuotaSpec': { hard: 'v1.ResourceList' },
  'io.k8s.api.core.v1.ResourceQuotaStatus': { hard: 'v1.ResourceList', used: 'v1.ResourceList' },
  'io.k8s.api.core.v1.LimitRangeItem': {
    max: 'v1.ResourceList',
    min: 'v1.ResourceList',
    default: 'v1.ResourceList',
    defaultRequest: 'v1.ResourceList',
    maxLimitRequestRatio: 'v1.ResourceList',
  },
  'io.k8s.api.core.v1.NodeStatus': { capacity: 'v1.ResourceList', allocatable: 'v1.ResourceList' },
  'io.k8s.api.core.v1.PersistentVolumeSpec': { capacity: 'v1.ResourceList' },
  'io.k8s.api.core.v1.PersistentVolumeClaimStatus': { capacity: 'v1.ResourceList', allocatedResources: 'v1.ResourceList' },
  // staging/src/k8s.io/api/node/v1/types.go (Overhead.PodFixed is a corev1.ResourceList)
  'io.k8s.api.node.v1.Overhead': { podFixed: 'v1.ResourceList' },
  // staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/types.go
  'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta': { uid: 'types.UID' },
  'io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference': { uid: 'types.UID' },
};
