/**
 * batch/v1 JobSpec rules that Jobs and CronJob job templates share (pkg/apis/batch/validation/validation.go
 * validateJobSpec): counts and limits, completion mode, managedBy, the pod failure and success policies,
 * and the pod template with its restart policy.
 */
import type { Json, JsonObject } from '../../kube/json';
import type { FieldError } from '../../kube/status';
import { has, listOf, numberOf, numbersOf, objectOf, optionalNumber, optionalString, stringOf } from './access';
import { duplicate, invalid, json, notSupported, OMIT, required, tooLong, tooMany } from '../../kube/field-errors';
import { dns1123SubdomainErrors, qualifiedNameErrors } from '../../kube/value-formats';
import { nonNegative } from './numbers';
import type { Path } from '../../kube/field-path';
import { validatePodTemplateSpec } from './pod';

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
export function validateJobSpec(spec: JsonObject, allowPrivileged: boolean, path: Path): FieldError[] {
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
