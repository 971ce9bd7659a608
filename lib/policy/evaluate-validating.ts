import type { ParseResult } from '@marcbachmann/cel-js';
import { evaluateProgram, expressionError, type Evaluation } from '../cel/evaluate';
import { CelFunctionError } from '../cel/errors';
import { celValue } from '../cel/values';
import type { FailurePolicy } from '../kube/webhook-config';
import { goAggregate } from '../go/aggregate';
import type { CompiledValidatingPolicy } from './compile-validating';

/** What the expressions of one policy read: the request as the matched resource sees it. */
export interface PolicyActivation {
  object: unknown;
  oldObject: unknown;
  request: Record<string, unknown>;
  params: unknown;
  namespaceObject: unknown;
  authorizer: unknown;
}

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
  const activation: Record<string, unknown> = { ...input, variables: lazyVariables(compiled, input) };

  if (compiled.matchConditions.length > 0) {
    const errors: string[] = [];
    for (const condition of compiled.matchConditions) {
      const outcome = evaluateProgram(condition.program, activation);
      if ('error' in outcome) errors.push(expressionError(condition.expression, outcome.error));
      else if (outcome.value !== true) return { decisions: [], auditAnnotations: [], skipped: `matchConditions ${JSON.stringify(condition.name)} evaluated to false`, errors: [] };
    }
    if (errors.length > 0) {
      if (failurePolicy === 'Ignore') return { decisions: [], auditAnnotations: [], skipped: `matchConditions failed and failurePolicy Ignore skips the policy: ${goAggregate(errors)}`, errors };
      return { decisions: [{ action: 'deny', evaluation: 'error', message: goAggregate(errors) }], auditAnnotations: [], errors };
    }
  }

  const decisions = compiled.validations.map(({ validation, condition, message }): PolicyDecision => {
    const outcome = evaluateProgram(condition.program, activation);
    if ('error' in outcome) return { action: onError(failurePolicy), evaluation: 'error', message: expressionError(condition.expression, outcome.error) };
    if (typeof outcome.value !== 'boolean') {
      // kube's type checker knows the object's types and refuses such an expression when the policy is created.
      return { action: onError(failurePolicy), evaluation: 'error', message: expressionError(condition.expression, `must evaluate to bool but got ${celTypeOf(outcome.value)}`) };
    }
    if (outcome.value) return { action: 'admit', evaluation: 'admit', message: '' };
    return { action: 'deny', evaluation: 'deny', message: failureMessage(validation.expression, validation.message, message && evaluateProgram(message.program, { ...activation, authorizer: undefined })), reason: validation.reason ?? 'Invalid' };
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
    return { key, action: 'error', error: `valueExpression '${annotation.valueExpression}' resulted in unsupported return type: ${celTypeOf(outcome.value)}. Return type must be either string or null.` };
  });
  const failures = [...decisions.filter((d) => d.evaluation === 'error').map((d) => d.message), ...auditAnnotations.flatMap((a) => (a.error ? [a.error] : []))];
  return { decisions, auditAnnotations, errors: failures };
}

/** validator.go: the messageExpression's non-empty string, else the message, else the expression quoted. */
function failureMessage(expression: string, message: string | undefined, evaluated: Evaluation | undefined): string {
  if (evaluated && 'value' in evaluated && typeof evaluated.value === 'string' && evaluated.value.trim() !== '') return evaluated.value.trim();
  if (message && message.trim() !== '') return message.trim();
  return `failed expression: ${expression.trim()}`;
}

/**
 * composition.go: `variables.<name>` evaluates its expression on first read and keeps the value (or
 * the error) for the rest of the request; an error surfaces where the variable is read.
 */
function lazyVariables(compiled: CompiledValidatingPolicy, input: PolicyActivation): Record<string, unknown> {
  const variables: Record<string, unknown> = {};
  const activation: Record<string, unknown> = { ...input, variables };
  for (const variable of compiled.variables) {
    let memo: Evaluation | undefined;
    Object.defineProperty(variables, variable.name, {
      enumerable: true,
      get() {
        memo ??= evaluateProgram(variable.program as ParseResult, activation);
        if ('error' in memo) throw new CelFunctionError(`composited variable "${variable.name}" fails to evaluate: ${memo.error}`);
        return memo.value;
      },
    });
  }
  return variables;
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

/** The activation of one evaluation: JSON values as CEL reads them. */
export function policyActivation(parts: { object: unknown; oldObject: unknown; request: Record<string, unknown>; params: unknown; namespaceObject: unknown; authorizer: unknown }): PolicyActivation {
  return {
    object: celValue(parts.object ?? null),
    oldObject: celValue(parts.oldObject ?? null),
    request: parts.request,
    params: celValue(parts.params ?? null),
    namespaceObject: celValue(parts.namespaceObject ?? null),
    authorizer: parts.authorizer,
  };
}
