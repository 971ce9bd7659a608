import type { Json, JsonObject } from '../../kube/json';
import { AGE_COLUMN, CONTAINERS_COLUMN, IMAGES_COLUMN, NAME_COLUMN, ageCell, column, doc, nameCell } from './columns';
import { at, integer, list, optional, text } from './fields';
import { boolPointer, containerCells, formatLabelSelector, formatLabels, selectorString } from './format';
import { humanDuration, instantOf, since } from './human-duration';
import type { Printer } from './printer';

/*
 * printers.go (kubernetes pkg/printers/internalversion) for workloads: printDeployment, printReplicaSet,
 * printStatefulSet, printDaemonSet, printJob and printCronJob. Column descriptions name the Go types kube's
 * printers do (extensions/v1beta1 and batch/v1beta1 among them).
 */

const containersOf = (object: JsonObject, ...template: string[]): Json[] => list(object, ...template, 'spec', 'containers');
// `replicas` is defaulted to 1 by the registry, so it is there on every stored object.
const replicas = (object: JsonObject): number => integer(object, 'spec', 'replicas');

const EXT = 'extensions/v1beta1/';
export const deployments: Printer = {
  columns: [
    NAME_COLUMN,
    column('Ready', 'string', 'Number of the pod with ready state'),
    column('Up-to-date', 'string', doc(`${EXT}DeploymentStatus`, 'updatedReplicas')),
    column('Available', 'string', doc(`${EXT}DeploymentStatus`, 'availableReplicas')),
    AGE_COLUMN,
    CONTAINERS_COLUMN,
    IMAGES_COLUMN,
    column('Selector', 'string', doc(`${EXT}DeploymentSpec`, 'selector'), { priority: 1 }),
  ],
  row: (object, now) => {
    const [names, images] = containerCells(containersOf(object, 'spec', 'template'));
    return {
      cells: [
        nameCell(object),
        `${integer(object, 'status', 'readyReplicas')}/${replicas(object)}`,
        integer(object, 'status', 'updatedReplicas'),
        integer(object, 'status', 'availableReplicas'),
        ageCell(object, now),
        names,
        images,
        selectorString(optional(object, 'spec', 'selector')),
      ],
    };
  },
};

export const replicaSets: Printer = {
  columns: [
    NAME_COLUMN,
    column('Desired', 'integer', doc(`${EXT}ReplicaSetSpec`, 'replicas')),
    column('Current', 'integer', doc(`${EXT}ReplicaSetStatus`, 'replicas')),
    column('Ready', 'integer', doc(`${EXT}ReplicaSetStatus`, 'readyReplicas')),
    AGE_COLUMN,
    CONTAINERS_COLUMN,
    IMAGES_COLUMN,
    column('Selector', 'string', doc(`${EXT}ReplicaSetSpec`, 'selector'), { priority: 1 }),
  ],
  row: (object, now) => {
    const [names, images] = containerCells(containersOf(object, 'spec', 'template'));
    const status = (field: string): number => integer(object, 'status', field);
    return {
      cells: [
        nameCell(object),
        replicas(object),
        status('replicas'),
        status('readyReplicas'),
        ageCell(object, now),
        names,
        images,
        formatLabelSelector(optional(object, 'spec', 'selector')),
      ],
    };
  },
};

export const statefulSets: Printer = {
  columns: [NAME_COLUMN, column('Ready', 'string', 'Number of the pod with ready state'), AGE_COLUMN, CONTAINERS_COLUMN, IMAGES_COLUMN],
  row: (object, now) => {
    const [names, images] = containerCells(containersOf(object, 'spec', 'template'));
    return { cells: [nameCell(object), `${integer(object, 'status', 'readyReplicas')}/${replicas(object)}`, ageCell(object, now), names, images] };
  },
};

const DS_STATUS = `${EXT}DaemonSetStatus`;
export const daemonSets: Printer = {
  columns: [
    NAME_COLUMN,
    column('Desired', 'integer', doc(DS_STATUS, 'desiredNumberScheduled')),
    column('Current', 'integer', doc(DS_STATUS, 'currentNumberScheduled')),
    column('Ready', 'integer', doc(DS_STATUS, 'numberReady')),
    column('Up-to-date', 'integer', doc(DS_STATUS, 'updatedNumberScheduled')),
    column('Available', 'integer', doc(DS_STATUS, 'numberAvailable')),
    column('Node Selector', 'string', doc('v1/PodSpec', 'nodeSelector')),
    AGE_COLUMN,
    CONTAINERS_COLUMN,
    IMAGES_COLUMN,
    column('Selector', 'string', doc(`${EXT}DaemonSetSpec`, 'selector'), { priority: 1 }),
  ],
  row: (object, now) => {
    const [names, images] = containerCells(containersOf(object, 'spec', 'template'));
    const status = (field: string): number => integer(object, 'status', field);
    return {
      cells: [
        nameCell(object),
        status('desiredNumberScheduled'),
        status('currentNumberScheduled'),
        status('numberReady'),
        status('updatedNumberScheduled'),
        status('numberAvailable'),
        formatLabels(optional(object, 'spec', 'template', 'spec', 'nodeSelector')),
        ageCell(object, now),
        names,
        images,
        formatLabelSelector(optional(object, 'spec', 'selector')),
      ],
    };
  },
};

/** hasJobCondition: the first condition of the type decides. */
function jobCondition(job: JsonObject, type: string): boolean {
  const condition = list(job, 'status', 'conditions').find((entry) => text(entry, 'type') === type);
  return condition !== undefined && text(condition, 'status') === 'True';
}

function jobStatus(job: JsonObject): string {
  if (jobCondition(job, 'Complete')) return 'Complete';
  if (jobCondition(job, 'Failed')) return 'Failed';
  if (optional(job, 'metadata', 'deletionTimestamp') !== undefined) return 'Terminating';
  if (jobCondition(job, 'Suspended')) return 'Suspended';
  if (jobCondition(job, 'FailureTarget')) return 'FailureTarget';
  return 'Running';
}

function jobCompletions(job: JsonObject): string {
  const succeeded = integer(job, 'status', 'succeeded');
  if (optional(job, 'spec', 'completions') !== undefined) return `${succeeded}/${integer(job, 'spec', 'completions')}`;
  const parallelism = integer(job, 'spec', 'parallelism');
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

function jobDuration(job: JsonObject, now: number): string {
  const start = instantOf(at(job, 'status', 'startTime'));
  if (start === undefined) return '';
  const completion = instantOf(at(job, 'status', 'completionTime'));
  return humanDuration((completion ?? now) - start);
}

export const jobs: Printer = {
  columns: [
    NAME_COLUMN,
    column('Status', 'string', 'Status of the job.'),
    column('Completions', 'string', doc('batch/v1/JobStatus', 'succeeded')),
    column('Duration', 'string', 'Time required to complete the job.'),
    AGE_COLUMN,
    CONTAINERS_COLUMN,
    IMAGES_COLUMN,
    column('Selector', 'string', doc('batch/v1/JobSpec', 'selector'), { priority: 1 }),
  ],
  row: (object, now) => {
    const [names, images] = containerCells(containersOf(object, 'spec', 'template'));
    return {
      cells: [
        nameCell(object),
        jobStatus(object),
        jobCompletions(object),
        jobDuration(object, now),
        ageCell(object, now),
        names,
        images,
        formatLabelSelector(optional(object, 'spec', 'selector')),
      ],
    };
  },
};

const CRON_SPEC = 'batch/v1beta1/CronJobSpec';
const CRON_STATUS = 'batch/v1beta1/CronJobStatus';
export const cronJobs: Printer = {
  columns: [
    NAME_COLUMN,
    column('Schedule', 'string', doc(CRON_SPEC, 'schedule')),
    column('Timezone', 'string', doc(CRON_SPEC, 'timeZone')),
    column('Suspend', 'boolean', doc(CRON_SPEC, 'suspend')),
    column('Active', 'integer', doc(CRON_STATUS, 'active')),
    column('Last Schedule', 'string', doc(CRON_STATUS, 'lastScheduleTime')),
    AGE_COLUMN,
    CONTAINERS_COLUMN,
    IMAGES_COLUMN,
    column('Selector', 'string', doc('batch/v1/JobSpec', 'selector'), { priority: 1 }),
  ],
  row: (object, now) => {
    const [names, images] = containerCells(containersOf(object, 'spec', 'jobTemplate', 'spec', 'template'));
    const lastSchedule = optional(object, 'status', 'lastScheduleTime');
    const timeZone = optional(object, 'spec', 'timeZone');
    return {
      cells: [
        nameCell(object),
        text(object, 'spec', 'schedule'),
        typeof timeZone === 'string' ? timeZone : '<none>',
        boolPointer(optional(object, 'spec', 'suspend')),
        list(object, 'status', 'active').length,
        lastSchedule === undefined ? '<none>' : since(lastSchedule, now),
        ageCell(object, now),
        names,
        images,
        formatLabelSelector(optional(object, 'spec', 'jobTemplate', 'spec', 'selector')),
      ],
    };
  },
};
