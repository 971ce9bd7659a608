/**
 * Which fields of the API's most used structs are Go pointers (k8s.io/api core/v1, apps/v1 and
 * apimachinery meta/v1 types.go). Hand-written because the published OpenAPI schemas do not carry it,
 * and kube's exact behaviour needs it: Semantic.DeepEqual tells a nil pointer from a pointer to a
 * zero value (`automountServiceAccountToken: false` added to a pod is a change), while an absent value
 * field equals its zero value (`hostNetwork: false` is not a change), and Go's encoder keeps a pointer
 * to a zero value but omits an `omitempty` value field at its zero value.
 * Structs not listed are taken to hold values only.
 */
export const GO_POINTER_FIELDS: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  Object.entries({
    'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta': ['deletionTimestamp', 'deletionGracePeriodSeconds'],
    'io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference': ['controller', 'blockOwnerDeletion'],
    'io.k8s.api.core.v1.PodSpec': [
      'terminationGracePeriodSeconds',
      'activeDeadlineSeconds',
      'priority',
      'automountServiceAccountToken',
      'shareProcessNamespace',
      'enableServiceLinks',
      'setHostnameAsFQDN',
      'hostUsers',
      'securityContext',
      'affinity',
      'dnsConfig',
      'os',
      'resources',
      'runtimeClassName',
      'preemptionPolicy',
      'hostnameOverride',
    ],
    'io.k8s.api.core.v1.Container': ['restartPolicy', 'livenessProbe', 'readinessProbe', 'startupProbe', 'lifecycle', 'securityContext'],
    'io.k8s.api.core.v1.EphemeralContainer': ['restartPolicy', 'livenessProbe', 'readinessProbe', 'startupProbe', 'lifecycle', 'securityContext'],
    'io.k8s.api.core.v1.SecurityContext': [
      'capabilities',
      'privileged',
      'seLinuxOptions',
      'windowsOptions',
      'runAsUser',
      'runAsGroup',
      'runAsNonRoot',
      'readOnlyRootFilesystem',
      'allowPrivilegeEscalation',
      'procMount',
      'seccompProfile',
      'appArmorProfile',
    ],
    'io.k8s.api.core.v1.PodSecurityContext': [
      'seLinuxOptions',
      'windowsOptions',
      'runAsUser',
      'runAsGroup',
      'runAsNonRoot',
      'supplementalGroupsPolicy',
      'fsGroup',
      'fsGroupChangePolicy',
      'seccompProfile',
      'appArmorProfile',
      'seLinuxChangePolicy',
    ],
    'io.k8s.api.core.v1.Probe': ['terminationGracePeriodSeconds'],
    'io.k8s.api.core.v1.VolumeMount': ['recursiveReadOnly', 'mountPropagation'],
    'io.k8s.api.core.v1.SecretVolumeSource': ['defaultMode', 'optional'],
    'io.k8s.api.core.v1.ConfigMapVolumeSource': ['defaultMode', 'optional'],
    'io.k8s.api.core.v1.ProjectedVolumeSource': ['defaultMode'],
    'io.k8s.api.core.v1.DownwardAPIVolumeSource': ['defaultMode'],
    'io.k8s.api.core.v1.HostPathVolumeSource': ['type'],
    'io.k8s.api.core.v1.ServiceAccountTokenProjection': ['expirationSeconds'],
    'io.k8s.api.core.v1.Toleration': ['tolerationSeconds'],
    'io.k8s.api.core.v1.EnvVar': ['valueFrom'],
    'io.k8s.api.core.v1.ServiceSpec': [
      'sessionAffinityConfig',
      'ipFamilyPolicy',
      'allocateLoadBalancerNodePorts',
      'loadBalancerClass',
      'internalTrafficPolicy',
      'trafficDistribution',
    ],
    'io.k8s.api.apps.v1.DeploymentSpec': ['replicas', 'revisionHistoryLimit', 'progressDeadlineSeconds'],
    'io.k8s.api.apps.v1.ReplicaSetSpec': ['replicas'],
    'io.k8s.api.apps.v1.StatefulSetSpec': ['replicas', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy', 'ordinals'],
    'io.k8s.api.apps.v1.DaemonSetSpec': ['revisionHistoryLimit'],
    'io.k8s.api.batch.v1.JobSpec': [
      'parallelism',
      'completions',
      'activeDeadlineSeconds',
      'podFailurePolicy',
      'successPolicy',
      'backoffLimit',
      'backoffLimitPerIndex',
      'maxFailedIndexes',
      'manualSelector',
      'ttlSecondsAfterFinished',
      'completionMode',
      'suspend',
      'podReplacementPolicy',
      'managedBy',
    ],
    'io.k8s.api.batch.v1.CronJobSpec': ['timeZone', 'startingDeadlineSeconds', 'suspend', 'successfulJobsHistoryLimit', 'failedJobsHistoryLimit'],
  }).map(([id, fields]) => [id, new Set(fields)]),
);

/** Whether `field` of the struct `id` is a Go pointer. */
export function isPointerField(id: string, field: string): boolean {
  return GO_POINTER_FIELDS.get(id)?.has(field) ?? false;
}
