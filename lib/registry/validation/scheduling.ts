/**
 * Where a pod may run: affinity, tolerations, topology spread constraints (core validation
 * validateAffinity, ValidateNodeSelector*, validatePodAffinityTerm, ValidateTolerations,
 * validateTopologySpreadConstraints).
 */
import type { JsonObject } from '../../kube/json';
import type { FieldError } from '../../kube/status';
import { listOf, numberOf, objectOf, optionalNumber, optionalString, stringOf, stringsOf } from './access';
import { duplicate, forbidden, invalid, json, notSupported, required } from '../../kube/field-errors';
import { labelValueErrors } from '../../kube/value-formats';
import { validateLabelSelector } from './label-selector';
import { validateLabelName } from './labels';
import { nameIsDnsLabel, nameIsDnsSubdomain } from '../../kube/name-validators';
import type { Path } from '../../kube/field-path';

/** ValidateNodeSelectorRequirement (required node affinity: label values checked). */
function validateNodeSelectorRequirement(requirement: JsonObject, checkValues: boolean, path: Path): FieldError[] {
  const errors: FieldError[] = [];
  const values = stringsOf(requirement, 'values');
  const operator = stringOf(requirement, 'operator');
  switch (operator) {
    case 'In':
    case 'NotIn':
      if (values.length === 0) errors.push(required(path.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"));
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length > 0) errors.push(forbidden(path.child('values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      break;
    case 'Gt':
    case 'Lt':
      if (values.length !== 1) errors.push(required(path.child('values'), "must be specified single value when `operator` is 'Lt' or 'Gt'"));
      break;
    default:
      errors.push(invalid(path.child('operator'), json(operator), 'not a valid selector operator'));
  }
  errors.push(...validateLabelName(stringOf(requirement, 'key'), path.child('key')));
  if (checkValues)
    values.forEach((value, i) => errors.push(...labelValueErrors(value).map((message) => invalid(path.child('values').index(i), value, message))));
  return errors;
}

/** ValidateNodeFieldSelectorRequirement: only metadata.name, one value. */
function validateNodeFieldSelectorRequirement(requirement: JsonObject, path: Path): FieldError[] {
  const errors: FieldError[] = [];
  const values = stringsOf(requirement, 'values');
  const operator = stringOf(requirement, 'operator');
  if (operator === 'In' || operator === 'NotIn') {
    if (values.length !== 1) errors.push(required(path.child('values'), "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"));
  } else {
    errors.push(invalid(path.child('operator'), json(operator), 'not a valid selector operator'));
  }
  const key = stringOf(requirement, 'key');
  if (key !== 'metadata.name') errors.push(invalid(path.child('key'), key, 'not a valid field selector key'));
  else values.forEach((value, i) => errors.push(...nameIsDnsSubdomain(value, false).map((message) => invalid(path.child('values').index(i), value, message))));
  return errors;
}

function validateNodeSelectorTerm(term: JsonObject, checkValues: boolean, path: Path): FieldError[] {
  return [
    ...listOf(term, 'matchExpressions').flatMap((r, j) => validateNodeSelectorRequirement(r, checkValues, path.child('matchExpressions').index(j))),
    ...listOf(term, 'matchFields').flatMap((r, j) => validateNodeFieldSelectorRequirement(r, path.child('matchFields').index(j))),
  ];
}

function validateNodeAffinity(affinity: JsonObject, path: Path): FieldError[] {
  const errors: FieldError[] = [];
  const requiredTerms = objectOf(affinity, 'requiredDuringSchedulingIgnoredDuringExecution');
  if (requiredTerms) {
    const at = path.child('requiredDuringSchedulingIgnoredDuringExecution').child('nodeSelectorTerms');
    const terms = listOf(requiredTerms, 'nodeSelectorTerms');
    if (terms.length === 0) errors.push(required(at, 'must have at least one node selector term'));
    else terms.forEach((term, i) => errors.push(...validateNodeSelectorTerm(term, true, at.index(i))));
  }
  listOf(affinity, 'preferredDuringSchedulingIgnoredDuringExecution').forEach((term, i) => {
    const at = path.child('preferredDuringSchedulingIgnoredDuringExecution').index(i);
    const weight = numberOf(term, 'weight');
    if (weight <= 0 || weight > 100) errors.push(invalid(at.child('weight'), weight, 'must be in the range 1-100'));
    // Preferred terms tolerate invalid label values.
    errors.push(...validateNodeSelectorTerm(objectOf(term, 'preference') ?? {}, false, at.child('preference')));
  });
  return errors;
}

/** validateMatchLabelKeysAndMismatchLabelKeys. */
function validateLabelKeyLists(term: JsonObject, path: Path): FieldError[] {
  const errors: FieldError[] = [];
  const selector = objectOf(term, 'labelSelector');
  const match = stringsOf(term, 'matchLabelKeys');
  const mismatch = stringsOf(term, 'mismatchLabelKeys');
  for (const [key, keys] of [
    ['matchLabelKeys', match],
    ['mismatchLabelKeys', mismatch],
  ] as const) {
    if (keys.length === 0) continue;
    if (!selector) errors.push(forbidden(path.child(key), 'must not be specified when labelSelector is not set'));
    else keys.forEach((k, i) => errors.push(...validateLabelName(k, path.child(key).index(i))));
  }
  if (selector) {
    const matchIndex = new Map(match.map((k, i) => [k, i]));
    const selectorKeys = new Set(Object.keys(objectOf(selector, 'matchLabels') ?? {}));
    for (const expression of listOf(selector, 'matchExpressions')) {
      const key = stringOf(expression, 'key');
      const i = matchIndex.get(key);
      if (i !== undefined && selectorKeys.has(key)) errors.push(invalid(path.index(i), key, 'exists in both matchLabelKeys and labelSelector'));
      selectorKeys.add(key);
    }
  }
  const mismatchSet = new Set(mismatch);
  match.forEach((k, i) => {
    if (mismatchSet.has(k)) errors.push(invalid(path.child('matchLabelKeys').index(i), k, 'exists in both matchLabelKeys and mismatchLabelKeys'));
  });
  return errors;
}

/** validatePodAffinityTerm. */
function validatePodAffinityTerm(term: JsonObject, path: Path): FieldError[] {
  const errors = validateLabelSelector(objectOf(term, 'labelSelector'), path.child('labelSelector'));
  errors.push(...validateLabelSelector(objectOf(term, 'namespaceSelector'), path.child('namespaceSelector')));
  for (const namespace of stringsOf(term, 'namespaces'))
    errors.push(...nameIsDnsLabel(namespace, false).map((message) => invalid(path.child('namespace'), namespace, message)));
  errors.push(...validateLabelKeyLists(term, path));
  const topologyKey = stringOf(term, 'topologyKey');
  if (topologyKey === '') errors.push(required(path.child('topologyKey'), 'can not be empty'));
  errors.push(...validateLabelName(topologyKey, path.child('topologyKey')));
  return errors;
}

function validatePodAffinity(affinity: JsonObject, path: Path): FieldError[] {
  const errors: FieldError[] = [];
  listOf(affinity, 'requiredDuringSchedulingIgnoredDuringExecution').forEach((term, i) => {
    errors.push(...validatePodAffinityTerm(term, path.child('requiredDuringSchedulingIgnoredDuringExecution').index(i)));
  });
  listOf(affinity, 'preferredDuringSchedulingIgnoredDuringExecution').forEach((weighted, i) => {
    const at = path.child('preferredDuringSchedulingIgnoredDuringExecution').index(i);
    const weight = numberOf(weighted, 'weight');
    if (weight <= 0 || weight > 100) errors.push(invalid(at.child('weight'), weight, 'must be in the range 1-100'));
    errors.push(...validatePodAffinityTerm(objectOf(weighted, 'podAffinityTerm') ?? {}, at.child('podAffinityTerm')));
  });
  return errors;
}

/** validateAffinity. */
export function validateAffinity(affinity: JsonObject | undefined, path: Path): FieldError[] {
  if (!affinity) return [];
  const errors: FieldError[] = [];
  const node = objectOf(affinity, 'nodeAffinity');
  if (node) errors.push(...validateNodeAffinity(node, path.child('nodeAffinity')));
  const pod = objectOf(affinity, 'podAffinity');
  if (pod) errors.push(...validatePodAffinity(pod, path.child('podAffinity')));
  const anti = objectOf(affinity, 'podAntiAffinity');
  if (anti) errors.push(...validatePodAffinity(anti, path.child('podAntiAffinity')));
  return errors;
}

const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/** validateTaintEffect (allowEmpty). */
function validateTaintEffect(effect: string, path: Path): FieldError[] {
  return TAINT_EFFECTS.includes(effect) ? [] : [notSupported(path, json(effect), TAINT_EFFECTS)];
}

/** ValidateTolerations. */
export function validateTolerations(tolerations: readonly JsonObject[], path: Path): FieldError[] {
  const errors: FieldError[] = [];
  tolerations.forEach((toleration, i) => {
    const at = path.index(i);
    const key = stringOf(toleration, 'key');
    const operator = stringOf(toleration, 'operator');
    const effect = stringOf(toleration, 'effect');
    const value = stringOf(toleration, 'value');
    if (key.length > 0) errors.push(...validateLabelName(key, at.child('key')));
    if (key.length === 0 && operator !== 'Exists')
      errors.push(invalid(at.child('operator'), json(operator), 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
    if (optionalNumber(toleration, 'tolerationSeconds') !== undefined && effect !== 'NoExecute')
      errors.push(invalid(at.child('effect'), json(effect), "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    switch (operator) {
      case 'Equal':
      case '': {
        const messages = labelValueErrors(value);
        if (messages.length > 0) errors.push(invalid(at.child('operator'), value, messages.join(';')));
        break;
      }
      case 'Exists':
        if (value.length > 0) errors.push(invalid(at.child('operator'), value, "value must be empty when `operator` is 'Exists'"));
        break;
      default:
        errors.push(notSupported(at.child('operator'), json(operator), ['Equal', 'Exists']));
    }
    if (effect.length > 0) errors.push(...validateTaintEffect(effect, at.child('effect')));
  });
  return errors;
}

const WHEN_UNSATISFIABLE = ['DoNotSchedule', 'ScheduleAnyway'];
const NODE_INCLUSION_POLICIES = ['Honor', 'Ignore'];

/** validateTopologySpreadConstraints. */
export function validateTopologySpreadConstraints(constraints: readonly JsonObject[], path: Path): FieldError[] {
  const errors: FieldError[] = [];
  constraints.forEach((constraint, i) => {
    const at = path.index(i);
    const maxSkew = numberOf(constraint, 'maxSkew');
    if (maxSkew <= 0) errors.push(invalid(at.child('maxSkew'), maxSkew, 'must be greater than zero'));
    const topologyKey = stringOf(constraint, 'topologyKey');
    if (topologyKey === '') errors.push(required(at.child('topologyKey'), 'can not be empty'));
    const action = stringOf(constraint, 'whenUnsatisfiable');
    if (!WHEN_UNSATISFIABLE.includes(action)) errors.push(notSupported(at.child('whenUnsatisfiable'), json(action), WHEN_UNSATISFIABLE));
    const repeated = constraints
      .slice(i + 1)
      .some((other) => stringOf(other, 'topologyKey') === topologyKey && stringOf(other, 'whenUnsatisfiable') === action);
    if (repeated) errors.push(duplicate(at.child('{topologyKey, whenUnsatisfiable}'), `{${topologyKey}, ${action}}`));
    const minDomains = optionalNumber(constraint, 'minDomains');
    if (minDomains !== undefined) {
      if (minDomains <= 0) errors.push(invalid(at.child('minDomains'), minDomains, 'must be greater than zero'));
      if (action !== 'DoNotSchedule')
        errors.push(invalid(at.child('minDomains'), minDomains, `can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ${action}`));
    }
    for (const key of ['nodeAffinityPolicy', 'nodeTaintsPolicy']) {
      const policy = optionalString(constraint, key);
      if (policy !== undefined && !NODE_INCLUSION_POLICIES.includes(policy)) errors.push(notSupported(at.child(key), json(policy), NODE_INCLUSION_POLICIES));
    }
    const selector = objectOf(constraint, 'labelSelector');
    const matchLabelKeys = stringsOf(constraint, 'matchLabelKeys');
    if (matchLabelKeys.length > 0) {
      const keys = new Set([...Object.keys(objectOf(selector, 'matchLabels') ?? {}), ...listOf(selector, 'matchExpressions').map((e) => stringOf(e, 'key'))]);
      if (!selector) errors.push(forbidden(at.child('matchLabelKeys'), 'must not be specified when labelSelector is not set'));
      matchLabelKeys.forEach((key, j) => {
        errors.push(...validateLabelName(key, at.child('matchLabelKeys').index(j)));
        if (keys.has(key)) errors.push(invalid(at.child('matchLabelKeys').index(j), key, 'exists in both matchLabelKeys and labelSelector'));
      });
    }
    errors.push(...validateLabelSelector(selector, at.child('labelSelector')));
  });
  return errors;
}
