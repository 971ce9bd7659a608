/**
 * metav1.LabelSelector in an object's spec: its validation (apis/meta/v1/validation
 * ValidateLabelSelector) and what LabelSelectorAsSelector makes of it, which the workload
 * validations use to check a selector against the pod template's labels.
 */
import type { LabelSelector } from 'kubernetes-types/meta/v1.js';
import type { Json, JsonObject } from '../../kube/json';
import { compileSelector, type CompiledSelector } from '../../kube/label-selector';
import type { FieldError } from '../../kube/status';
import { listOf, stringMapOf, stringOf, stringsOf } from './access';
import { forbidden, invalid, json, required } from '../../kube/field-errors';
import { goMap } from '../../go/json-marshal';
import { labelValueErrors } from '../../kube/value-formats';
import { validateLabelName, validateLabels } from './labels';
import type { Path } from '../../kube/field-path';

/** ValidateLabelSelector with AllowInvalidLabelValueInSelector false (the workloads' strict mode). */
export function validateLabelSelector(selector: JsonObject | undefined, path: Path): FieldError[] {
  if (!selector) return [];
  const errors = validateLabels(stringMapOf(selector, 'matchLabels'), path.child('matchLabels'));
  listOf(selector, 'matchExpressions').forEach((expression, i) => {
    const at = path.child('matchExpressions').index(i);
    const values = stringsOf(expression, 'values');
    const operator = stringOf(expression, 'operator');
    switch (operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) errors.push(required(at.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"));
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) errors.push(forbidden(at.child('values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
        break;
      default:
        errors.push(invalid(at.child('operator'), json(operator), 'not a valid selector operator'));
    }
    errors.push(...validateLabelName(stringOf(expression, 'key'), at.child('key')));
    values.forEach((value, j) => errors.push(...labelValueErrors(value).map((message) => invalid(at.child('values').index(j), value, message))));
  });
  return errors;
}

/**
 * metav1.LabelSelectorAsSelector: undefined when the selector cannot be converted (kube's err != nil).
 * A nil selector selects nothing, `{}` everything.
 */
export function selectorOf(selector: JsonObject | undefined): CompiledSelector | undefined {
  try {
    return compileSelector(selector as LabelSelector | undefined);
  } catch {
    return undefined;
  }
}

/** `selector.Empty()`: true for the everything selector only (labels.Nothing() is not empty). */
export function isEmptySelector(selector: CompiledSelector): boolean {
  return selector.everything;
}

/** A LabelSelector as json.Marshal prints it: Go field order, omitempty members dropped, maps sorted. */
export function labelSelectorValue(selector: JsonObject | undefined): Json {
  if (!selector) return null;
  const out: JsonObject = {};
  const matchLabels = stringMapOf(selector, 'matchLabels');
  if (matchLabels && Object.keys(matchLabels).length > 0) out.matchLabels = goMap(matchLabels);
  const expressions = listOf(selector, 'matchExpressions');
  if (expressions.length > 0) {
    out.matchExpressions = expressions.map((expression) => {
      const values = stringsOf(expression, 'values');
      return { key: stringOf(expression, 'key'), operator: stringOf(expression, 'operator'), ...(values.length > 0 ? { values } : {}) };
    });
  }
  return out;
}
