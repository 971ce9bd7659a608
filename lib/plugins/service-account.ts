import type { KubeObject, Status } from '../kube/admission';
import { unknownError } from '../kube/status';
import { goQuote } from '../go/strconv';
import type { AdmissionAttributes } from '../kube/attributes';
import { isRecord } from '../kube/json';
import { listAt, objectAt, stringAt, type JsonRecord } from '../kube/record';
import { acts, notInvolved, type Involvement } from './involved';
import { isPodCreate, type PluginAttributes, type PluginCluster } from './plugin';
import { pluginForbidden, refusingPlugin } from './refusing-plugin';

// Hand-written after plugin/pkg/admission/serviceaccount/admission.go: the texts and the order of its
// checks are what a webhook author greps for, and no library carries them.
const DEFAULT_ACCOUNT = 'default';
const VOLUME_PREFIX = 'kube-api-access-';
const MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
// The kubelet's annotation on a static pod's API copy.
const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';

/** Whether `object` is a mirror pod: the API's copy of a static pod, which the plugin only checks. */
export function isMirrorPod(object: unknown): boolean {
  return isRecord(object) && objectAt(objectAt(object as JsonRecord, 'metadata'), 'annotations')[MIRROR_POD_ANNOTATION] !== undefined;
}
const ENFORCE_MOUNTABLE_SECRETS = 'kubernetes.io/enforce-mountable-secrets';

/** What the plugin reads of a ServiceAccount. */
export interface ServiceAccountView {
  name: string;
  automountServiceAccountToken?: boolean;
  imagePullSecrets: string[];
  /** `secrets[].name`: what a pod may reference when the account enforces mountable secrets. */
  secrets: string[];
  enforceMountableSecrets: boolean;
}

/** strconv.ParseBool: what the enforce-mountable-secrets annotation accepts as true. */
const GO_TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);

function accountView(object: KubeObject): ServiceAccountView {
  const record = object as JsonRecord;
  const names = (key: string) => listAt(record, key).map((ref) => stringAt(ref, 'name') ?? '');
  const automount = record.automountServiceAccountToken;
  return {
    name: object.metadata?.name ?? '',
    ...(typeof automount === 'boolean' ? { automountServiceAccountToken: automount } : {}),
    imagePullSecrets: names('imagePullSecrets'),
    secrets: names('secrets'),
    enforceMountableSecrets: GO_TRUE.has(object.metadata?.annotations?.[ENFORCE_MOUNTABLE_SECRETS] ?? ''),
  };
}

/**
 * getServiceAccount: the stored account of that name in the pod's namespace. The mock cluster's
 * store holds each namespace's `default` (lib/mockapi/store.ts, as the ServiceAccount controller
 * creates it), so a test seeds only the others. Without a cluster (the review builders) every
 * account exists, unchanged.
 */
export function findServiceAccount(cluster: PluginCluster | undefined, namespace: string, name: string): ServiceAccountView | undefined {
  if (!cluster) return { name, imagePullSecrets: [], secrets: [], enforceMountableSecrets: false };
  // A pod always has a namespace; listing '' would read every namespace's accounts.
  if (namespace === '') return undefined;
  const stored = cluster.get('v1', 'ServiceAccount', namespace, name);
  return stored && accountView(stored);
}

/** The Forbidden cause of an account that is not there (errors.NewNotFound on the `serviceaccount` resource). */
export function lookupFailure(namespace: string, name: string): string {
  return `error looking up service account ${namespace}/${name}: serviceaccount ${goQuote(name)} not found`;
}

/** The projected volume the plugin adds: a bound token, the cluster CA and the pod's namespace (TokenVolumeSource). */
function tokenVolume(name: string): JsonRecord {
  return {
    name,
    projected: {
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ],
      defaultMode: 420,
    },
  };
}

/** Containers without a mount at the token path get one; reports whether any did. */
function mountInto(containers: readonly JsonRecord[], volumeName: string): { containers: JsonRecord[]; mounted: boolean } {
  let mounted = false;
  const result = containers.map((container) => {
    const mounts = listAt(container, 'volumeMounts');
    // An existing mount at the default path keeps the token out of that container.
    if (mounts.some((m) => m.mountPath === MOUNT_PATH)) return container;
    mounted = true;
    return { ...container, volumeMounts: [...mounts, { name: volumeName, readOnly: true, mountPath: MOUNT_PATH }] };
  });
  return { containers: result, mounted };
}

/** mountServiceAccountToken: the `kube-api-access-*` volume (added once) mounted into every init and app container. */
function mountToken(spec: JsonRecord, randomSuffix: (length: number) => string): JsonRecord | undefined {
  const volumes = listAt(spec, 'volumes');
  const existing = volumes.find((v) => String(v.name ?? '').startsWith(VOLUME_PREFIX));
  const volumeName = existing ? String(existing.name) : `${VOLUME_PREFIX}${randomSuffix(5)}`;
  const init = mountInto(listAt(spec, 'initContainers'), volumeName);
  const app = mountInto(listAt(spec, 'containers'), volumeName);
  if (!init.mounted && !app.mounted) return undefined;
  return {
    ...spec,
    ...(init.mounted ? { initContainers: init.containers } : {}),
    ...(app.mounted ? { containers: app.containers } : {}),
    ...(existing ? {} : { volumes: [...volumes, tokenVolume(volumeName)] }),
  };
}

/**
 * Why Validate refuses: `forbidden` is wrapped in admission.NewForbidden (403 `pods "x" is
 * forbidden: …`); `plain` is returned bare, which the apiserver answers as a 500 with the text alone
 * (limitEphemeralContainerSecretReferences' secret checks).
 */
type Refusal = { forbidden: string } | { plain: string };

/** The account a pod names: `serviceAccountName`, else the deprecated `serviceAccount` the v1 conversion reads. */
function accountName(spec: JsonRecord): string {
  return stringAt(spec, 'serviceAccountName') || stringAt(spec, 'serviceAccount') || '';
}

// The volume sources that name a Secret, and where (podutil.VisitPodSecretNames).
const SECRET_REF_VOLUMES = ['azureFile', 'cephfs', 'cinder', 'flexVolume', 'rbd', 'scaleIO', 'iscsi', 'storageos', 'csi'];

/** Whether the pod references any Secret (podutil.VisitPodSecretNames over every container). */
function referencesSecrets(spec: JsonRecord): boolean {
  if (listAt(spec, 'imagePullSecrets').length > 0) return true;
  for (const key of ['initContainers', 'containers', 'ephemeralContainers']) {
    for (const container of listAt(spec, key)) {
      if (listAt(container, 'envFrom').some((from) => isRecord(from.secretRef))) return true;
      if (listAt(container, 'env').some((env) => isRecord(objectAt(env, 'valueFrom').secretKeyRef))) return true;
    }
  }
  return listAt(spec, 'volumes').some((volume) => {
    if (isRecord(volume.secret)) return true;
    if (listAt(objectAt(volume, 'projected'), 'sources').some((source) => isRecord(source.secret))) return true;
    return SECRET_REF_VOLUMES.some((source) => {
      const at = objectAt(volume, source);
      return stringAt(at, 'secretName') !== undefined || isRecord(at.secretRef) || isRecord(at.nodePublishSecretRef);
    });
  });
}

/** Validate for a mirror pod: it may reference no account, no secret and no token projection. */
export function mirrorPodCause(spec: JsonRecord): string | undefined {
  if (accountName(spec)) return 'a mirror pod may not reference service accounts';
  if (referencesSecrets(spec)) return 'a mirror pod may not reference secrets';
  const projectsToken = listAt(spec, 'volumes').some((volume) =>
    listAt(objectAt(volume, 'projected'), 'sources').some((source) => isRecord(source.serviceAccountToken)),
  );
  return projectsToken ? 'a mirror pod may not use ServiceAccountToken volume projections' : undefined;
}

/** The secret references of some containers (`what`: "init container", "container", "ephemeral container") the account does not list. */
function containerSecretCause(containers: readonly JsonRecord[], what: string, allowed: ReadonlySet<string>, account: string): string | undefined {
  for (const container of containers) {
    const name = stringAt(container, 'name') ?? '';
    for (const env of listAt(container, 'env')) {
      const ref = objectAt(objectAt(env, 'valueFrom'), 'secretKeyRef');
      if (!isRecord(objectAt(env, 'valueFrom').secretKeyRef)) continue;
      const secret = stringAt(ref, 'name') ?? '';
      if (!allowed.has(secret))
        return `${what} ${name} with envVar ${stringAt(env, 'name') ?? ''} referencing secret.secretName="${secret}" is not allowed because service account ${account} does not reference that secret`;
    }
    for (const from of listAt(container, 'envFrom')) {
      if (!isRecord(from.secretRef)) continue;
      const secret = stringAt(objectAt(from, 'secretRef'), 'name') ?? '';
      if (!allowed.has(secret))
        return `${what} ${name} with envFrom referencing secret.secretName="${secret}" is not allowed because service account ${account} does not reference that secret`;
    }
  }
  return undefined;
}

/** limitSecretReferences: secret volumes, init and app containers' env, image pull secrets, in that order. */
function mountableSecretsCause(spec: JsonRecord, account: ServiceAccountView): string | undefined {
  const allowed = new Set(account.secrets);
  for (const volume of listAt(spec, 'volumes')) {
    if (!isRecord(volume.secret)) continue;
    const secret = stringAt(objectAt(volume, 'secret'), 'secretName') ?? '';
    if (!allowed.has(secret))
      return `volume with secret.secretName="${secret}" is not allowed because service account ${account.name} does not reference that secret`;
  }
  const inContainers =
    containerSecretCause(listAt(spec, 'initContainers'), 'init container', allowed, account.name) ??
    containerSecretCause(listAt(spec, 'containers'), 'container', allowed, account.name);
  if (inContainers) return inContainers;
  const pullable = new Set(account.imagePullSecrets);
  for (const [i, ref] of listAt(spec, 'imagePullSecrets').entries()) {
    const secret = stringAt(ref, 'name') ?? '';
    if (!pullable.has(secret))
      return `imagePullSecrets[${i}].name="${secret}" is not allowed because service account ${account.name} does not reference that imagePullSecret`;
  }
  return undefined;
}

const isPod = (attributes: PluginAttributes) => attributes.resource.group === '' && attributes.resource.resource === 'pods';

/** The attributes and the object the plugin sees. */
type PodRequest = PluginAttributes & { object?: unknown };

/** A mirror pod is only checked: what it references decides, from the object alone. */
function mirrorPodInvolvement(object: JsonRecord): Involvement {
  const cause = mirrorPodCause(objectAt(object, 'spec'));
  return cause
    ? { involved: true, refuses: true, reason: `${cause} (403): the request stops here` }
    : acts('a mirror pod: only checks it references no service account, secret or token volume');
}

/** ServiceAccount's `Admit` acts on pod creates. */
export function serviceAccountMutationInvolvement(attributes: PodRequest): Involvement {
  if (!isPodCreate(attributes)) return notInvolved('handles only pod creates');
  if (isMirrorPod(attributes.object)) return mirrorPodInvolvement(attributes.object as JsonRecord);
  return acts('defaults serviceAccountName, requires the account to exist, mounts the kube-api-access token volume');
}

/** ServiceAccount's `Validate` acts on pod creates, and on updates of pods/ephemeralcontainers. */
export function serviceAccountValidationInvolvement(attributes: PodRequest): Involvement {
  if (!isPod(attributes)) return notInvolved('handles only pods');
  const { operation, subResource } = attributes;
  if (subResource !== '' && subResource !== 'ephemeralcontainers') return notInvolved(`pods/${subResource} is not checked`);
  if (operation === 'UPDATE' && subResource === 'ephemeralcontainers') {
    return acts("the pod's service account must exist and, if it enforces mountable secrets, the ephemeral containers use only its secrets");
  }
  if (operation !== 'CREATE') return notInvolved('handles only pod creates and pods/ephemeralcontainers updates');
  if (isMirrorPod(attributes.object)) return mirrorPodInvolvement(attributes.object as JsonRecord);
  return acts(
    'the account the pod names must exist (a webhook that renames it is refused) and, if it enforces mountable secrets, the pod uses only its secrets',
  );
}

/**
 * The plugin's `Validate`, which `Admit` ends with and the validation phase runs again on the object
 * the webhooks left: a pod create must name an account that exists (a webhook that renames it is
 * refused here) and, when the account enforces mountable secrets, reference only its secrets; an
 * update of `ephemeralcontainers` is held to the same for its ephemeral containers; mirror pods may
 * reference neither accounts nor secrets.
 */
function validateRefusal(attributes: PluginAttributes, object: JsonRecord, cluster: PluginCluster | undefined): Refusal | undefined {
  const spec = objectAt(object, 'spec');
  const namespace = attributes.namespace ?? '';
  const ephemeral = attributes.operation === 'UPDATE' && attributes.subResource === 'ephemeralcontainers';
  if (!ephemeral && attributes.operation !== 'CREATE') return undefined;
  const forbidden = (cause: string | undefined) => (cause === undefined ? undefined : { forbidden: cause });
  if (!ephemeral && isMirrorPod(object)) return forbidden(mirrorPodCause(spec));
  const name = accountName(spec);
  if (name === '') return forbidden(`no service account specified for pod ${namespace}/${stringAt(objectAt(object, 'metadata'), 'name') ?? ''}`);
  const account = findServiceAccount(cluster, namespace, name);
  if (!account) return forbidden(lookupFailure(namespace, name));
  if (!account.enforceMountableSecrets) return undefined;
  if (!ephemeral) return forbidden(mountableSecretsCause(spec, account));
  const plain = containerSecretCause(listAt(spec, 'ephemeralContainers'), 'ephemeral container', new Set(account.secrets), account.name);
  return plain === undefined ? undefined : { plain };
}

function refusalStatus(attributes: PluginAttributes, object: JsonRecord, refusal: Refusal): Status {
  return 'plain' in refusal ? unknownError(refusal.plain) : pluginForbidden(attributes, object, refusal.forbidden);
}

/**
 * ServiceAccount (plugin/pkg/admission/serviceaccount), second in the mutation phase, on pod create:
 * `serviceAccountName` defaults to `default`; the account must exist in the pod's namespace (403
 * `error looking up service account <ns>/<name>: serviceaccount "<name>" not found`); unless the pod,
 * else the account, sets automountServiceAccountToken false, every init and app container mounts the
 * `kube-api-access-<random>` projected volume, added once; a pod without imagePullSecrets gets the
 * account's. Re-run in the reinvocation round, it mounts the existing volume into containers added
 * since (fixtures/apiserver-outcomes/sidecar-defaulting.json). Mirror pods are only validated.
 */
export const serviceAccount = refusingPlugin('ServiceAccount', ({ attributes, object, randomSuffix, cluster }) => {
  if (!serviceAccountMutationInvolvement({ ...attributes, object }).involved) return {};
  const refuse = (cause: string) => ({ refusal: pluginForbidden(attributes, object, cause) });
  if (isMirrorPod(object)) {
    const cause = mirrorPodCause(objectAt(object, 'spec'));
    return cause ? refuse(cause) : {};
  }
  let spec = objectAt(object, 'spec');
  let changed = false;
  // The internal pod's ServiceAccountName, which the v1 conversion fills from the deprecated field;
  // converted back, both fields carry it.
  const name = accountName(spec) || DEFAULT_ACCOUNT;
  if (stringAt(spec, 'serviceAccountName') !== name) {
    spec = { ...spec, serviceAccountName: name, serviceAccount: name };
    changed = true;
  }
  const namespace = attributes.namespace ?? '';
  const account = findServiceAccount(cluster, namespace, name);
  if (!account) return { ...refuse(lookupFailure(namespace, name)), missing: { kind: 'ServiceAccount', namespace, name } };
  const automount = typeof spec.automountServiceAccountToken === 'boolean' ? spec.automountServiceAccountToken : (account.automountServiceAccountToken ?? true);
  const mounted = automount ? mountToken(spec, randomSuffix) : undefined;
  if (mounted) {
    spec = mounted;
    changed = true;
  }
  if (listAt(spec, 'imagePullSecrets').length === 0 && account.imagePullSecrets.length > 0) {
    spec = { ...spec, imagePullSecrets: account.imagePullSecrets.map((secret) => ({ name: secret })) };
    changed = true;
  }
  const result = changed ? { ...object, spec } : object;
  const refusal = validateRefusal(attributes, result, cluster);
  if (refusal) return { refusal: refusalStatus(attributes, result, refusal) };
  return changed ? { object: result } : {};
});

/** ServiceAccount `Validate` in the validation phase (after LimitRanger, before PodSecurity). */
export function serviceAccountValidate(attributes: AdmissionAttributes, cluster: PluginCluster): Status | undefined {
  if (!serviceAccountValidationInvolvement(attributes).involved || !isRecord(attributes.object)) return undefined;
  const object = attributes.object as JsonRecord;
  const refusal = validateRefusal(attributes, object, cluster);
  return refusal && refusalStatus(attributes, object, refusal);
}
