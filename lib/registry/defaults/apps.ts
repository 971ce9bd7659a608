import { objectAt, stringAt, type JsonRecord } from '../../kube/record';
import { at, each, shape, structAt } from '../shape';
import { labelSelector, typed } from './meta';
import { persistentVolumeClaim } from './core';
import { podTemplate } from './pod';

// Every workload spec has a selector and a pod template.
const withTemplate = (spec: JsonRecord) => at(structAt(spec, 'template', podTemplate), 'selector', labelSelector);

function rollingUpdate(strategy: JsonRecord, defaults: JsonRecord): JsonRecord {
  const type = stringAt(strategy, 'type') || 'RollingUpdate';
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
  return typed(structAt(object, 'spec', spec), ['spec', 'status'], { status: {} });
}

/** apps/v1 SetDefaults_ReplicaSet; its status always carries `replicas`. */
export function replicaSet(object: JsonRecord): JsonRecord {
  const spec = (value: JsonRecord) => shape(withTemplate(value), ['replicas', 'minReadySeconds', 'selector', 'template'], { replicas: 1 });
  return typed(structAt(object, 'spec', spec), ['spec', 'status'], { status: { replicas: 0 } });
}

/**
 * SetDefaults_StatefulSet's update strategy. Only an empty type becomes RollingUpdate with a
 * `rollingUpdate` created; an explicit RollingUpdate without one stays without. A rollingUpdate then
 * gets partition 0 and, with MaxUnavailableStatefulSet (beta, on since 1.35), maxUnavailable 1.
 */
function statefulSetStrategy(strategy: JsonRecord): JsonRecord {
  const typeSent = stringAt(strategy, 'type');
  const type = typeSent || 'RollingUpdate';
  let result: JsonRecord = { ...strategy, type };
  if (!typeSent && (result.rollingUpdate === undefined || result.rollingUpdate === null)) result.rollingUpdate = {};
  if (type === 'RollingUpdate') {
    result = at(result, 'rollingUpdate', (update) => shape(update, ['partition', 'maxUnavailable'], { partition: 0, maxUnavailable: 1 }));
  }
  return shape(result, ['type', 'rollingUpdate']);
}

/** apps/v1 SetDefaults_StatefulSet, including its volumeClaimTemplates' PVC defaults. */
export function statefulSet(object: JsonRecord): JsonRecord {
  const spec = (value: JsonRecord) => {
    const withClaims = each(value, 'volumeClaimTemplates', persistentVolumeClaim);
    // StatefulSetAutoDeletePVC (GA): the policy is created if nil and each empty member becomes Retain.
    const retention = shape(objectAt(value, 'persistentVolumeClaimRetentionPolicy'), ['whenDeleted', 'whenScaled'], {
      whenDeleted: 'Retain',
      whenScaled: 'Retain',
    });
    for (const key of ['whenDeleted', 'whenScaled']) if (retention[key] === '' || retention[key] === null) retention[key] = 'Retain';
    return shape(
      withTemplate({
        ...withClaims,
        updateStrategy: statefulSetStrategy(objectAt(value, 'updateStrategy')),
        persistentVolumeClaimRetentionPolicy: retention,
      }),
      [
        'replicas',
        'selector',
        'template',
        'volumeClaimTemplates',
        'serviceName',
        'podManagementPolicy',
        'updateStrategy',
        'revisionHistoryLimit',
        'minReadySeconds',
        'persistentVolumeClaimRetentionPolicy',
        'ordinals',
      ],
      {
        replicas: 1,
        podManagementPolicy: 'OrderedReady',
        revisionHistoryLimit: 10,
      },
    );
  };
  return typed(structAt(object, 'spec', spec), ['spec', 'status'], { status: { replicas: 0, availableReplicas: 0 } });
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
  return typed(structAt(object, 'spec', spec), ['spec', 'status'], {
    status: { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 },
  });
}
