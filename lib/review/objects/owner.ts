import { objectMeta } from '../../registry/defaults/meta';
import type { Gen } from './faker';
import { objectAt, stringAt, type JsonObject } from './json';
import { persist } from '../../registry/strategy/create';
import { withSuffix } from './names';

/** The owner stored (it needs a uid to be referenced), as the controller that owns it finds it. */
export function storedOwner(owner: JsonObject, gen: Gen): JsonObject {
  return persist(owner, gen, false);
}

/** The ownerReference a controller puts on what it creates. */
function controllerReference(owner: JsonObject): JsonObject {
  const metadata = objectAt(owner, 'metadata');
  return { apiVersion: owner.apiVersion, kind: owner.kind, name: metadata.name, uid: metadata.uid, controller: true, blockOwnerDeletion: true };
}

function nameOf(object: JsonObject): string {
  return stringAt(objectAt(object, 'metadata'), 'name') ?? 'app';
}

function namespaceOf(object: JsonObject): string | undefined {
  return stringAt(objectAt(object, 'metadata'), 'namespace');
}

/** The pod-template-hash the deployment controller names ReplicaSets and labels pods with. */
function templateHash(gen: Gen): string {
  return gen.suffix(gen.int(9, 10));
}

/** The ReplicaSet the deployment controller makes for the current template of `deployment`. */
export function replicaSetFrom(deployment: JsonObject, gen: Gen): JsonObject {
  const spec = objectAt(deployment, 'spec');
  const template = objectAt(spec, 'template');
  const hash = templateHash(gen);
  const labels = { ...objectAt(objectAt(template, 'metadata'), 'labels'), 'pod-template-hash': hash };
  const replicas = typeof spec.replicas === 'number' ? spec.replicas : 1;
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: withSuffix(nameOf(deployment), hash),
      namespace: namespaceOf(deployment),
      labels,
      annotations: {
        'deployment.kubernetes.io/desired-replicas': String(replicas),
        'deployment.kubernetes.io/max-replicas': String(replicas + Math.ceil(replicas / 4)),
        'deployment.kubernetes.io/revision': '1',
      },
      ownerReferences: [controllerReference(deployment)],
    },
    spec: {
      replicas,
      selector: { matchLabels: { ...objectAt(objectAt(spec, 'selector'), 'matchLabels'), 'pod-template-hash': hash } },
      template: { ...template, metadata: objectMeta({ ...objectAt(template, 'metadata'), labels }) },
    },
  };
}

/** The Job a CronJob creates for one scheduled run (named after the run's minute, as the controller does). */
export function jobFrom(cronJob: JsonObject, gen: Gen): JsonObject {
  const jobTemplate = objectAt(objectAt(cronJob, 'spec'), 'jobTemplate');
  const minutes = Math.floor(Date.UTC(2026, 5, 1) / 60_000) - gen.int(0, 10_000);
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      ...objectAt(jobTemplate, 'metadata'),
      name: withSuffix(nameOf(cronJob), String(minutes)),
      namespace: namespaceOf(cronJob),
      annotations: { 'batch.kubernetes.io/cronjob-scheduled-timestamp': new Date(minutes * 60_000).toISOString().replace('.000Z', 'Z') },
      ownerReferences: [controllerReference(cronJob)],
    },
    spec: objectAt(jobTemplate, 'spec'),
  };
}

/** The metadata and spec of a pod its controller (`owner`, stored) creates from its template. */
export function podFrom(owner: JsonObject, gen: Gen): { metadata: JsonObject; spec: JsonObject } {
  const spec = objectAt(owner, 'spec');
  const template = objectAt(spec, 'template');
  const labels = objectAt(objectAt(template, 'metadata'), 'labels');
  const base = { namespace: namespaceOf(owner), ownerReferences: [controllerReference(owner)] };
  const podSpec = objectAt(template, 'spec');
  const ownerName = nameOf(owner);
  if (owner.kind === 'StatefulSet') {
    const ordinal = gen.int(0, typeof spec.replicas === 'number' ? Math.max(spec.replicas - 1, 0) : 0);
    const name = `${ownerName}-${ordinal}`;
    const extra = {
      'apps.kubernetes.io/pod-index': String(ordinal),
      'controller-revision-hash': withSuffix(ownerName, templateHash(gen)),
      'statefulset.kubernetes.io/pod-name': name,
    };
    const serviceName = stringAt(spec, 'serviceName');
    return {
      metadata: { name, generateName: `${ownerName}-`, ...base, labels: { ...labels, ...extra } },
      spec: { ...podSpec, hostname: name, ...(serviceName ? { subdomain: serviceName } : {}) },
    };
  }
  const name = withSuffix(ownerName, gen.suffix(5));
  const extra = owner.kind === 'DaemonSet' ? { 'controller-revision-hash': templateHash(gen), 'pod-template-generation': '1' } : {};
  return { metadata: { name, generateName: `${ownerName}-`, ...base, labels: { ...labels, ...extra } }, spec: podSpec };
}
