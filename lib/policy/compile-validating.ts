import { policyEnvironment } from '../cel/environment';
import type { AuditAnnotation, ValidatingAdmissionPolicy, Validation } from '../kube/admission-policy';
import { compileConditionsAndVariables, policyCompiler, type CompiledExpression, type NamedExpression } from './compile-expressions';

/** A ValidatingAdmissionPolicy with every expression compiled, ready to evaluate. */
export interface CompiledValidatingPolicy {
  policy: ValidatingAdmissionPolicy;
  matchConditions: NamedExpression[];
  variables: NamedExpression[];
  validations: { validation: Validation; condition: CompiledExpression; message?: CompiledExpression }[];
  auditAnnotations: { annotation: AuditAnnotation; value: CompiledExpression }[];
}

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
  const withoutAuthorizer = policyEnvironment({ params, authorizer: false });
  const errors: string[] = [];
  const compile = policyCompiler(params, errors);

  const { matchConditions, variables } = compileConditionsAndVariables(spec, compile, errors);

  const validations: CompiledValidatingPolicy['validations'] = [];
  (spec.validations ?? []).forEach((validation, i) => {
    const at = `spec.validations[${i}]`;
    const condition = compile(`${at}.expression`, validation.expression, ['bool']);
    // Compiled untrimmed, so that a compile error's column points where the user wrote it.
    const messageExpression = validation.messageExpression?.trim()
      ? compile(`${at}.messageExpression`, validation.messageExpression, ['string'], withoutAuthorizer)
      : undefined;
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
