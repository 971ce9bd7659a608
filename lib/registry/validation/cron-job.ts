/**
 * batch/v1 CronJob (pkg/apis/batch/validation/validation.go ValidateCronJobCreate, ValidateCronJobUpdate):
 * the schedule and time zone, the concurrency policy, and the job template's spec.
 */
import type { JsonObject } from '../../kube/json';
import type { FieldError } from '../../kube/status';
import { objectOf, optionalBoolean, optionalNumber, optionalString, stringOf } from './access';
import { cronScheduleError, isKnownTimeZone } from './cron-schedule';
import { invalid, json, notSupported, required } from '../../kube/field-errors';
import { labelSelectorValue } from './label-selector';
import { nameIsDnsSubdomain } from '../../kube/name-validators';
import { nonNegative } from './numbers';
import { metadataOf, validateObjectMeta, validateObjectMetaUpdate } from './object-meta';
import { Path } from '../../kube/field-path';
import { validateJobSpec } from './job-spec';

const METADATA = Path.of('metadata');
const SPEC = Path.of('spec');

const CONCURRENCY_POLICIES = ['Allow', 'Forbid', 'Replace'];

/** validateCronJobSpec. */
function validateCronJobSpec(spec: JsonObject, oldSpec: JsonObject | undefined, allowPrivileged: boolean, path: Path): FieldError[] {
  const errors: FieldError[] = [];
  const schedule = stringOf(spec, 'schedule');
  const timeZone = optionalString(spec, 'timeZone');
  if (schedule === '') {
    errors.push(required(path.child('schedule')));
  } else {
    const problem = cronScheduleError(schedule);
    if (problem !== undefined) errors.push(invalid(path.child('schedule'), schedule, problem));
    const allowTz = oldSpec !== undefined && stringOf(oldSpec, 'schedule').includes('TZ');
    if (allowTz && schedule.includes('TZ') && timeZone !== undefined)
      errors.push(invalid(path.child('schedule'), schedule, 'cannot use both timeZone field and TZ or CRON_TZ in schedule'));
    else if (!allowTz && schedule.includes('TZ'))
      errors.push(invalid(path.child('schedule'), schedule, 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead'));
  }
  const deadline = optionalNumber(spec, 'startingDeadlineSeconds');
  if (deadline !== undefined) errors.push(...nonNegative(deadline, path.child('startingDeadlineSeconds')));
  if (timeZone !== undefined && (oldSpec === undefined || optionalString(oldSpec, 'timeZone') !== timeZone))
    errors.push(...validateTimeZone(timeZone, path.child('timeZone')));
  const policy = stringOf(spec, 'concurrencyPolicy');
  if (policy === '') errors.push(required(path.child('concurrencyPolicy')));
  else if (!CONCURRENCY_POLICIES.includes(policy)) errors.push(notSupported(path.child('concurrencyPolicy'), json(policy), CONCURRENCY_POLICIES));
  errors.push(...validateJobTemplateSpec(objectOf(spec, 'jobTemplate') ?? {}, allowPrivileged, path.child('jobTemplate')));
  for (const key of ['successfulJobsHistoryLimit', 'failedJobsHistoryLimit']) {
    const limit = optionalNumber(spec, key);
    if (limit !== undefined) errors.push(...nonNegative(limit, path.child(key)));
  }
  return errors;
}

const TIME_ZONE_PART = /^[A-Za-z.\-_0-9+]{1,14}$/;

/** validateTimeZone. */
function validateTimeZone(zone: string, path: Path): FieldError[] {
  if (zone === '') return [invalid(path, json(zone), 'timeZone must be nil or non-empty string')];
  for (const part of zone.split('/')) {
    if (part === '.' || part === '..' || part.startsWith('-') || !TIME_ZONE_PART.test(part)) return [invalid(path, json(zone), `unknown time zone ${zone}`)];
  }
  const errors: FieldError[] = [];
  if (zone.toLowerCase() === 'local')
    errors.push(invalid(path, json(zone), 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones'));
  if (!isKnownTimeZone(zone)) errors.push(invalid(path, json(zone), `unknown time zone ${zone}`));
  return errors;
}

/** ValidateJobTemplateSpec: the job spec rules; the selector is generated, so setting one is refused. */
function validateJobTemplateSpec(template: JsonObject, allowPrivileged: boolean, path: Path): FieldError[] {
  const spec = objectOf(template, 'spec') ?? {};
  const errors = validateJobSpec(spec, allowPrivileged, path.child('spec'));
  const selector = objectOf(spec, 'selector');
  if (selector) errors.push(invalid(path.child('spec', 'selector'), json(labelSelectorValue(selector)), '`selector` will be auto-generated'));
  if (optionalBoolean(spec, 'manualSelector') === true) errors.push(notSupported(path.child('spec', 'manualSelector'), json(true), ['nil', 'false']));
  return errors;
}

/** ValidateCronJobCreate: also a name of at most 52 characters (the controller appends an 11-character suffix). */
export function validateCronJob(cronJob: JsonObject, allowPrivileged: boolean): FieldError[] {
  const meta = metadataOf(cronJob);
  const errors = validateObjectMeta(meta, true, nameIsDnsSubdomain, METADATA);
  errors.push(...validateCronJobSpec(objectOf(cronJob, 'spec') ?? {}, undefined, allowPrivileged, SPEC));
  const name = stringOf(meta, 'name');
  if (Buffer.byteLength(name, 'utf8') > 52) errors.push(invalid(METADATA.child('name'), name, 'must be no more than 52 characters'));
  return errors;
}

/** ValidateCronJobUpdate (no name-length rule, so old long-named cronjobs stay updatable). */
export function validateCronJobUpdate(cronJob: JsonObject, old: JsonObject, allowPrivileged: boolean): FieldError[] {
  return [
    ...validateObjectMetaUpdate(metadataOf(cronJob), metadataOf(old), METADATA),
    ...validateCronJobSpec(objectOf(cronJob, 'spec') ?? {}, objectOf(old, 'spec') ?? {}, allowPrivileged, SPEC),
  ];
}
