/**
 * Fields that Go structs get from an embedded (`json:",inline"`) struct.
 *
 * Why it matters: Go's decoder (sigs.k8s.io/json, synced with Go 1.24's encoding/json) puts the embedded
 * struct's Go field name into the field path of a type error: a bad `volumes[0].configMap` reads
 * `Go struct field Volume.spec.volumes.VolumeSource.configMap of type v1.ConfigMapVolumeSource`
 * (vendor/sigs.k8s.io/json/internal/golang/encoding/json/decode.go, `object`: for every step of a
 * promoted field's index but the last, the struct field's Name is appended to FieldStack).
 *
 * Why hand-written: OpenAPI flattens inline structs, so no npm schema package knows about them. Each
 * entry names its upstream types.go. A struct embedding something not listed here gives a path without
 * the embedded name — a known divergence.
 *
 * `fields` lists the json fields promoted from the embedded struct(s); `except` instead lists the struct's
 * own fields (everything else is promoted). `via` is the chain of embedded Go field names.
 */
export interface EmbeddedRule {
  /** Definition names; those the table does not hold are skipped. */
  readonly structs: readonly string[];
  readonly via: readonly string[];
  readonly fields?: readonly string[];
  readonly except?: readonly string[];
}

const CORE = 'io.k8s.api.core.v1.';

export const EMBEDDED_RULES: readonly EmbeddedRule[] = [
  // staging/src/k8s.io/api/core/v1/types.go
  { structs: [`${CORE}Volume`], via: ['VolumeSource'], except: ['name'] },
  {
    structs: [`${CORE}PersistentVolumeSpec`],
    via: ['PersistentVolumeSource'],
    except: [
      'accessModes',
      'capacity',
      'claimRef',
      'mountOptions',
      'nodeAffinity',
      'persistentVolumeReclaimPolicy',
      'storageClassName',
      'volumeAttributesClassName',
      'volumeMode',
    ],
  },
  { structs: [`${CORE}Probe`], via: ['ProbeHandler'], fields: ['exec', 'httpGet', 'tcpSocket', 'grpc'] },
  { structs: [`${CORE}EphemeralContainer`], via: ['EphemeralContainerCommon'], except: ['targetContainerName'] },
  {
    structs: [
      `${CORE}ConfigMapVolumeSource`,
      `${CORE}ConfigMapProjection`,
      `${CORE}ConfigMapKeySelector`,
      `${CORE}ConfigMapEnvSource`,
      `${CORE}SecretProjection`,
      `${CORE}SecretKeySelector`,
      `${CORE}SecretEnvSource`,
    ],
    via: ['LocalObjectReference'],
    fields: ['name'],
  },
  // staging/src/k8s.io/api/networking/v1/types.go (and the v1beta1 / extensions copies)
  {
    structs: ['io.k8s.api.networking.v1.IngressRule', 'io.k8s.api.networking.v1beta1.IngressRule', 'io.k8s.api.extensions.v1beta1.IngressRule'],
    via: ['IngressRuleValue'],
    fields: ['http'],
  },
  // staging/src/k8s.io/api/admissionregistration/v1/types.go (and v1beta1, v1alpha1)
  ...['v1', 'v1beta1', 'v1alpha1'].flatMap((version): EmbeddedRule[] => {
    const pkg = `io.k8s.api.admissionregistration.${version}.`;
    return [
      { structs: [`${pkg}RuleWithOperations`], via: ['Rule'], fields: ['apiGroups', 'apiVersions', 'resources', 'scope'] },
      { structs: [`${pkg}NamedRuleWithOperations`], via: ['RuleWithOperations'], fields: ['operations'] },
      {
        structs: [`${pkg}NamedRuleWithOperations`],
        via: ['RuleWithOperations', 'Rule'],
        fields: ['apiGroups', 'apiVersions', 'resources', 'scope'],
      },
    ];
  }),
  // staging/src/k8s.io/api/resource/v1/types.go (and v1beta1, v1beta2)
  ...['v1', 'v1beta1', 'v1beta2'].map(
    (version): EmbeddedRule => ({
      structs: ['DeviceClassConfiguration', 'DeviceClaimConfiguration', 'DeviceAllocationConfiguration'].map(
        (name) => `io.k8s.api.resource.${version}.${name}`,
      ),
      via: ['DeviceConfiguration'],
      fields: ['opaque'],
    }),
  ),
];

/**
 * staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/types.go: every top-level kind embeds `TypeMeta`
 * inline, which holds `apiVersion` and `kind`.
 */
export const TYPE_META_FIELDS: readonly string[] = ['apiVersion', 'kind'];
export const TYPE_META_VIA: readonly string[] = ['TypeMeta'];
