import { objectAt, type JsonRecord } from '../../kube/record';
import { at, shape } from '../shape';
import { labelSelector, objectMeta, typed } from './meta';
import { podTemplate } from './pod';

const JOB_SPEC = [
  'parallelism', 'completions', 'activeDeadlineSeconds', 'podFailurePolicy', 'successPolicy', 'backoffLimit', 'backoffLimitPerIndex',
  'maxFailedIndexes', 'selector', 'manualSelector', 'template', 'ttlSecondsAfterFinished', 'completionMode', 'suspend',
  'podReplacementPolicy', 'managedBy',
];

/** batch/v1 SetDefaults_Job. */
export function job(object: JsonRecord): JsonRecord {
  const spec = (value: JsonRecord) => {
    const counts = value.completions === undefined && value.parallelism === undefined ? { completions: 1, parallelism: 1 } : { parallelism: 1 };
    return shape(at(at(value, 'template', podTemplate), 'selector', labelSelector), JOB_SPEC, {
      ...counts,
      // With a per-index limit the global limit is effectively unlimited.
      backoffLimit: value.backoffLimitPerIndex === undefined ? 6 : 2147483647,
      completionMode: 'NonIndexed',
      suspend: false,
      podReplacementPolicy: value.podFailurePolicy === undefined ? 'TerminatingOrFailed' : 'Failed',
    });
  };
  return typed(at(object, 'spec', spec), ['spec', 'status'], { status: {} });
}

/** batch/v1 SetDefaults_CronJob; the job template only gets the pod template defaults, not the Job ones. */
export function cronJob(object: JsonRecord): JsonRecord {
  const spec = (value: JsonRecord) => {
    const jobTemplate = at(objectAt(value, 'jobTemplate'), 'metadata', objectMeta);
    const withJob = { ...value, jobTemplate: shape(at(jobTemplate, 'spec', (jobSpec) => shape(at(jobSpec, 'template', podTemplate), JOB_SPEC)), ['metadata', 'spec']) };
    return shape(withJob, ['schedule', 'timeZone', 'startingDeadlineSeconds', 'concurrencyPolicy', 'suspend', 'jobTemplate', 'successfulJobsHistoryLimit', 'failedJobsHistoryLimit'], {
      concurrencyPolicy: 'Allow',
      suspend: false,
      successfulJobsHistoryLimit: 3,
      failedJobsHistoryLimit: 1,
    });
  };
  return typed(at(object, 'spec', spec), ['spec', 'status'], { status: {} });
}
