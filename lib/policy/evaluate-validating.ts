import { OUT_OF_COST_BUDGET, RUNTIME_COST_BUDGET } from '../cel/cost/limits';
import { evaluateProgram, expressionError, type Evaluation } from '../cel/evaluate';
import type { FailurePolicy } from '../kube/webhook-config';
import type { CompiledValidatingPolicy } from './compile-validating';
import { evaluateMatchConditions, withVariables, type PolicyActivation } from './scope';

/** validating `PolicyDecision`: what one validation (or a failure to evaluate) decided. */
export interface PolicyDecision {
  action: 'admit' | 'deny';
  evaluation: 'admit' | 'deny' | 'error';
  message: string;
  /** The status reason of a denial (`Invalid` unless the validation names another). */
  reason?: string;
}

/** validating `PolicyAuditAnnotation`. */
export interface PolicyAuditAnnotation {
  key: string;
  action: 'publish' | 'exclude' | 'error';
  value?: string;
  error?: string;
}

export interface ValidateResult {
  /** One per validation, in order; a single error decision when evaluation could not start. */
  decisions: PolicyDecision[];
  auditAnnotations: PolicyAuditAnnotation[];
  /** Why nothing was decided: a matchCondition was false, or failed under failurePolicy Ignore. */
  skipped?: string;
  /** Every expression that failed to evaluate, whatever the failurePolicy made of it. */
  errors: string[];
}

const onError = (failurePolicy: FailurePolicy | undefined): PolicyDecision['action'] => (failurePolicy === 'Ignore' ? 'admit' : 'deny');

/**
 * apiserver plugin/policy/validating validator.go `Validate`: the matchConditions (any false: nothing to
 * decide; errors: failurePolicy), then every validation with its messageExpression, then the audit
 * annotations. `variables` are evaluated on first use, once, as composition.go does.
 */
export function validatePolicy(compiled: CompiledValidatingPolicy, input: PolicyActivation): ValidateResult {
  const failurePolicy = compiled.policy.spec.failurePolicy;
  const activation = withVariables(compiled.variables, input);

  const conditions = evaluateMatchConditions(compiled.matchConditions, activation, failurePolicy);
  if (conditions.error !== undefined)
    return { decisions: [{ action: 'deny', evaluation: 'error', message: conditions.error }], auditAnnotations: [], errors: conditions.errors };
  if (conditions.skipped) return { decisions: [], auditAnnotations: [], skipped: conditions.skipped, errors: conditions.errors };

  // filter.go `ForInput`: the validations run first, each under the per-call limit and all of them
  // under one budget; past it, no further rule runs and the policy's one decision is that error.
  const budget = { remaining: RUNTIME_COST_BUDGET };
  const outcomes: Evaluation[] = [];
  for (const { condition } of compiled.validations) {
    const outcome = evaluateProgram(condition.program, activation);
    if (!spend(budget, outcome.cost)) return outOfBudget(failurePolicy);
    outcomes.push(outcome);
  }

  const decisions = compiled.validations.map(({ validation, condition, message }, i): PolicyDecision => {
    const outcome = outcomes[i]!;
    if ('error' in outcome) return { action: onError(failurePolicy), evaluation: 'error', message: expressionError(condition.expression, outcome.error) };
    if (typeof outcome.value !== 'boolean') {
      // kube's type checker knows the object's types and refuses such an expression when the policy is created.
      return {
        action: onError(failurePolicy),
        evaluation: 'error',
        message: expressionError(condition.expression, `must evaluate to bool but got ${celTypeOf(outcome.value)}`),
      };
    }
    if (outcome.value) return { action: 'admit', evaluation: 'admit', message: '' };
    const evaluated = message && evaluateProgram(message.program, { ...activation, authorizer: undefined });
    if (evaluated) spend(budget, evaluated.cost);
    return {
      action: 'deny',
      evaluation: 'deny',
      message: failureMessage(validation.expression, validation.message, evaluated),
      reason: validation.reason ?? 'Invalid',
    };
  });

  const auditAnnotations = compiled.auditAnnotations.map(({ annotation, value }): PolicyAuditAnnotation => {
    const outcome = evaluateProgram(value.program, activation);
    const key = annotation.key;
    if ('error' in outcome) return { key, action: failurePolicy === 'Ignore' ? 'exclude' : 'error', error: expressionError(value.expression, outcome.error) };
    if (outcome.value === null) return { key, action: 'exclude' };
    if (typeof outcome.value === 'string') {
      const text = outcome.value.trim();
      return text === '' ? { key, action: 'exclude' } : { key, action: 'publish', value: text };
    }
    return {
      key,
      action: 'error',
      error: `valueExpression '${annotation.valueExpression}' resulted in unsupported return type: ${celTypeOf(outcome.value)}. Return type must be either string or null.`,
    };
  });
  const failures = [...decisions.filter((d) => d.evaluation === 'error').map((d) => d.message), ...auditAnnotations.flatMap((a) => (a.error ? [a.error] : []))];
  return { decisions, auditAnnotations, errors: failures };
}

/** Takes `cost` from the budget: false when it does not cover it (filter.go compares before subtracting). */
function spend(budget: { remaining: number }, cost: number): boolean {
  if (cost > budget.remaining) return false;
  budget.remaining -= cost;
  return true;
}

function outOfBudget(failurePolicy: FailurePolicy | undefined): ValidateResult {
  return {
    decisions: [{ action: onError(failurePolicy), evaluation: 'error', message: OUT_OF_COST_BUDGET }],
    auditAnnotations: [],
    errors: [OUT_OF_COST_BUDGET],
  };
}

// celconfig.MaxEvaluatedMessageExpressionSizeBytes.
const MAX_MESSAGE_BYTES = 5 * 1024;

/**
 * validator.go: the messageExpression's non-empty string (dropped when it holds a line break or is
 * longer than 5 KiB), else the message, else the expression quoted.
 */
function failureMessage(expression: string, message: string | undefined, evaluated: Evaluation | undefined): string {
  if (evaluated && 'value' in evaluated && typeof evaluated.value === 'string' && evaluated.value.trim() !== '') {
    const text = evaluated.value;
    if (!text.includes('\n') && Buffer.byteLength(text) <= MAX_MESSAGE_BYTES) return text.trim();
  }
  if (message && message.trim() !== '') return message.trim();
  return `failed expression: ${expression.trim()}`;
}

function celTypeOf(value: unknown): string {
  if (value === null) return 'null_type';
  if (typeof value === 'bigint') return 'int';
  if (typeof value === 'number') return 'double';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'bool';
  if (Array.isArray(value)) return 'list';
  return 'map';
}
