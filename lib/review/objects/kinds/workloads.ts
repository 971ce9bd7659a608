import type { DaemonSet, Deployment, ReplicaSet, StatefulSet } from 'kubernetes-types/apps/v1.js';
import { app, podSpecFor, type App } from '../app';
import type { Gen } from '../faker';
import { generator, metadataOf, type WorkloadShortcuts } from '../generate';
import { isObject, listAt, objectAt, type JsonObject } from '../json';
import { appName } from '../names';
import { replicaSetFrom, storedOwner } from '../owner';
import type { OwnedOptions } from './pod';

/** The name, labels and pod template every workload kind starts from. */
export interface WorkloadBase {
  name: string;
  app: App;
  podMetadata: JsonObject;
  podSpec: JsonObject;
  selector: JsonObject;
}

export function workloadBase(gen: Gen, shortcuts: WorkloadShortcuts, name = shortcuts.name ?? appName(gen)): WorkloadBase {
  const { spec, version } = podSpecFor(gen, name, shortcuts.images);
  const application = app(gen, name, version);
  const annotations = gen.chance(0.3) ? { 'prometheus.io/scrape': 'true', 'prometheus.io/port': '9090' } : undefined;
  return {
    name,
    app: application,
    podMetadata: { labels: shortcuts.labels ?? application.labels, ...(annotations ? { annotations } : {}) },
    podSpec: spec,
    selector: { matchLabels: shortcuts.labels ?? application.selector },
  };
}

function metadataFor(shortcuts: WorkloadShortcuts, base: WorkloadBase): JsonObject {
  return metadataOf(shortcuts, { name: base.name, namespace: 'default', labels: base.app.labels });
}

export const deployment = generator<Deployment, WorkloadShortcuts>((gen, shortcuts) => {
  const base = workloadBase(gen, shortcuts);
  const strategy = gen.chance(0.3)
    ? { strategy: gen.pick([{ type: 'Recreate' }, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } }]) }
    : {};
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: metadataFor(shortcuts, base),
    spec: { replicas: gen.pick([1, 2, 3, 3, 5]), selector: base.selector, template: { metadata: base.podMetadata, spec: base.podSpec }, ...strategy },
  };
});

/** A ReplicaSet; by default the one a generated Deployment owns (pass `owner: null` for a bare one). */
export const replicaSet = generator<ReplicaSet, WorkloadShortcuts, OwnedOptions>((gen, shortcuts, options) => {
  const owner = options.owner === undefined ? deployment(shortcuts.images ? { images: shortcuts.images } : {}, { seed: gen.seed() }) : options.owner;
  if (isObject(owner)) {
    const made = replicaSetFrom(storedOwner(owner, gen), gen);
    const metadata = objectAt(made, 'metadata');
    return {
      ...made,
      metadata: {
        ...metadata,
        ...metadataOf(shortcuts, { name: String(metadata.name), namespace: String(metadata.namespace), labels: objectAt(metadata, 'labels') }),
      },
    };
  }
  const base = workloadBase(gen, shortcuts);
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: metadataFor(shortcuts, base),
    spec: { replicas: gen.pick([1, 2, 3]), selector: base.selector, template: { metadata: base.podMetadata, spec: base.podSpec } },
  };
});

const STORAGE_CLASSES = ['standard', 'gp3', 'premium-rwo', 'longhorn'];

export const statefulSet = generator<StatefulSet, WorkloadShortcuts>((gen, shortcuts) => {
  const base = workloadBase(gen, shortcuts);
  const claim = {
    metadata: { name: 'data' },
    spec: {
      accessModes: ['ReadWriteOnce'],
      ...(gen.chance(0.7) ? { storageClassName: gen.pick(STORAGE_CLASSES) } : {}),
      resources: { requests: { storage: `${gen.pick([1, 5, 10, 20, 50])}Gi` } },
    },
  };
  // The first container keeps its data on the claim, unless the containers are the user's bare images.
  const [first, ...rest] = listAt(base.podSpec, 'containers');
  const containers =
    first && !shortcuts.images
      ? [{ ...first, volumeMounts: [...listAt(first, 'volumeMounts'), { name: 'data', mountPath: `/var/lib/${base.name}` }] }, ...rest]
      : base.podSpec.containers;
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: metadataFor(shortcuts, base),
    spec: {
      replicas: gen.pick([1, 3, 3, 5]),
      selector: base.selector,
      template: { metadata: base.podMetadata, spec: { ...base.podSpec, containers } },
      volumeClaimTemplates: [claim],
      serviceName: gen.chance(0.5) ? `${base.name}-headless` : base.name,
      ...(gen.chance(0.3) ? { podManagementPolicy: 'Parallel' } : {}),
    },
  };
});

export const daemonSet = generator<DaemonSet, WorkloadShortcuts>((gen, shortcuts) => {
  const base = workloadBase(gen, shortcuts, shortcuts.name ?? gen.pick(['node-exporter', 'fluent-bit', 'node-local-dns', 'csi-node', 'falco', 'cilium-agent']));
  // Node agents usually run on every node, tainted or not.
  const tolerations = gen.chance(0.5) ? { tolerations: [{ operator: 'Exists' }] } : {};
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: metadataFor(shortcuts, base),
    spec: { selector: base.selector, template: { metadata: base.podMetadata, spec: { ...base.podSpec, ...tolerations } } },
  };
});
