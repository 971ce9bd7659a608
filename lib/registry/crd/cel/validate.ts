/**
 * Running x-kubernetes-validations over a custom resource (apiextensions-apiserver
 * pkg/apiserver/schema/cel/validation.go `Validator.validate`). At each node that is not null: the
 * node's rules in order, then the rules of its `allOf` branches, then its children: map values,
 * object members (in the object's order, as Go iterates the map), list items.
 *
 * - `self` is the node's value; `oldSelf` its correlated old value (object members always, map-list
 *   items by their keys, other list items never). A transition rule (one using `oldSelf`) is skipped
 *   without an old value, unless `optionalOldSelf` makes `oldSelf` an optional.
 * - A failing rule reports at the node (or its `fieldPath`):
 *   `spec: Invalid value: "object": <message>`, the value being the schema's type; `reason` picks
 *   Forbidden, Required or Duplicate instead. The message is the evaluated `messageExpression`, else
 *   `message`, else `failed rule: <rule>`.
 * - An evaluation error reads `<error> evaluating rule: <rule or message>`.
 */
import { isObject, type Json } from '../../../kube/json';
import type { FieldError } from '../../../kube/status';
import { COST_LIMIT_EXCEEDED, OUT_OF_COST_BUDGET, RUNTIME_COST_BUDGET } from '../../../cel/cost/limits';
import { evaluateProgram, type Evaluation } from '../../../cel/evaluate';
import { goQuote } from '../../../go/strconv';
import { celModule } from '../../../cel/runtime';
import { duplicate, forbidden, invalid, required } from '../../../kube/field-errors';
import { at, child, index, key } from '../field-path';
import { findByKeys } from '../openapi/ratchet';
import type { SchemaNode, ValidationRule } from '../schema-node';
import { compiledRules } from './rules';
import { ratchetIndex, ratchetKey, shouldRatchet, type Ratcheting } from './correlation';
import { celValueOf } from './values';

export interface RuleOutcome {
  errors: FieldError[];
  /** Ratcheted failures, as kube-apiserver returns them in `Warning` headers. */
  warnings: string[];
}

/** The rules of one object share RuntimeCELCostBudget; past it, or past one rule's limit, no further rule runs. */
interface Budget {
  remaining: number;
  stopped: boolean;
}

/** kube's MaxEvaluatedMessageExpressionSizeBytes. */
const MAX_MESSAGE_BYTES = 5 * 1024;

/** Evaluates every rule of the schema over `object` (with `old` on update). */
export function validateRules(root: SchemaNode, object: Json, old: Json | undefined, ratcheting: Ratcheting): RuleOutcome {
  const outcome: RuleOutcome & { budget: Budget } = { errors: [], warnings: [], budget: { remaining: RUNTIME_COST_BUDGET, stopped: false } };
  visit(root, root, '', object, old, true, ratcheting, outcome);
  return { errors: outcome.errors, warnings: outcome.warnings };
}

const withRules = new WeakMap<SchemaNode, boolean>();

/** Whether the subtree under the node (as validation sees it) holds any rule (memoized per node). */
function hasRules(node: SchemaNode): boolean {
  let known = withRules.get(node);
  if (known === undefined) {
    known =
      node.validations.length > 0 ||
      node.allOf.some(hasRules) ||
      [...node.properties.values()].some(hasRules) ||
      (typeof node.additionalProperties === 'object' && hasRules(node.additionalProperties)) ||
      (node.items !== undefined && hasRules(node.items));
    withRules.set(node, known);
  }
  return known;
}

/** Whether CEL sees values of this schema at all (SchemaDeclType returns a type). */
function exposed(node: SchemaNode): boolean {
  if (node.intOrString) return true;
  switch (node.type) {
    case 'array':
      return node.items !== undefined && exposed(node.items);
    case 'object':
      return typeof node.additionalProperties === 'object' ? exposed(node.additionalProperties) : true;
    case 'string':
    case 'boolean':
    case 'number':
    case 'integer':
      return true;
    default:
      return false;
  }
}

/**
 * One validator node: `rules` holds the rules (the schema, or an allOf branch of it), `node` the
 * types of the value (validator.go keeps the two apart for allOf).
 */
function visit(
  rules: SchemaNode,
  node: SchemaNode,
  path: string,
  value: Json | undefined,
  old: Json | undefined,
  isResourceRoot: boolean,
  ratcheting: Ratcheting,
  outcome: RuleOutcome & { budget: Budget },
): void {
  if (value === undefined || value === null || outcome.budget.stopped || !hasRules(rules)) return;
  evaluateRules(rules, node, path, value, old, isResourceRoot, ratcheting, outcome);
  for (const branch of rules.allOf) {
    // allOf is not ratcheted on its own: only the nearest correlated parent decides.
    visit(branch, node, path, value, old, isResourceRoot, { nearestParent: ratcheting.nearestParent }, outcome);
  }
  if (Array.isArray(value)) {
    const items = rules.items;
    if (!items || !node.items) return;
    const oldList = Array.isArray(old) ? old : undefined;
    value.forEach((item, i) => {
      // Only map-list items are correlated with an old item.
      const oldItem = oldList && node.listType === 'map' ? findByKeys(node.listMapKeys, item, oldList) : undefined;
      visit(items, node.items as SchemaNode, index(path, i), item, oldItem, node.items?.embeddedResource ?? false, ratchetIndex(ratcheting, i), outcome);
    });
    return;
  }
  if (!isObject(value)) return;
  const oldObject = isObject(old) && node.mapType !== 'atomic' ? old : undefined;
  const extra = typeof rules.additionalProperties === 'object' ? rules.additionalProperties : undefined;
  const extraNode = typeof node.additionalProperties === 'object' ? node.additionalProperties : undefined;
  if (extra && extraNode && exposed(extraNode)) {
    for (const [name, member] of Object.entries(value)) {
      visit(extra, extraNode, key(path, name), member, oldObject?.[name], extraNode.embeddedResource, ratchetKey(ratcheting, name), outcome);
    }
  }
  if (rules.properties.size === 0) return;
  for (const [name, member] of Object.entries(value)) {
    const ruleProperty = rules.properties.get(name);
    const property = node.properties.get(name);
    if (!ruleProperty || !property || !exposed(property)) continue;
    visit(ruleProperty, property, child(path, name), member, oldObject?.[name], property.embeddedResource, ratchetKey(ratcheting, name), outcome);
  }
}

/** `evalMessageExpression`: the text that stops validation when a messageExpression runs out of budget or limit. */
function messageBudgetError(evaluated: Evaluation, budget: Budget, source: string): string | undefined {
  if (evaluated.cost > budget.remaining)
    return 'messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run';
  if ('error' in evaluated && evaluated.error === COST_LIMIT_EXCEEDED)
    return `no further validation rules will be run due to call cost exceeds limit for messageExpression: ${goQuote(source)}`;
  budget.remaining -= evaluated.cost;
  return undefined;
}

/** `ruleErrorString`: the message when there is one, else the rule. */
const ruleText = (rule: ValidationRule) => (rule.message ? rule.message.trim() : rule.rule.trim());

/** `fieldErrorForReason`. */
function failureFor(path: string, type: string, detail: string, reason: string | undefined): FieldError {
  switch (reason) {
    case 'FieldValueForbidden':
      return forbidden(at(path), detail);
    case 'FieldValueRequired':
      return required(at(path), detail);
    case 'FieldValueDuplicate':
      return duplicate(at(path), type);
    default:
      return invalid(at(path), type, detail);
  }
}

/** `validateExpressions`. */
function evaluateRules(
  rules: SchemaNode,
  node: SchemaNode,
  path: string,
  value: Json,
  old: Json | undefined,
  isResourceRoot: boolean,
  ratcheting: Ratcheting,
  outcome: RuleOutcome & { budget: Budget },
): void {
  const compiled = compiledRules(rules);
  if (compiled.length === 0) return;
  const type = node.type;
  const self = celValueOf(node, value, isResourceRoot);
  const oldSelf = old === undefined || old === null ? undefined : celValueOf(node, old, isResourceRoot);
  const { Optional } = celModule();
  for (const rule of compiled) {
    if (rule.error !== undefined) {
      outcome.errors.push(invalid(at(path), type, `rule compile error: ${rule.error}`));
      continue;
    }
    if (!rule.program) continue;
    const optional = rule.rule.optionalOldSelf === true;
    if (rule.usesOldSelf && oldSelf === undefined && !optional) continue;
    // The message expression always sees the plain activation, oldSelf not wrapped in an optional.
    const plain: Record<string, unknown> = oldSelf === undefined ? { self } : { self, oldSelf };
    const context = optional ? { self, oldSelf: oldSelf === undefined ? Optional.none() : Optional.of(oldSelf) } : plain;
    const result = evaluateProgram(rule.program, context);
    const { budget } = outcome;
    if (result.cost > budget.remaining) {
      outcome.errors.push(invalid(at(path), type, OUT_OF_COST_BUDGET));
      budget.stopped = true;
      return;
    }
    budget.remaining -= result.cost;
    if ('error' in result && result.error === COST_LIMIT_EXCEEDED) {
      outcome.errors.push(
        invalid(at(path), type, `'${result.error}': no further validation rules will be run due to call cost exceeds limit for rule: ${ruleText(rule.rule)}`),
      );
      budget.stopped = true;
      return;
    }
    if ('error' in result) {
      const detail = result.error.startsWith('no such overload')
        ? `'${result.error}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleText(rule.rule)}`
        : `${result.error} evaluating rule: ${ruleText(rule.rule)}`;
      outcome.errors.push(invalid(at(path), type, detail));
      continue;
    }
    if (result.value === true) continue;
    const target = rule.fieldPath ? child(path, rule.fieldPath) : path;
    let detail: string | undefined;
    if (rule.message) {
      const evaluated = evaluateProgram(rule.message, plain);
      const stop = messageBudgetError(evaluated, budget, rule.rule.messageExpression ?? '');
      if (stop !== undefined) {
        outcome.errors.push(invalid(at(path), type, stop));
        budget.stopped = true;
        return;
      }
      if ('value' in evaluated && typeof evaluated.value === 'string') {
        const trimmed = evaluated.value.trim();
        // Too long, multi-line or empty messages fall back to the static message.
        if (trimmed !== '' && Buffer.byteLength(trimmed) <= MAX_MESSAGE_BYTES && !trimmed.includes('\n')) detail = trimmed;
      }
    }
    detail ??= rule.rule.message ? rule.rule.message.trim() : `failed rule: ${ruleText(rule.rule)}`;
    const error = failureFor(target, type, detail, rule.rule.reason);
    if (!rule.usesOldSelf && shouldRatchet(ratcheting)) outcome.warnings.push(`${error.field}: ${error.body}`);
    else outcome.errors.push(error);
  }
}
