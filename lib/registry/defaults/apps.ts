import { listAt, objectAt, type JsonRecord } from '../../kube/record';
import { at, shape } from '../shape';
import { labelSelector, typed } from './meta';
import { persistentVolumeClaim } from './core';
import { podTemplate } from './pod';

// Every workload spec has a selector and a pod template.
const withTemplate = (spec: JsonRecord) => at(at(spec, 'template', podTemplate), 'selector', labelSelector);

function rollingUpdate(strategy: JsonRecord, defaults: JsonRecord): JsonRecord {
  const type = strategy.type ?? 'RollingUpdate';
  if (type !== 'RollingUpdate') return shape(strategy, ['type']);
  return shape({ ...strategy, type, rollingUpdate: shape(objectAt(strategy, 'rollingUpdate'), Object.keys(defaults), defaults) }, ['type', 'rollingUpdate']);
}

/** apps/v1 SetDefaults_Deployment (fixtures/apiserver-captures/deployments-create.json). */
export function deployment(object: JsonRecord): JsonRecord {
  const spec = (value: JsonRecord) =>
    shape(
      withTemplate({ ...value, strategy: rollingUpdate(objectAt(value, 'strategy'), { maxUnavailable: '25%', maxSurge: '25%' }) }),
      ['replicas', 'selector', 'template', 'strategy', 'minReadySeconds', 'revisionHistoryLimit', 'paused', 'progressDeadlineSeconds'],
      { replicas: 1, revisionHistoryLimit: 10, progressDeadlineSeconds: 600 },
    );
  return typed(at(object, 'spec', spec), ['spec', 'status'], { status: {} });
}

/** apps/v1 SetDefaults_ReplicaSet; its status always carries `replicas`. */
export function replicaSet(object: JsonRecord): JsonRecord {
  const spec = (value: JsonRecord) => shape(withTemplate(value), ['replicas', 'minReadySeconds', 'selector', 'template'], { replicas: 1 });
  return typed(at(object, 'spec', spec), ['spec', 'status'], { status: { replicas: 0 } });
}

/** apps/v1 SetDefaults_StatefulSet, including its volumeClaimTemplates' PVC defaults. */
export function statefulSet(object: JsonRecord): JsonRecord {
  const spec = (value: JsonRecord) => {
    const claims = Array.isArray(value.volumeClaimTemplates)
      ? { volumeClaimTemplates: listAt(value, 'volumeClaimTemplates').map((claim) => persistentVolumeClaim({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', ...claim })) }
      : {};
    const updateStrategy = objectAt(value, 'updateStrategy');
    return shape(
      withTemplate({ ...value, ...claims, updateStrategy: rollingUpdate(updateStrategy, { partition: 0 }) }),
      ['replicas', 'selector', 'template', 'volumeClaimTemplates', 'serviceName', 'podManagementPolicy', 'updateStrategy', 'revisionHistoryLimit', 'minReadySeconds', 'persistentVolumeClaimRetentionPolicy', 'ordinals'],
      {
        replicas: 1,
        podManagementPolicy: 'OrderedReady',
        revisionHistoryLimit: 10,
        persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
      },
    );
  };
  return typed(at(object, 'spec', spec), ['spec', 'status'], { status: { replicas: 0, availableReplicas: 0 } });
}

/** apps/v1 SetDefaults_DaemonSet; its status carries the four counters that have no omitempty. */
export function daemonSet(object: JsonRecord): JsonRecord {
  const spec = (value: JsonRecord) => {
    const updateStrategy = objectAt(value, 'updateStrategy');
    return shape(
      withTemplate({ ...value, updateStrategy: rollingUpdate(updateStrategy, { maxUnavailable: 1, maxSurge: 0 }) }),
      ['selector', 'template', 'updateStrategy', 'minReadySeconds', 'revisionHistoryLimit'],
      { revisionHistoryLimit: 10 },
    );
  };
  return typed(at(object, 'spec', spec), ['spec', 'status'], {
    status: { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 },
  });
}
