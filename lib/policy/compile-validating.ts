import type { ParseResult } from '@marcbachmann/cel-js';
import { compileExpression, type ReturnType } from '../cel/compile';
import { policyEnvironment } from '../cel/environment';
import { duplicate, invalid, required, tooMany } from '../cel/validation';
import type { AuditAnnotation, ValidatingAdmissionPolicy, Validation } from '../kube/admission-policy';
import type { MatchCondition } from '../kube/webhook-config';
import { qualifiedNameErrors } from '../kube/names';

/** One expression of a policy, compiled. */
export interface CompiledExpression {
  expression: string;
  program: ParseResult;
}

/** A ValidatingAdmissionPolicy with every expression compiled, ready to evaluate. */
export interface CompiledValidatingPolicy {
  policy: ValidatingAdmissionPolicy;
  matchConditions: (CompiledExpression & { name: string })[];
  variables: (CompiledExpression & { name: string })[];
  validations: { validation: Validation; condition: CompiledExpression; message?: CompiledExpression }[];
  auditAnnotations: { annotation: AuditAnnotation; value: CompiledExpression }[];
}

const MAX_MATCH_CONDITIONS = 64;

/**
 * Compiles a policy's CEL as the API validates it on create (pkg/apis/admissionregistration/validation:
 * `validateMatchConditions`, `validateVariable`, `validateValidation`, `validateMessageExpression`,
 * `validateAuditAnnotation`): each expression in the environment its use declares (`params` only with a
 * paramKind, no `authorizer` in messageExpression), with the result type kube requires. The errors read
 * as the API's field errors under `spec`.
 */
export function compileValidatingPolicy(policy: ValidatingAdmissionPolicy): CompiledValidatingPolicy | { errors: string[] } {
  const spec = policy.spec;
  const params = spec.paramKind !== undefined && spec.paramKind !== null;
  const full = policyEnvironment({ params, authorizer: true });
  const withoutAuthorizer = policyEnvironment({ params, authorizer: false });
  const errors: string[] = [];
  const compile = (path: string, expression: string, returnTypes: readonly ReturnType[] | 'any', environment = full): CompiledExpression | undefined => {
    const result = returnTypes === 'any' ? compileExpression(expression, environment, ['bool', 'string', 'null_type'], true, true) : compileExpression(expression, environment, returnTypes, true);
    if (typeof result === 'string') {
      errors.push(invalid(path, expression, result));
      return undefined;
    }
    return { expression, program: result };
  };

  const conditions = spec.matchConditions ?? [];
  if (conditions.length > MAX_MATCH_CONDITIONS) errors.push(tooMany('spec.matchConditions', conditions.length, MAX_MATCH_CONDITIONS));
  const names = new Set<string>();
  const matchConditions: CompiledValidatingPolicy['matchConditions'] = [];
  conditions.forEach((condition: MatchCondition, i) => {
    const at = `spec.matchConditions[${i}]`;
    const expression = condition.expression.trim();
    if (expression === '') errors.push(required(`${at}.expression`));
    else {
      const compiled = compile(`${at}.expression`, expression, ['bool']);
      if (compiled) matchConditions.push({ ...compiled, name: condition.name });
    }
    if (condition.name === '') errors.push(required(`${at}.name`));
    else {
      errors.push(...qualifiedNameErrors(condition.name).map((message) => invalid(`${at}.name`, condition.name, message)));
      if (names.has(condition.name)) errors.push(duplicate(`${at}.name`, condition.name));
      names.add(condition.name);
    }
  });

  const variables: CompiledValidatingPolicy['variables'] = [];
  (spec.variables ?? []).forEach((variable, i) => {
    const compiled = compile(`spec.variables[${i}].expression`, variable.expression, 'any');
    if (compiled) variables.push({ ...compiled, name: variable.name });
  });

  const validations: CompiledValidatingPolicy['validations'] = [];
  (spec.validations ?? []).forEach((validation, i) => {
    const at = `spec.validations[${i}]`;
    const condition = compile(`${at}.expression`, validation.expression, ['bool']);
    // Compiled untrimmed, so that a compile error's column points where the user wrote it.
    const messageExpression = validation.messageExpression?.trim() ? compile(`${at}.messageExpression`, validation.messageExpression, ['string'], withoutAuthorizer) : undefined;
    if (condition) validations.push({ validation, condition, ...(messageExpression ? { message: messageExpression } : {}) });
  });

  const auditAnnotations: CompiledValidatingPolicy['auditAnnotations'] = [];
  (spec.auditAnnotations ?? []).forEach((annotation, i) => {
    const value = compile(`spec.auditAnnotations[${i}].valueExpression`, annotation.valueExpression.trim(), ['string', 'null_type']);
    if (value) auditAnnotations.push({ annotation, value });
  });

  // field.ErrorList.ToAggregate drops repeated messages.
  if (errors.length > 0) return { errors: [...new Set(errors)] };
  return { policy, matchConditions, variables, validations, auditAnnotations };
}
