import type { Gen } from './faker';
import { containerNameFor, resources, sidecar, workloadFor } from './images';
import type { JsonObject } from './json';
import { appName, dnsLabel } from './names';

/** One application, as its objects label and select it (the recommended `app.kubernetes.io/*` labels). */
export interface App {
  name: string;
  /** Labels on its objects and pods. */
  labels: Record<string, string>;
  /** The subset that selects its pods, which never changes across versions. */
  selector: Record<string, string>;
}

// What a Helm release adds besides the recommended labels.
function chartLabels(gen: Gen, name: string, version: string): Record<string, string> {
  return gen.chance(0.4) ? { 'app.kubernetes.io/managed-by': 'Helm', 'helm.sh/chart': dnsLabel(`${name}-${version.replace(/\./g, '-')}`, 63) } : {};
}

export function app(gen: Gen, name = appName(gen), version = `${gen.int(0, 4)}.${gen.int(0, 30)}.${gen.int(0, 20)}`): App {
  const instance = gen.chance(0.5) ? name : dnsLabel(`${name}-${gen.pick(['prod', 'blue', 'green', 'canary', 'main'])}`, 63);
  const selector = { 'app.kubernetes.io/name': name, 'app.kubernetes.io/instance': instance };
  const labels = {
    ...selector,
    'app.kubernetes.io/version': version,
    ...(gen.chance(0.6) ? { 'app.kubernetes.io/component': gen.pick(['server', 'backend', 'frontend', 'worker', 'database', 'cache']) } : {}),
    ...(gen.chance(0.4) ? { 'app.kubernetes.io/part-of': dnsLabel(gen.faker.word.noun(), 30) } : {}),
    ...chartLabels(gen, name, version),
  };
  return { name, labels, selector };
}

const RESTRICTED_CONTAINER = { capabilities: { drop: ['ALL'] }, runAsNonRoot: true, readOnlyRootFilesystem: true, allowPrivilegeEscalation: false };

/** A realistic main container for `name`, its volumes, and the app version it runs. */
function mainContainer(gen: Gen, name: string): { container: JsonObject; volumes: JsonObject[]; version: string } {
  const workload = workloadFor(gen, name);
  const hardened = gen.chance(0.6);
  const config = gen.chance(0.4);
  const mounts = [
    ...(config ? [{ name: 'config', mountPath: `/etc/${name}`, readOnly: true }] : []),
    ...(hardened ? [{ name: 'tmp', mountPath: '/tmp' }] : []),
  ];
  const container: JsonObject = {
    name: containerNameFor(name),
    image: workload.image,
    ...(workload.args ? { args: workload.args } : {}),
    ...(workload.ports.length > 0 ? { ports: workload.ports } : {}),
    ...(workload.env.length > 0 ? { env: workload.env } : {}),
    ...(gen.chance(0.75) ? { resources: resources(gen) } : {}),
    ...(mounts.length > 0 ? { volumeMounts: mounts } : {}),
    ...workload.probes,
    ...(hardened ? { securityContext: RESTRICTED_CONTAINER } : {}),
  };
  const volumes = [...(config ? [{ name: 'config', configMap: { name: `${name}-config` } }] : []), ...(hardened ? [{ name: 'tmp', emptyDir: {} }] : [])];
  return { container, volumes, version: workload.version };
}

/**
 * A pod spec as a manifest writes it (defaults come later). With `images`, one bare container per
 * image, as a minimal manifest has; otherwise a realistic application with sidecars, probes,
 * resources and security settings that vary with the seed.
 */
export function podSpecFor(gen: Gen, name: string, images?: readonly string[]): { spec: JsonObject; version?: string } {
  if (images) {
    const names = new Map<string, number>();
    const containers = images.map((image) => {
      const base = containerNameFor(image);
      const seen = names.get(base) ?? 0;
      names.set(base, seen + 1);
      return { name: seen === 0 ? base : `${base}-${seen}`, image };
    });
    return { spec: { containers } };
  }
  const main = mainContainer(gen, name);
  const sidecars = gen.chance(0.25) ? [sidecar(gen)] : [];
  const hardened = gen.chance(0.6);
  const spec: JsonObject = {
    ...(main.volumes.length > 0 ? { volumes: main.volumes } : {}),
    ...(gen.chance(0.2) ? { initContainers: [{ name: 'migrate', image: String(main.container.image), args: ['migrate', 'up'] }] } : {}),
    containers: [main.container, ...sidecars],
    ...(gen.chance(0.3) ? { nodeSelector: { 'kubernetes.io/os': 'linux' } } : {}),
    // Half the apps name their account explicitly. Only `default`, which every namespace of the mock
    // cluster has: the ServiceAccount plugin refuses a pod naming an account the cluster lacks, and a
    // generated pod must be one the default harness admits.
    ...(gen.chance(0.5) ? { serviceAccountName: 'default' } : {}),
    ...(hardened ? { securityContext: { runAsUser: 10001, runAsNonRoot: true, fsGroup: 10001, seccompProfile: { type: 'RuntimeDefault' } } } : {}),
    ...(gen.chance(0.2) ? { imagePullSecrets: [{ name: 'regcred' }] } : {}),
  };
  return { spec, version: main.version };
}
