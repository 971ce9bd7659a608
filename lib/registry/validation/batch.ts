/**
 * batch/v1 Job and CronJob (pkg/apis/batch/validation/validation.go and the strategies in
 * pkg/registry/batch): the generated selector, the job spec rules, the template restart policy, and on
 * update the immutable selector, template and completion fields.
 */
import type { Json, JsonObject } from '../../kube/json';
import type { FieldError } from '../../kube/status';
import { has, listOf, numberOf, numbersOf, objectOf, optionalBoolean, optionalNumber, optionalString, stringMapOf, stringOf } from './access';
import { cronScheduleError, isKnownTimeZone } from './cron-schedule';
import { duplicate, invalid, json, notSupported, OMIT, required, tooLong, tooMany } from '../../kube/field-errors';
import { goMap } from '../../go/json-marshal';
import { dns1123LabelErrors, dns1123SubdomainErrors, qualifiedNameErrors } from '../../kube/value-formats';
import { labelSelectorValue, selectorOf, validateLabelSelector } from './label-selector';
import { nameIsDnsSubdomain } from '../../kube/name-validators';
import { nonNegative } from './numbers';
import { FIELD_IMMUTABLE, metadataOf, validateObjectMeta, validateObjectMetaUpdate } from './object-meta';
import { Path } from '../../kube/field-path';
import { validatePodTemplateSpec } from './pod';
import { semanticEqualAt } from '../equality';

const JOB_SPEC = 'io.k8s.api.batch.v1.JobSpec';

const METADATA = Path.of('metadata');
const SPEC = Path.of('spec');

const MAX_PARALLELISM_INDEXED = 100000;
const MAX_FAILED_INDEXES = 100000;
const COMPLETIONS_SOFT_LIMIT = 100000;
const PARALLELISM_LIMIT_HIGH_COMPLETIONS = 10000;
const MAX_FAILED_INDEXES_HIGH_COMPLETIONS = 10000;
const MAX_POD_FAILURE_POLICY_RULES = 20;
const MAX_EXIT_CODES = 255;
const MAX_POD_CONDITION_PATTERNS = 20;
const POD_FAILURE_ACTIONS = ['Count', 'FailIndex', 'FailJob', 'Ignore'];
const EXIT_CODE_OPERATORS = ['In', 'NotIn'];
const CONDITION_STATUSES = ['False', 'True', 'Unknown'];

/** validatePodFailurePolicyRuleOnExitCodes. */
function validateOnExitCodes(requirement: JsonObject, containerNames: Set<string>, path: Path): FieldError[] {
  const errors: FieldError[] = [];
  const operator = stringOf(requirement, 'operator');
  if (operator === '') errors.push(required(path.child('operator'), `valid values: ["${EXIT_CODE_OPERATORS.join('" "')}"]`));
  else if (!EXIT_CODE_OPERATORS.includes(operator)) errors.push(notSupported(path.child('operator'), json(operator), EXIT_CODE_OPERATORS));
  const container = optionalString(requirement, 'containerName');
  if (container !== undefined && !containerNames.has(container))
    errors.push(invalid(path.child('containerName'), container, 'must be one of the container or initContainer names in the pod template'));
  const values = numbersOf(requirement, 'values');
  const valuesPath = path.child('values');
  if (values.length === 0)
    errors.push(invalid(valuesPath, json(values.length === 0 && requirement.values === undefined ? null : values), 'at least one value is required'));
  else if (values.length > MAX_EXIT_CODES) errors.push(tooMany(valuesPath, values.length, MAX_EXIT_CODES));
  const seen = new Set<number>();
  let ordered = true;
  values.forEach((value, j) => {
    if (operator === 'In' && value === 0) errors.push(invalid(valuesPath.index(j), value, 'must not be 0 for the In operator'));
    if (seen.has(value)) errors.push(duplicate(valuesPath.index(j), value));
    else seen.add(value);
    if (j > 0 && (values[j - 1] ?? 0) > value) ordered = false;
  });
  if (!ordered) errors.push(invalid(valuesPath, json(values), 'must be ordered'));
  return errors;
}

/** validatePodFailurePolicy. */
function validatePodFailurePolicy(spec: JsonObject, policy: JsonObject, path: Path): FieldError[] {
  const errors: FieldError[] = [];
  const rules = listOf(policy, 'rules');
  const rulesPath = path.child('rules');
  if (rules.length > MAX_POD_FAILURE_POLICY_RULES) errors.push(tooMany(rulesPath, rules.length, MAX_POD_FAILURE_POLICY_RULES));
  const podSpec = objectOf(objectOf(spec, 'template'), 'spec');
  const containerNames = new Set([...listOf(podSpec, 'containers'), ...listOf(podSpec, 'initContainers')].map((c) => stringOf(c, 'name')));
  rules.forEach((rule, i) => {
    const at = rulesPath.index(i);
    const action = stringOf(rule, 'action');
    if (action === '') errors.push(required(at.child('action'), `valid values: ["${POD_FAILURE_ACTIONS.join('" "')}"]`));
    else if (action === 'FailIndex') {
      if (!has(spec, 'backoffLimitPerIndex')) errors.push(invalid(at.child('action'), json(action), 'requires the backoffLimitPerIndex to be set'));
    } else if (!POD_FAILURE_ACTIONS.includes(action)) errors.push(notSupported(at.child('action'), json(action), POD_FAILURE_ACTIONS));
    const onExitCodes = objectOf(rule, 'onExitCodes');
    const onConditions = listOf(rule, 'onPodConditions');
    if (onExitCodes) errors.push(...validateOnExitCodes(onExitCodes, containerNames, at.child('onExitCodes')));
    if (onConditions.length > 0) {
      const conditionsPath = at.child('onPodConditions');
      if (onConditions.length > MAX_POD_CONDITION_PATTERNS) errors.push(tooMany(conditionsPath, onConditions.length, MAX_POD_CONDITION_PATTERNS));
      onConditions.forEach((pattern, j) => {
        const type = stringOf(pattern, 'type');
        errors.push(...qualifiedNameErrors(type).map((message) => invalid(conditionsPath.index(j).child('type'), type, message)));
        const status = stringOf(pattern, 'status');
        if (status === '') errors.push(required(conditionsPath.index(j).child('status'), `valid values: ["${CONDITION_STATUSES.join('" "')}"]`));
        else if (!CONDITION_STATUSES.includes(status)) errors.push(notSupported(conditionsPath.index(j).child('status'), json(status), CONDITION_STATUSES));
      });
    }
    if (onExitCodes && onConditions.length > 0) errors.push(invalid(at, OMIT, 'specifying both OnExitCodes and OnPodConditions is not supported'));
    if (!onExitCodes && onConditions.length === 0) errors.push(invalid(at, OMIT, 'specifying one of OnExitCodes and OnPodConditions is required'));
  });
  return errors;
}

/** parseIndexInterval / validateIndexesFormat: the number of indexes, or the parse error. */
function indexesFormat(text: string, completions: number): { total: number } | { error: string } {
  if (text === '') return { total: 0 };
  let last: number | undefined;
  let total = 0;
  for (const interval of text.split(',')) {
    const limits = interval.split('-');
    if (limits.length > 2)
      return { error: `the fragment ${JSON.stringify(interval)} violates the requirement that an index interval can have at most two parts separated by '-'` };
    const parse = (part: string): number | string =>
      /^[+-]?[0-9]+$/.test(part) ? Number(part) : `cannot convert string to integer for index: ${JSON.stringify(part)}`;
    const x = parse(limits[0] ?? '');
    if (typeof x === 'string') return { error: x };
    if (x >= completions) return { error: `too large index: ${JSON.stringify(limits[0])}` };
    let y = x;
    if (limits.length > 1) {
      const parsed = parse(limits[1] ?? '');
      if (typeof parsed === 'string') return { error: parsed };
      if (parsed >= completions) return { error: `too large index: ${JSON.stringify(limits[1])}` };
      if (x >= parsed) return { error: `non-increasing order, previous: ${x}, current: ${parsed}` };
      y = parsed;
    }
    if (last !== undefined && last >= x) return { error: `non-increasing order, previous: ${last}, current: ${x}` };
    total += y - x + 1;
    last = y;
  }
  return { total };
}

/** validateSuccessPolicy (Indexed jobs only). */
function validateSuccessPolicy(spec: JsonObject, policy: JsonObject, path: Path): FieldError[] {
  const errors: FieldError[] = [];
  const rules = listOf(policy, 'rules');
  const rulesPath = path.child('rules');
  if (rules.length === 0) errors.push(required(rulesPath, 'at least one rules must be specified when the successPolicy is specified'));
  if (rules.length > 20) errors.push(tooMany(rulesPath, rules.length, 20));
  const completions = numberOf(spec, 'completions');
  rules.forEach((rule, i) => {
    const at = rulesPath.index(i);
    const indexes = optionalString(rule, 'succeededIndexes');
    const count = optionalNumber(rule, 'succeededCount');
    if (indexes === undefined && count === undefined) errors.push(required(at, 'at least one of succeededCount or succeededIndexes must be specified'));
    let total = 0;
    if (indexes !== undefined) {
      if (Buffer.byteLength(indexes, 'utf8') > 64 * 1024) errors.push(tooLong(at.child('succeededIndexes'), 64 * 1024));
      const parsed = indexesFormat(indexes, completions);
      if ('error' in parsed) errors.push(invalid(at.child('succeededIndexes'), indexes, `error parsing succeededIndexes: ${parsed.error}`));
      else total = parsed.total;
    }
    if (count !== undefined) {
      errors.push(...nonNegative(count, at.child('succeededCount')));
      if (count > completions)
        errors.push(invalid(at.child('succeededCount'), count, `must be less than or equal to ${completions} (the number of specified completions)`));
      if (indexes !== undefined && count > total)
        errors.push(
          invalid(at.child('succeededCount'), count, `must be less than or equal to ${total} (the number of indexes in the specified succeededIndexes field)`),
        );
    }
  });
  return errors;
}

const MANAGED_BY_PATH = /^[A-Za-z0-9/\-._~%!$&'()*+,;=:]+$/;

/** IsDomainPrefixedPath. */
function domainPrefixedPath(value: string, path: Path): FieldError[] {
  if (value === '') return [required(path)];
  const slash = value.indexOf('/');
  if (slash <= 0 || slash === value.length - 1) return [invalid(path, value, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  const host = value.slice(0, slash);
  const rest = value.slice(slash + 1);
  const errors = dns1123SubdomainErrors(host).map((message) => invalid(path, host, message));
  if (!MANAGED_BY_PATH.test(rest)) errors.push(invalid(path, rest, "Invalid path (regex used for validation is '[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')"));
  return errors;
}

/** validateJobSpec: what Jobs and CronJob job templates share. */
function validateJobSpec(spec: JsonObject, allowPrivileged: boolean, path: Path): FieldError[] {
  const errors: FieldError[] = [];
  for (const key of ['parallelism', 'completions', 'activeDeadlineSeconds', 'backoffLimit', 'ttlSecondsAfterFinished', 'backoffLimitPerIndex']) {
    const value = optionalNumber(spec, key);
    if (value !== undefined) errors.push(...nonNegative(value, path.child(key)));
  }
  const parallelism = optionalNumber(spec, 'parallelism');
  const completions = optionalNumber(spec, 'completions');
  const backoffLimitPerIndex = optionalNumber(spec, 'backoffLimitPerIndex');
  const maxFailedIndexes = optionalNumber(spec, 'maxFailedIndexes');
  if (maxFailedIndexes !== undefined) {
    errors.push(...nonNegative(maxFailedIndexes, path.child('maxFailedIndexes')));
    if (backoffLimitPerIndex === undefined) errors.push(required(path.child('backoffLimitPerIndex'), 'when maxFailedIndexes is specified'));
  }
  const managedBy = optionalString(spec, 'managedBy');
  if (managedBy !== undefined) {
    errors.push(...domainPrefixedPath(managedBy, path.child('managedBy')));
    if (Buffer.byteLength(managedBy, 'utf8') > 63) errors.push(tooLong(path.child('managedBy'), 63));
  }
  const completionMode = optionalString(spec, 'completionMode');
  if (completionMode !== undefined) {
    if (completionMode !== 'NonIndexed' && completionMode !== 'Indexed')
      errors.push(notSupported(path.child('completionMode'), json(completionMode), ['NonIndexed', 'Indexed']));
    if (completionMode === 'Indexed') {
      if (completions === undefined) errors.push(required(path.child('completions'), 'when completion mode is Indexed'));
      if (parallelism !== undefined && parallelism > MAX_PARALLELISM_INDEXED)
        errors.push(
          invalid(path.child('parallelism'), parallelism, `must be less than or equal to ${MAX_PARALLELISM_INDEXED} when completion mode is Indexed`),
        );
      if (completions !== undefined && maxFailedIndexes !== undefined && maxFailedIndexes > completions)
        errors.push(invalid(path.child('maxFailedIndexes'), maxFailedIndexes, 'must be less than or equal to completions'));
      if (maxFailedIndexes !== undefined && maxFailedIndexes > MAX_FAILED_INDEXES)
        errors.push(invalid(path.child('maxFailedIndexes'), maxFailedIndexes, `must be less than or equal to ${MAX_FAILED_INDEXES}`));
      if (completions !== undefined && completions > COMPLETIONS_SOFT_LIMIT && backoffLimitPerIndex !== undefined) {
        if (maxFailedIndexes === undefined)
          errors.push(required(path.child('maxFailedIndexes'), `must be specified when completions is above ${COMPLETIONS_SOFT_LIMIT}`));
        if (parallelism !== undefined && parallelism > PARALLELISM_LIMIT_HIGH_COMPLETIONS)
          errors.push(
            invalid(
              path.child('parallelism'),
              parallelism,
              `must be less than or equal to ${PARALLELISM_LIMIT_HIGH_COMPLETIONS} when completions are above ${COMPLETIONS_SOFT_LIMIT} and used with backoff limit per index`,
            ),
          );
        if (maxFailedIndexes !== undefined && maxFailedIndexes > MAX_FAILED_INDEXES_HIGH_COMPLETIONS)
          errors.push(
            invalid(
              path.child('maxFailedIndexes'),
              maxFailedIndexes,
              `must be less than or equal to ${MAX_FAILED_INDEXES_HIGH_COMPLETIONS} when completions are above ${COMPLETIONS_SOFT_LIMIT} and used with backoff limit per index`,
            ),
          );
      }
    }
  }
  if (completionMode === undefined || completionMode === 'NonIndexed') {
    if (backoffLimitPerIndex !== undefined) errors.push(invalid(path.child('backoffLimitPerIndex'), backoffLimitPerIndex, 'requires indexed completion mode'));
    if (maxFailedIndexes !== undefined) errors.push(invalid(path.child('maxFailedIndexes'), maxFailedIndexes, 'requires indexed completion mode'));
  }
  const podFailurePolicy = objectOf(spec, 'podFailurePolicy');
  if (podFailurePolicy) errors.push(...validatePodFailurePolicy(spec, podFailurePolicy, path.child('podFailurePolicy')));
  const successPolicy = objectOf(spec, 'successPolicy');
  if (successPolicy) {
    if (completionMode !== 'Indexed')
      errors.push(invalid(path.child('successPolicy'), json(successPolicyValue(successPolicy)), 'requires indexed completion mode'));
    else errors.push(...validateSuccessPolicy(spec, successPolicy, path.child('successPolicy')));
  }
  const replacement = optionalString(spec, 'podReplacementPolicy');
  if (replacement !== undefined) {
    if (podFailurePolicy) {
      if (replacement !== 'Failed') errors.push(notSupported(path.child('podReplacementPolicy'), json(replacement), ['Failed']));
    } else if (replacement !== 'Failed' && replacement !== 'TerminatingOrFailed') {
      errors.push(notSupported(path.child('podReplacementPolicy'), json(replacement), ['Failed', 'TerminatingOrFailed']));
    }
  }
  const template = objectOf(spec, 'template') ?? {};
  errors.push(...validatePodTemplateSpec(template, path.child('template'), { allowPrivileged, resourceIsPod: false }));
  const restartPolicy = stringOf(objectOf(template, 'spec'), 'restartPolicy');
  const restartPath = path.child('template', 'spec', 'restartPolicy');
  if (restartPolicy === 'Always' || restartPolicy === '') errors.push(required(restartPath, 'valid values: "OnFailure", "Never"'));
  else if (restartPolicy !== 'OnFailure' && restartPolicy !== 'Never') errors.push(notSupported(restartPath, json(restartPolicy), ['OnFailure', 'Never']));
  else if (podFailurePolicy && restartPolicy !== 'Never')
    errors.push(invalid(restartPath, json(restartPolicy), 'only "Never" is supported when podFailurePolicy is specified'));
  return errors;
}

/** The internal SuccessPolicy as json.Marshal prints it. */
function successPolicyValue(policy: JsonObject): Json {
  return {
    Rules: listOf(policy, 'rules').map((rule) => ({
      SucceededIndexes: optionalString(rule, 'succeededIndexes') ?? null,
      SucceededCount: optionalNumber(rule, 'succeededCount') ?? null,
    })),
  };
}

/** ValidateJobSpec: the shared rules, then the selector (required, valid, matching the template). */
function validateJobSpecWithSelector(spec: JsonObject, allowPrivileged: boolean, path: Path): FieldError[] {
  const errors = validateJobSpec(spec, allowPrivileged, path);
  const selector = objectOf(spec, 'selector');
  if (!selector) errors.push(required(path.child('selector')));
  else errors.push(...validateLabelSelector(selector, path.child('selector')));
  const compiled = selectorOf(selector);
  const template = objectOf(spec, 'template') ?? {};
  const labels = stringMapOf(objectOf(template, 'metadata'), 'labels');
  if (compiled && !compiled.matches(labels))
    errors.push(invalid(path.child('template', 'metadata', 'labels'), json(labels ? goMap(labels) : null), '`selector` does not match template `labels`'));
  return errors;
}

/** ValidateHasLabel. */
function hasLabel(meta: JsonObject, key: string, expected: string, path: Path): FieldError[] {
  const labels = stringMapOf(meta, 'labels');
  if (!labels || !(key in labels)) return [required(path.child('labels').key(key), `must be '${expected}'`)];
  return labels[key] === expected ? [] : [invalid(path.child('labels').key(key), json(goMap(labels)), `must be '${expected}'`)];
}

/** validateGeneratedSelector: an auto-generated selector must select the job's uid and name. */
function validateGeneratedSelector(job: JsonObject, requirePrefixedLabels: boolean): FieldError[] {
  const spec = objectOf(job, 'spec') ?? {};
  if (optionalBoolean(spec, 'manualSelector') === true) return [];
  const selector = objectOf(spec, 'selector');
  if (!selector) return [];
  const meta = metadataOf(job);
  const uid = stringOf(meta, 'uid');
  const name = stringOf(meta, 'name');
  const errors: FieldError[] = [];
  if (uid === '') errors.push(required(METADATA.child('uid')));
  const templateMeta = objectOf(objectOf(spec, 'template'), 'metadata') ?? {};
  const templatePath = SPEC.child('template').child('metadata');
  errors.push(...hasLabel(templateMeta, 'controller-uid', uid, templatePath));
  errors.push(...hasLabel(templateMeta, 'job-name', name, templatePath));
  const expected: Record<string, string> = {};
  if (requirePrefixedLabels) {
    errors.push(...hasLabel(templateMeta, 'batch.kubernetes.io/controller-uid', uid, templatePath));
    errors.push(...hasLabel(templateMeta, 'batch.kubernetes.io/job-name', name, templatePath));
    expected['batch.kubernetes.io/controller-uid'] = uid;
    expected['batch.kubernetes.io/job-name'] = name;
  }
  expected['controller-uid'] = uid;
  expected['job-name'] = name;
  const compiled = selectorOf(selector);
  if (compiled && !compiled.matches(expected))
    errors.push(invalid(SPEC.child('selector'), json(labelSelectorValue(selector)), '`selector` not auto-generated'));
  return errors;
}

/** ValidateJob. */
function validateJobObject(job: JsonObject, allowPrivileged: boolean, requirePrefixedLabels: boolean): FieldError[] {
  const meta = metadataOf(job);
  const spec = objectOf(job, 'spec') ?? {};
  const errors = validateObjectMeta(meta, true, nameIsDnsSubdomain, METADATA);
  errors.push(...validateGeneratedSelector(job, requirePrefixedLabels));
  errors.push(...validateJobSpecWithSelector(spec, allowPrivileged, SPEC));
  const completions = optionalNumber(spec, 'completions');
  if (stringOf(spec, 'completionMode') === 'Indexed' && completions !== undefined && completions > 0) {
    // Indexed pods are named `<job>-<index>`; the longest must be a DNS label.
    const hostname = `${stringOf(meta, 'name')}-${completions - 1}`;
    if (dns1123LabelErrors(hostname).length > 0)
      errors.push(invalid(METADATA.child('name'), stringOf(meta, 'name'), `will not able to create pod with invalid DNS label: ${hostname}`));
  }
  return errors;
}

/** The job strategy's Validate (the prefixed selector labels are required on create). */
export function validateJob(job: JsonObject, allowPrivileged: boolean): FieldError[] {
  return validateJobObject(job, allowPrivileged, true);
}

/**
 * The job strategy's ValidateUpdate: ValidateJob, then ValidateJobUpdate (which validates the spec once
 * more, so its errors appear twice, as upstream's do). Completions are mutable only for Indexed jobs
 * when scaled with parallelism (ElasticIndexedJob); the template only in its scheduling directives while
 * the job is suspended and has never started.
 */
export function validateJobUpdate(job: JsonObject, old: JsonObject, allowPrivileged: boolean): FieldError[] {
  const oldSpec = objectOf(old, 'spec') ?? {};
  const oldLabels = stringMapOf(objectOf(objectOf(oldSpec, 'template'), 'metadata'), 'labels') ?? {};
  const requirePrefixed = 'batch.kubernetes.io/job-name' in oldLabels && 'batch.kubernetes.io/controller-uid' in oldLabels;
  const errors = validateJobObject(job, allowPrivileged, requirePrefixed);
  errors.push(...validateObjectMetaUpdate(metadataOf(job), metadataOf(old), METADATA));
  const spec = objectOf(job, 'spec') ?? {};
  errors.push(...validateJobSpecWithSelector(spec, allowPrivileged, SPEC));
  errors.push(...validateCompletionsUpdate(spec, oldSpec));
  errors.push(...immutable(spec, oldSpec, 'selector', (v) => labelSelectorValue(v as JsonObject | undefined)));
  // Scheduling directives are mutable while the job is suspended and has never started.
  const suspended = optionalBoolean(oldSpec, 'suspend') === true && optionalString(objectOf(old, 'status'), 'startTime') === undefined;
  const template = objectOf(spec, 'template') ?? {};
  let oldTemplate: JsonObject = objectOf(oldSpec, 'template') ?? {};
  if (suspended) oldTemplate = withMutableSchedulingDirectives(template, oldTemplate);
  if (!semanticEqualAt('io.k8s.api.core.v1.PodTemplateSpec', undefined, template, oldTemplate))
    errors.push(invalid(SPEC.child('template'), json(template), FIELD_IMMUTABLE));
  for (const key of ['completionMode', 'podFailurePolicy', 'backoffLimitPerIndex', 'managedBy', 'successPolicy'])
    errors.push(...immutable(spec, oldSpec, key, (v) => v ?? null));
  return errors;
}

/** The old template with the new one's scheduling directives (AllowMutableSchedulingDirectives). */
function withMutableSchedulingDirectives(template: JsonObject, old: JsonObject): JsonObject {
  const spec = objectOf(template, 'spec') ?? {};
  const oldSpec: JsonObject = { ...(objectOf(old, 'spec') ?? {}) };
  const affinity = objectOf(spec, 'affinity');
  const oldAffinity = objectOf(oldSpec, 'affinity');
  if (!affinity && oldAffinity) {
    const rest = { ...oldAffinity, nodeAffinity: null };
    oldSpec.affinity = Object.values(rest).some((v) => v !== null && v !== undefined) ? rest : null;
  } else if (affinity) {
    oldSpec.affinity = { ...(oldAffinity ?? {}), nodeAffinity: affinity.nodeAffinity ?? null };
  }
  for (const key of ['nodeSelector', 'tolerations', 'schedulingGates']) oldSpec[key] = spec[key] ?? null;
  const meta = objectOf(template, 'metadata') ?? {};
  return { ...old, metadata: { ...(objectOf(old, 'metadata') ?? {}), annotations: meta.annotations ?? null, labels: meta.labels ?? null }, spec: oldSpec };
}

function immutable(spec: JsonObject, oldSpec: JsonObject, key: string, render: (value: Json | undefined) => Json): FieldError[] {
  return semanticEqualAt(JOB_SPEC, key, spec[key], oldSpec[key]) ? [] : [invalid(SPEC.child(key), json(render(spec[key])), FIELD_IMMUTABLE)];
}

/** validateCompletions with ElasticIndexedJob (GA). */
function validateCompletionsUpdate(spec: JsonObject, oldSpec: JsonObject): FieldError[] {
  if (semanticEqualAt(JOB_SPEC, 'completions', spec.completions, oldSpec.completions)) return [];
  const path = SPEC.child('completions');
  if (stringOf(spec, 'completionMode') !== 'Indexed') return [invalid(path, json(spec.completions ?? null), FIELD_IMMUTABLE)];
  const completions = optionalNumber(spec, 'completions');
  if (completions === undefined) return [];
  return completions !== optionalNumber(spec, 'parallelism') ? [invalid(path, json(completions), 'can only be modified in tandem with spec.parallelism')] : [];
}

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
