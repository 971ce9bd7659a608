import { isRecord as isObject } from '../../kube/json';
import { objectAt, type JsonRecord } from '../../kube/record';
import { at, each, shape, structAt } from '../shape';
import { labelSelector, objectMeta, typed } from './meta';
import { podTemplate } from './pod';

const JOB_SPEC = [
  'parallelism',
  'completions',
  'activeDeadlineSeconds',
  'podFailurePolicy',
  'successPolicy',
  'backoffLimit',
  'backoffLimitPerIndex',
  'maxFailedIndexes',
  'selector',
  'manualSelector',
  'template',
  'ttlSecondsAfterFinished',
  'completionMode',
  'suspend',
  'podReplacementPolicy',
  'managedBy',
];
const MAX_INT32 = 2147483647;

const isUnset = (value: unknown) => value === undefined || value === null;

/** SetDefaults_PodFailurePolicyOnPodConditionsPattern: a pattern's status defaults to "True". */
function podFailurePolicy(policy: JsonRecord): JsonRecord {
  return each(policy, 'rules', (rule) =>
    each(rule, 'onPodConditions', (pattern) => {
      const withStatus = pattern.status === '' || pattern.status === null ? { ...pattern, status: 'True' } : pattern;
      return shape(withStatus, ['type', 'status'], { status: 'True' });
    }),
  );
}

/** What every JobSpec gets (in Jobs and in CronJobs' job templates): pod template and failure-policy pattern defaults. */
function jobSpecParts(spec: JsonRecord): JsonRecord {
  return at(at(structAt(spec, 'template', podTemplate), 'selector', labelSelector), 'podFailurePolicy', podFailurePolicy);
}

/** batch/v1 SetDefaults_Job. */
export function job(object: JsonRecord): JsonRecord {
  const spec = (value: JsonRecord) => {
    const counts = isUnset(value.completions) && isUnset(value.parallelism) ? { completions: 1, parallelism: 1 } : { parallelism: 1 };
    return shape(jobSpecParts(value), JOB_SPEC, {
      ...counts,
      // With a per-index limit the global limit is effectively unlimited.
      backoffLimit: isUnset(value.backoffLimitPerIndex) ? 6 : MAX_INT32,
      manualSelector: false,
      completionMode: 'NonIndexed',
      suspend: false,
      podReplacementPolicy: isUnset(value.podFailurePolicy) ? 'TerminatingOrFailed' : 'Failed',
    });
  };
  return typed(jobLabels(structAt(object, 'spec', spec)), ['spec', 'status'], { status: {} });
}

/** SetDefaults_Job: a Job without labels takes its pod template's (when the template has any map, even empty). */
function jobLabels(object: JsonRecord): JsonRecord {
  const templateLabels = objectAt(objectAt(objectAt(object, 'spec'), 'template'), 'metadata').labels;
  const metadata = objectAt(object, 'metadata');
  const labels = metadata.labels;
  if (!isObject(templateLabels) || (isObject(labels) && Object.keys(labels).length > 0)) return object;
  if (Object.keys(templateLabels).length === 0) return object; // an empty map is not written either way
  return { ...object, metadata: { ...metadata, labels: { ...templateLabels } } };
}

/**
 * batch/v1 SetDefaults_CronJob; the job template only gets the pod template defaults and the
 * failure-policy pattern default, not SetDefaults_Job. Its metadata is an ObjectMeta value, written
 * `{}` when absent.
 */
export function cronJob(object: JsonRecord): JsonRecord {
  const spec = (value: JsonRecord) => {
    const template = objectAt(value, 'jobTemplate');
    const withMeta = { ...template, metadata: isObject(template.metadata) ? objectMeta(template.metadata) : {} };
    const jobTemplate = shape(
      structAt(withMeta, 'spec', (jobSpec) => shape(jobSpecParts(jobSpec), JOB_SPEC)),
      ['metadata', 'spec'],
    );
    return shape(
      { ...value, jobTemplate },
      [
        'schedule',
        'timeZone',
        'startingDeadlineSeconds',
        'concurrencyPolicy',
        'suspend',
        'jobTemplate',
        'successfulJobsHistoryLimit',
        'failedJobsHistoryLimit',
      ],
      {
        concurrencyPolicy: 'Allow',
        suspend: false,
        successfulJobsHistoryLimit: 3,
        failedJobsHistoryLimit: 1,
      },
    );
  };
  return typed(structAt(object, 'spec', spec), ['spec', 'status'], { status: {} });
}
