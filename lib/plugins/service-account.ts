import { listAt, objectAt, stringAt, type JsonRecord } from '../kube/record';
import { isPodCreate, type MutationPlugin } from './plugin';

const VOLUME_PREFIX = 'kube-api-access-';
const MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';

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
function mountInto(containers: JsonRecord[], volumeName: string): { containers: JsonRecord[]; mounted: boolean } {
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

/**
 * ServiceAccount (plugin/pkg/admission/serviceaccount), mutation on pod create: `serviceAccountName`
 * defaults to `default`, and unless the pod (or its account) opts out every init and app container
 * mounts the `kube-api-access-<random>` projected volume, added once. Re-run in the reinvocation
 * round, it mounts the existing volume into containers added since (fixtures/apiserver-outcomes/
 * sidecar-defaulting.json). The account is taken to exist with automountServiceAccountToken unset.
 */
export const serviceAccount: MutationPlugin = {
  name: 'ServiceAccount',
  admit({ attributes, object, randomSuffix }) {
    if (!isPodCreate(attributes)) return undefined;
    if (objectAt(objectAt(object, 'metadata'), 'annotations')[MIRROR_POD_ANNOTATION] !== undefined) return undefined;
    let spec = objectAt(object, 'spec');
    let changed = false;
    if (!stringAt(spec, 'serviceAccountName')) {
      spec = { ...spec, serviceAccountName: 'default', serviceAccount: 'default' };
      changed = true;
    }
    if (spec.automountServiceAccountToken !== false) {
      const volumes = listAt(spec, 'volumes');
      const existing = volumes.find((v) => String(v.name ?? '').startsWith(VOLUME_PREFIX));
      const volumeName = existing ? String(existing.name) : `${VOLUME_PREFIX}${randomSuffix(5)}`;
      const init = mountInto(listAt(spec, 'initContainers'), volumeName);
      const app = mountInto(listAt(spec, 'containers'), volumeName);
      if (init.mounted || app.mounted) {
        spec = {
          ...spec,
          ...(init.mounted ? { initContainers: init.containers } : {}),
          ...(app.mounted ? { containers: app.containers } : {}),
          ...(existing ? {} : { volumes: [...volumes, tokenVolume(volumeName)] }),
        };
        changed = true;
      }
    }
    return changed ? { ...object, spec } : undefined;
  },
};
