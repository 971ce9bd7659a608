/**
 * A go-cmp style diff (`cmp.Diff(oldPod.Spec, mungedPodSpec)`) for the pod update error
 * (pkg/apis/core/validation ValidatePodUpdate). Upstream diffs the internal core.PodSpec with go-cmp,
 * whose output is unstable on purpose and prints every Go field of the internal types. This renders
 * go-cmp's report shape from the v1 JSON:
 * - `-`/`+`/`  ` markers, one tab per depth;
 * - structs, maps and lists that differ expanded record by record (lists of different lengths by an
 *   edit script), two identical records of context around each difference and the rest elided as
 *   `... // N identical fields|elements|entries`;
 * - keys aligned within runs of one-line records;
 * - one-line values as Go composite literals (`{Name: "x", Value: "y"}`, zero members left out,
 *   pointers as `&`), with Go field names, zero values, pointers and embedded structs for the
 *   internal types a pod update usually shows (PodSpec, Container, volumes and their projections,
 *   ports, env, mounts, tolerations, resources, security contexts).
 * The prefix before the diff is exact; the diff is an approximation: types not described here are
 * printed from their v1 JSON (json names capitalised, no pointer marks), quantities as their strings,
 * and go-cmp's own choices (type annotations, wrapping of long values) may differ.
 */
import { isObject, type Json, type JsonObject } from '../../kube/json';
import { goQuote } from '../../go/strconv';
import { semanticEqualAs } from '../equality';

type GoKind = 'string' | 'int' | 'bool' | 'pointer' | 'slice' | 'map' | 'struct';

/** An internal struct type: its name (for headers) and fields in Go declaration order. */
interface Layout {
  readonly type?: string;
  readonly fields?: readonly Field[];
}

/** One Go field: json name, Go name, kind, the layout of its value (or elements), embedding. */
interface Field {
  readonly json: string;
  readonly go: string;
  readonly kind: GoKind;
  readonly of?: Layout;
  /** The header of its expanded form when it cannot be derived (`[]string{`, `map[string]string{`). */
  readonly header?: string;
  /** An embedded struct made of these json members of the parent (or of all members no other field takes). */
  readonly embed?: readonly string[] | 'rest';
}

const f = (json: string, go: string, kind: GoKind, extra: Partial<Field> = {}): Field => ({ json, go, kind, ...extra });
const str = (json: string, go: string): Field => f(json, go, 'string');
const ptr = (json: string, go: string, of?: Layout): Field => f(json, go, 'pointer', of ? { of } : {});
const slice = (json: string, go: string, of?: Layout, header?: string): Field => f(json, go, 'slice', { ...(of ? { of } : {}), ...(header ? { header } : {}) });

const STRINGS = '[]string{';
const OBJECT_REFERENCE: Layout = { type: 'core.LocalObjectReference', fields: [str('name', 'Name')] };
const LOCAL_REFERENCE = f('', 'LocalObjectReference', 'struct', { embed: ['name'], of: OBJECT_REFERENCE });
const KEY_TO_PATH: Layout = { type: 'core.KeyToPath', fields: [str('key', 'Key'), str('path', 'Path'), ptr('mode', 'Mode')] };
const OBJECT_FIELD_SELECTOR: Layout = { type: 'core.ObjectFieldSelector', fields: [str('apiVersion', 'APIVersion'), str('fieldPath', 'FieldPath')] };
const RESOURCE_FIELD_SELECTOR: Layout = { type: 'core.ResourceFieldSelector', fields: [str('containerName', 'ContainerName'), str('resource', 'Resource'), f('divisor', 'Divisor', 'struct')] };
const DOWNWARD_FILE: Layout = {
  type: 'core.DownwardAPIVolumeFile',
  fields: [str('path', 'Path'), ptr('fieldRef', 'FieldRef', OBJECT_FIELD_SELECTOR), ptr('resourceFieldRef', 'ResourceFieldRef', RESOURCE_FIELD_SELECTOR), ptr('mode', 'Mode')],
};
const ITEMS = slice('items', 'Items', KEY_TO_PATH);

const PROJECTION: Layout = {
  type: 'core.VolumeProjection',
  fields: [
    ptr('secret', 'Secret', { type: 'core.SecretProjection', fields: [LOCAL_REFERENCE, ITEMS, ptr('optional', 'Optional')] }),
    ptr('downwardAPI', 'DownwardAPI', { type: 'core.DownwardAPIProjection', fields: [slice('items', 'Items', DOWNWARD_FILE)] }),
    ptr('configMap', 'ConfigMap', { type: 'core.ConfigMapProjection', fields: [LOCAL_REFERENCE, ITEMS, ptr('optional', 'Optional')] }),
    ptr('serviceAccountToken', 'ServiceAccountToken', { type: 'core.ServiceAccountTokenProjection', fields: [str('audience', 'Audience'), f('expirationSeconds', 'ExpirationSeconds', 'int'), str('path', 'Path')] }),
    ptr('clusterTrustBundle', 'ClusterTrustBundle'),
    ptr('podCertificate', 'PodCertificate'),
  ],
};

/** core.VolumeSource: every source is a pointer. */
const VOLUME_SOURCE: Layout = {
  type: 'core.VolumeSource',
  fields: [
    ptr('hostPath', 'HostPath', { type: 'core.HostPathVolumeSource', fields: [str('path', 'Path'), ptr('type', 'Type')] }),
    ptr('emptyDir', 'EmptyDir', { type: 'core.EmptyDirVolumeSource', fields: [str('medium', 'Medium'), ptr('sizeLimit', 'SizeLimit')] }),
    ptr('gcePersistentDisk', 'GCEPersistentDisk'),
    ptr('awsElasticBlockStore', 'AWSElasticBlockStore'),
    ptr('gitRepo', 'GitRepo'),
    ptr('secret', 'Secret', { type: 'core.SecretVolumeSource', fields: [str('secretName', 'SecretName'), ITEMS, ptr('defaultMode', 'DefaultMode'), ptr('optional', 'Optional')] }),
    ptr('nfs', 'NFS'),
    ptr('iscsi', 'ISCSI'),
    ptr('glusterfs', 'Glusterfs'),
    ptr('persistentVolumeClaim', 'PersistentVolumeClaim', { type: 'core.PersistentVolumeClaimVolumeSource', fields: [str('claimName', 'ClaimName'), f('readOnly', 'ReadOnly', 'bool')] }),
    ptr('rbd', 'RBD'),
    ptr('quobyte', 'Quobyte'),
    ptr('flexVolume', 'FlexVolume'),
    ptr('cinder', 'Cinder'),
    ptr('cephfs', 'CephFS'),
    ptr('flocker', 'Flocker'),
    ptr('downwardAPI', 'DownwardAPI', { type: 'core.DownwardAPIVolumeSource', fields: [slice('items', 'Items', DOWNWARD_FILE), ptr('defaultMode', 'DefaultMode')] }),
    ptr('fc', 'FC'),
    ptr('azureFile', 'AzureFile'),
    ptr('configMap', 'ConfigMap', { type: 'core.ConfigMapVolumeSource', fields: [LOCAL_REFERENCE, ITEMS, ptr('defaultMode', 'DefaultMode'), ptr('optional', 'Optional')] }),
    ptr('vsphereVolume', 'VsphereVolume'),
    ptr('azureDisk', 'AzureDisk'),
    ptr('photonPersistentDisk', 'PhotonPersistentDisk'),
    ptr('projected', 'Projected', { type: 'core.ProjectedVolumeSource', fields: [slice('sources', 'Sources', PROJECTION), ptr('defaultMode', 'DefaultMode')] }),
    ptr('portworxVolume', 'PortworxVolume'),
    ptr('scaleIO', 'ScaleIO'),
    ptr('storageos', 'StorageOS'),
    ptr('csi', 'CSI'),
    ptr('ephemeral', 'Ephemeral'),
    ptr('image', 'Image'),
  ],
};
const VOLUME: Layout = { type: 'core.Volume', fields: [str('name', 'Name'), f('', 'VolumeSource', 'struct', { embed: 'rest', of: VOLUME_SOURCE })] };

const CONTAINER_PORT: Layout = {
  type: 'core.ContainerPort',
  fields: [str('name', 'Name'), f('hostPort', 'HostPort', 'int'), f('containerPort', 'ContainerPort', 'int'), str('protocol', 'Protocol'), str('hostIP', 'HostIP')],
};
const ENV_VAR_SOURCE: Layout = {
  type: 'core.EnvVarSource',
  fields: [
    ptr('fieldRef', 'FieldRef', OBJECT_FIELD_SELECTOR),
    ptr('resourceFieldRef', 'ResourceFieldRef', RESOURCE_FIELD_SELECTOR),
    ptr('configMapKeyRef', 'ConfigMapKeyRef', { type: 'core.ConfigMapKeySelector', fields: [LOCAL_REFERENCE, str('key', 'Key'), ptr('optional', 'Optional')] }),
    ptr('secretKeyRef', 'SecretKeyRef', { type: 'core.SecretKeySelector', fields: [LOCAL_REFERENCE, str('key', 'Key'), ptr('optional', 'Optional')] }),
    ptr('fileKeyRef', 'FileKeyRef'),
  ],
};
const ENV_VAR: Layout = { type: 'core.EnvVar', fields: [str('name', 'Name'), str('value', 'Value'), ptr('valueFrom', 'ValueFrom', ENV_VAR_SOURCE)] };
const ENV_FROM: Layout = {
  type: 'core.EnvFromSource',
  fields: [
    str('prefix', 'Prefix'),
    ptr('configMapRef', 'ConfigMapRef', { type: 'core.ConfigMapEnvSource', fields: [LOCAL_REFERENCE, ptr('optional', 'Optional')] }),
    ptr('secretRef', 'SecretRef', { type: 'core.SecretEnvSource', fields: [LOCAL_REFERENCE, ptr('optional', 'Optional')] }),
  ],
};
const VOLUME_MOUNT: Layout = {
  type: 'core.VolumeMount',
  fields: [str('name', 'Name'), f('readOnly', 'ReadOnly', 'bool'), ptr('recursiveReadOnly', 'RecursiveReadOnly'), str('mountPath', 'MountPath'), str('subPath', 'SubPath'), ptr('mountPropagation', 'MountPropagation'), str('subPathExpr', 'SubPathExpr')],
};
const RESOURCE_LIST = (json: string, go: string): Field => f(json, go, 'map', { header: 'core.ResourceList{' });
const RESOURCE_REQUIREMENTS: Layout = {
  type: 'core.ResourceRequirements',
  fields: [RESOURCE_LIST('limits', 'Limits'), RESOURCE_LIST('requests', 'Requests'), slice('claims', 'Claims', { type: 'core.ResourceClaim' })],
};
const CAPABILITIES: Layout = { type: 'core.Capabilities', fields: [slice('add', 'Add', undefined, '[]core.Capability{'), slice('drop', 'Drop', undefined, '[]core.Capability{')] };
const SECURITY_CONTEXT: Layout = {
  type: 'core.SecurityContext',
  fields: [
    ptr('capabilities', 'Capabilities', CAPABILITIES),
    ptr('privileged', 'Privileged'),
    ptr('seLinuxOptions', 'SELinuxOptions'),
    ptr('windowsOptions', 'WindowsOptions'),
    ptr('runAsUser', 'RunAsUser'),
    ptr('runAsGroup', 'RunAsGroup'),
    ptr('runAsNonRoot', 'RunAsNonRoot'),
    ptr('readOnlyRootFilesystem', 'ReadOnlyRootFilesystem'),
    ptr('allowPrivilegeEscalation', 'AllowPrivilegeEscalation'),
    ptr('procMount', 'ProcMount'),
    ptr('seccompProfile', 'SeccompProfile'),
    ptr('appArmorProfile', 'AppArmorProfile'),
  ],
};
const PROBE: Layout = { type: 'core.Probe' };
const CONTAINER: Layout = {
  type: 'core.Container',
  fields: [
    str('name', 'Name'),
    str('image', 'Image'),
    slice('command', 'Command', undefined, STRINGS),
    slice('args', 'Args', undefined, STRINGS),
    str('workingDir', 'WorkingDir'),
    slice('ports', 'Ports', CONTAINER_PORT),
    slice('envFrom', 'EnvFrom', ENV_FROM),
    slice('env', 'Env', ENV_VAR),
    f('resources', 'Resources', 'struct', { of: RESOURCE_REQUIREMENTS }),
    slice('resizePolicy', 'ResizePolicy', { type: 'core.ContainerResizePolicy' }),
    ptr('restartPolicy', 'RestartPolicy'),
    slice('restartPolicyRules', 'RestartPolicyRules', { type: 'core.ContainerRestartRule' }),
    slice('volumeMounts', 'VolumeMounts', VOLUME_MOUNT),
    slice('volumeDevices', 'VolumeDevices', { type: 'core.VolumeDevice' }),
    ptr('livenessProbe', 'LivenessProbe', PROBE),
    ptr('readinessProbe', 'ReadinessProbe', PROBE),
    ptr('startupProbe', 'StartupProbe', PROBE),
    ptr('lifecycle', 'Lifecycle', { type: 'core.Lifecycle' }),
    str('terminationMessagePath', 'TerminationMessagePath'),
    str('terminationMessagePolicy', 'TerminationMessagePolicy'),
    str('imagePullPolicy', 'ImagePullPolicy'),
    ptr('securityContext', 'SecurityContext', SECURITY_CONTEXT),
    f('stdin', 'Stdin', 'bool'),
    f('stdinOnce', 'StdinOnce', 'bool'),
    f('tty', 'TTY', 'bool'),
  ],
};

/** Internal PodSecurityContext: v1 keeps hostNetwork, hostPID, hostIPC, shareProcessNamespace, hostUsers on the spec. */
const POD_SECURITY_MOVED = ['hostNetwork', 'hostPID', 'hostIPC', 'shareProcessNamespace', 'hostUsers'];
const POD_SECURITY_CONTEXT: Layout = {
  type: 'core.PodSecurityContext',
  fields: [
    f('hostNetwork', 'HostNetwork', 'bool'),
    f('hostPID', 'HostPID', 'bool'),
    f('hostIPC', 'HostIPC', 'bool'),
    ptr('shareProcessNamespace', 'ShareProcessNamespace'),
    ptr('hostUsers', 'HostUsers'),
    ptr('seLinuxOptions', 'SELinuxOptions'),
    ptr('windowsOptions', 'WindowsOptions'),
    ptr('runAsUser', 'RunAsUser'),
    ptr('runAsGroup', 'RunAsGroup'),
    ptr('runAsNonRoot', 'RunAsNonRoot'),
    slice('supplementalGroups', 'SupplementalGroups', undefined, '[]int64{'),
    ptr('supplementalGroupsPolicy', 'SupplementalGroupsPolicy'),
    ptr('fsGroup', 'FSGroup'),
    ptr('fsGroupChangePolicy', 'FSGroupChangePolicy'),
    slice('sysctls', 'Sysctls', { type: 'core.Sysctl' }),
    ptr('seccompProfile', 'SeccompProfile'),
    ptr('appArmorProfile', 'AppArmorProfile'),
    ptr('seLinuxChangePolicy', 'SELinuxChangePolicy'),
  ],
};
const TOLERATION: Layout = {
  type: 'core.Toleration',
  fields: [str('key', 'Key'), str('operator', 'Operator'), str('value', 'Value'), str('effect', 'Effect'), ptr('tolerationSeconds', 'TolerationSeconds')],
};

const POD_SPEC: Layout = {
  type: 'core.PodSpec',
  fields: [
    slice('volumes', 'Volumes', VOLUME),
    slice('initContainers', 'InitContainers', CONTAINER),
    slice('containers', 'Containers', CONTAINER),
    slice('ephemeralContainers', 'EphemeralContainers', { type: 'core.EphemeralContainer' }),
    str('restartPolicy', 'RestartPolicy'),
    ptr('terminationGracePeriodSeconds', 'TerminationGracePeriodSeconds'),
    ptr('activeDeadlineSeconds', 'ActiveDeadlineSeconds'),
    str('dnsPolicy', 'DNSPolicy'),
    f('nodeSelector', 'NodeSelector', 'map', { header: 'map[string]string{' }),
    str('serviceAccountName', 'ServiceAccountName'),
    ptr('automountServiceAccountToken', 'AutomountServiceAccountToken'),
    str('nodeName', 'NodeName'),
    ptr('securityContext', 'SecurityContext', POD_SECURITY_CONTEXT),
    slice('imagePullSecrets', 'ImagePullSecrets', OBJECT_REFERENCE),
    str('hostname', 'Hostname'),
    str('subdomain', 'Subdomain'),
    ptr('setHostnameAsFQDN', 'SetHostnameAsFQDN'),
    ptr('affinity', 'Affinity', { type: 'core.Affinity' }),
    str('schedulerName', 'SchedulerName'),
    slice('tolerations', 'Tolerations', TOLERATION),
    slice('hostAliases', 'HostAliases', { type: 'core.HostAlias' }),
    str('priorityClassName', 'PriorityClassName'),
    ptr('priority', 'Priority'),
    ptr('preemptionPolicy', 'PreemptionPolicy'),
    ptr('dnsConfig', 'DNSConfig', { type: 'core.PodDNSConfig' }),
    slice('readinessGates', 'ReadinessGates', { type: 'core.PodReadinessGate' }),
    ptr('runtimeClassName', 'RuntimeClassName'),
    RESOURCE_LIST('overhead', 'Overhead'),
    ptr('enableServiceLinks', 'EnableServiceLinks'),
    slice('topologySpreadConstraints', 'TopologySpreadConstraints', { type: 'core.TopologySpreadConstraint' }),
    ptr('os', 'OS', { type: 'core.PodOS' }),
    slice('schedulingGates', 'SchedulingGates', { type: 'core.PodSchedulingGate' }),
    slice('resourceClaims', 'ResourceClaims', { type: 'core.PodResourceClaim' }),
    ptr('resources', 'Resources', RESOURCE_REQUIREMENTS),
    ptr('hostnameOverride', 'HostnameOverride'),
  ],
};

/** Members of types not described here that are maps (printed `{"key": value}`), by json name. */
const MAP_MEMBERS = new Set(['labels', 'annotations', 'matchLabels', 'nodeSelector', 'limits', 'requests', 'volumeAttributes', 'nodePublishSecretRef', 'options']);

/** The Go name of a json member of a type not described here (`httpGet` → `HTTPGet`; common initialisms only). */
function goName(key: string): string {
  const initialisms: Record<string, string> = {
    apiVersion: 'APIVersion', uid: 'UID', ip: 'IP', httpGet: 'HTTPGet', tcpSocket: 'TCPSocket', grpc: 'GRPC',
    fsType: 'FSType', seLinuxOptions: 'SELinuxOptions', gmsaCredentialSpec: 'GMSACredentialSpec',
    gmsaCredentialSpecName: 'GMSACredentialSpecName',
  };
  return initialisms[key] ?? key.charAt(0).toUpperCase() + key.slice(1);
}

/** The fields of a value: its layout's, then (or, without one) its other json members as plain fields. */
function fieldsOf(layout: Layout | undefined, ...values: (Json | undefined)[]): Field[] {
  const fields = [...(layout?.fields ?? [])];
  const taken = new Set(fields.flatMap((field) => (field.embed === undefined ? [field.json] : field.embed === 'rest' ? [] : [...field.embed])));
  if (fields.some((field) => field.embed === 'rest')) return fields;
  const extra = new Set<string>();
  for (const value of values) if (isObject(value)) for (const key of Object.keys(value)) if (!taken.has(key)) extra.add(key);
  for (const key of extra) fields.push(f(key, goName(key), MAP_MEMBERS.has(key) ? 'map' : 'struct'));
  return fields;
}

/** The json value a field stands for in its parent (an embedded struct gathers its members). */
function memberOf(parent: Json | undefined, field: Field, layout: Layout | undefined): Json | undefined {
  if (!isObject(parent)) return undefined;
  if (field.embed === undefined) return parent[field.json];
  const keys =
    field.embed === 'rest'
      ? Object.keys(parent).filter((k) => !(layout?.fields ?? []).some((other) => other !== field && other.embed === undefined && other.json === k))
      : field.embed;
  const out: JsonObject = {};
  for (const key of keys) if (parent[key] !== undefined) out[key] = parent[key] ?? null;
  return Object.keys(out).length > 0 ? out : undefined;
}

function isZero(value: Json | undefined, kind: GoKind): boolean {
  if (value === undefined || value === null) return true;
  if (kind === 'string') return value === '';
  if (kind === 'int') return value === 0;
  if (kind === 'bool') return value === false;
  if (kind === 'slice' || kind === 'map') return (Array.isArray(value) && value.length === 0) || (isObject(value) && Object.keys(value).length === 0);
  return false;
}

/** go-cmp's one-line form of a value: `{Name: "x", Image: "y"}`, zero members left out. */
function literal(value: Json | undefined, layout?: Layout, kind: GoKind = 'struct'): string {
  if (value === undefined || value === null) return 'nil';
  if (typeof value === 'string') return goQuote(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `{${value.map((item) => literal(item, layout)).join(', ')}}`;
  if (kind === 'map') {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${goQuote(key)}: ${literal(value[key])}`).join(', ')}}`;
  }
  const parts: string[] = [];
  for (const field of fieldsOf(layout, value)) {
    const member = memberOf(value, field, layout);
    if (isZero(member, field.kind)) continue;
    parts.push(`${field.go}: ${fieldLiteral(member, field)}`);
  }
  return `{${parts.join(', ')}}`;
}

/** A field's value on one line, its Go zero value when unset. */
function fieldLiteral(value: Json | undefined, field: Field): string {
  if (value === undefined || value === null) {
    return { string: '""', int: '0', bool: 'false', pointer: 'nil', slice: 'nil', map: 'nil', struct: '{}' }[field.kind];
  }
  return `${field.kind === 'pointer' ? '&' : ''}${literal(value, field.of, field.kind === 'map' ? 'map' : 'struct')}`;
}

/** One report line before layout. */
interface Line {
  marker: '  ' | '- ' | '+ ';
  depth: number;
  key?: string;
  text: string;
  /** The opening or closing line of an expanded record: breaks key alignment. */
  block?: boolean;
  ellipsis?: boolean;
}

interface Entry {
  equal: boolean;
  lines: Line[];
}

function headerOf(field: Field | undefined): string {
  if (!field) return '{';
  if (field.header) return field.header;
  const type = field.of?.type;
  if (field.kind === 'slice') return type ? `[]${type}{` : '{';
  if (field.kind === 'pointer') return type ? `&${type}{` : '&{';
  return type ? `${type}{` : '{';
}

/** The record of one field, element or entry: identical (one line), changed (a `-` and a `+` line) or expanded. */
function diffEntry(key: string | undefined, a: Json | undefined, b: Json | undefined, depth: number, field: Field | undefined, elementLayout?: Layout): Entry {
  const one = (value: Json | undefined): string => (field ? fieldLiteral(value, field) : literal(value, elementLayout));
  if (semanticEqualAs(undefined, a, b)) return { equal: true, lines: [{ marker: '  ', depth, key, text: `${one(a)},` }] };
  const kind = field?.kind ?? 'struct';
  let inner: Line[] | undefined;
  if (isObject(a) && isObject(b)) {
    inner = kind === 'map' ? diffMap(a, b, depth + 1) : diffStruct(a, b, depth + 1, field ? field.of : elementLayout);
  } else if (Array.isArray(a) && Array.isArray(b)) {
    inner = diffList(a, b, depth + 1, field?.of);
  }
  if (!inner) return { equal: false, lines: [{ marker: '- ', depth, key, text: `${one(a)},` }, { marker: '+ ', depth, key, text: `${one(b)},` }] };
  return { equal: false, lines: [{ marker: '  ', depth, key, text: headerOf(field), block: true }, ...inner, { marker: '  ', depth, text: '},', block: true }] };
}

/** go-cmp's grouping: two records of context on each side of a difference, the rest elided. */
function withContext(entries: Entry[], depth: number, noun: 'field' | 'element' | 'entry'): Line[] {
  const lines: Line[] = [];
  let i = 0;
  while (i < entries.length) {
    const entry = entries[i];
    if (entry && !entry.equal) {
      lines.push(...entry.lines);
      i++;
      continue;
    }
    let j = i;
    while (j < entries.length && entries[j]?.equal) j++;
    const run = entries.slice(i, j);
    const lo = i === 0 ? 0 : Math.min(2, run.length);
    let hi = j === entries.length ? 0 : Math.min(2, run.length - lo);
    if (run.length - lo - hi === 1) hi++; // go-cmp does not elide a single record
    lines.push(...run.slice(0, lo).flatMap((r) => r.lines));
    const elided = run.length - lo - hi;
    if (elided > 0) {
      const plural = noun === 'entry' ? (elided === 1 ? 'entry' : 'entries') : `${noun}${elided === 1 ? '' : 's'}`;
      lines.push({ marker: '  ', depth, text: `... // ${elided} identical ${plural}`, ellipsis: true });
    }
    lines.push(...run.slice(run.length - hi).flatMap((r) => r.lines));
    i = j;
  }
  return lines;
}

function diffStruct(a: JsonObject, b: JsonObject, depth: number, layout: Layout | undefined): Line[] {
  const entries = fieldsOf(layout, a, b).map((field) => diffEntry(`${field.go}:`, memberOf(a, field, layout), memberOf(b, field, layout), depth, field));
  return withContext(entries, depth, 'field');
}

function diffMap(a: JsonObject, b: JsonObject, depth: number): Line[] {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  const entries = keys.map((key): Entry => {
    const label = `${goQuote(key)}:`;
    if (!(key in b)) return { equal: false, lines: [{ marker: '- ', depth, key: label, text: `${literal(a[key])},` }] };
    if (!(key in a)) return { equal: false, lines: [{ marker: '+ ', depth, key: label, text: `${literal(b[key])},` }] };
    return diffEntry(label, a[key], b[key], depth, undefined);
  });
  return withContext(entries, depth, 'entry');
}

/** Lists: element by element when the lengths match, else by a longest-common-subsequence edit script. */
function diffList(a: Json[], b: Json[], depth: number, layout: Layout | undefined): Line[] {
  if (a.length === b.length) return withContext(a.map((item, i) => diffEntry(undefined, item, b[i], depth, undefined, layout)), depth, 'element');
  const common: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      const row = common[i] as number[];
      row[j] = semanticEqualAs(undefined, a[i], b[j]) ? (common[i + 1]?.[j + 1] ?? 0) + 1 : Math.max(common[i + 1]?.[j] ?? 0, row[j + 1] ?? 0);
    }
  }
  const entries: Entry[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && semanticEqualAs(undefined, a[i], b[j])) {
      entries.push({ equal: true, lines: [{ marker: '  ', depth, text: `${literal(a[i], layout)},` }] });
      i++;
      j++;
    } else if (j < b.length && (i >= a.length || (common[i]?.[j + 1] ?? 0) >= (common[i + 1]?.[j] ?? 0))) {
      entries.push({ equal: false, lines: [{ marker: '+ ', depth, text: `${literal(b[j], layout)},` }] });
      j++;
    } else {
      entries.push({ equal: false, lines: [{ marker: '- ', depth, text: `${literal(a[i], layout)},` }] });
      i++;
    }
  }
  return withContext(entries, depth, 'element');
}

/** Lays the lines out: keys padded to the widest key of each run of one-line records at one depth. */
function render(lines: Line[]): string {
  const widths: number[] = new Array<number>(lines.length).fill(0);
  let start = 0;
  const close = (end: number): void => {
    const width = Math.max(0, ...lines.slice(start, end).map((l) => (l.key !== undefined && !l.block ? l.key.length : 0)));
    for (let i = start; i < end; i++) widths[i] = width;
    start = end;
  };
  lines.forEach((line, i) => {
    const prev = lines[i - 1];
    if (i > start && (line.block || line.ellipsis || prev?.block || prev?.ellipsis || prev?.depth !== line.depth)) close(i);
  });
  close(lines.length);
  return lines
    .map((line, i) => {
      const tabs = '\t'.repeat(line.depth);
      if (line.key === undefined) return `${line.marker}${tabs}${line.text}`;
      const pad = line.block ? ' ' : ' '.repeat((widths[i] ?? 0) - line.key.length + 1);
      return `${line.marker}${tabs}${line.key}${pad}${line.text}`;
    })
    .join('\n');
}

/** The pod spec in the internal shape: host namespaces live in the pod security context; no serviceAccount alias. */
function internalSpec(spec: JsonObject): JsonObject {
  const out: JsonObject = { ...spec };
  const moved = POD_SECURITY_MOVED.filter((k) => spec[k] !== undefined && spec[k] !== null && spec[k] !== false);
  const context = isObject(spec.securityContext) ? spec.securityContext : undefined;
  if (moved.length > 0 || context) {
    const merged: JsonObject = {};
    for (const key of moved) merged[key] = spec[key] ?? null;
    out.securityContext = { ...merged, ...(context ?? {}) };
  }
  for (const key of POD_SECURITY_MOVED) delete out[key];
  delete out.serviceAccount;
  return out;
}

/** `cmp.Diff(old, new)` for two pod specs, approximated (see the module comment). */
export function podSpecDiff(old: JsonObject, updated: JsonObject): string {
  const lines = diffStruct(internalSpec(old), internalSpec(updated), 1, POD_SPEC);
  return `${render([{ marker: '  ', depth: 0, text: 'core.PodSpec{', block: true }, ...lines, { marker: '  ', depth: 0, text: '}', block: true }])}\n`;
}
