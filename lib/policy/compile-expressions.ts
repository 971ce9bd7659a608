import type { ParseResult } from '@marcbachmann/cel-js';
import { compileExpression, type ReturnType } from '../cel/compile';
import { policyEnvironment, type MatchConditionsEnvironment } from '../cel/environment';
import { duplicate, invalid, required, tooMany } from '../cel/validation';
import type { MatchCondition } from '../kube/webhook-config';
import { qualifiedNameErrors } from '../kube/names';

/** One expression of a policy, compiled. */
export interface CompiledExpression {
  expression: string;
  program: ParseResult;
}

/** A compiled variable or matchCondition. */
export type NamedExpression = CompiledExpression & { name: string };

const MAX_MATCH_CONDITIONS = 64;

/** What compiles one expression of a policy: its program, or undefined after recording the field error. */
export type ExpressionCompiler = (
  path: string,
  expression: string,
  returnTypes: readonly ReturnType[] | 'any',
  environment?: MatchConditionsEnvironment,
) => CompiledExpression | undefined;

/** The matchConditions and variables every kind of policy has, compiled, their errors recorded in `errors`. */
export function compileConditionsAndVariables(
  spec: { matchConditions?: MatchCondition[]; variables?: { name: string; expression: string }[] },
  compile: ExpressionCompiler,
  errors: string[],
): { matchConditions: NamedExpression[]; variables: NamedExpression[] } {
  const conditions = spec.matchConditions ?? [];
  if (conditions.length > MAX_MATCH_CONDITIONS) errors.push(tooMany('spec.matchConditions', conditions.length, MAX_MATCH_CONDITIONS));
  const names = new Set<string>();
  const matchConditions: NamedExpression[] = [];
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

  const variables: NamedExpression[] = [];
  (spec.variables ?? []).forEach((variable, i) => {
    const compiled = compile(`spec.variables[${i}].expression`, variable.expression, 'any');
    if (compiled) variables.push({ ...compiled, name: variable.name });
  });

  return { matchConditions, variables };
}

/** A policy's CEL compiler: each expression in the environment its use declares, its error recorded. */
export function policyCompiler(hasParams: boolean, errors: string[]): ExpressionCompiler {
  const full = policyEnvironment({ params: hasParams, authorizer: true });
  return (path, expression, returnTypes, environment = full) => {
    const result =
      returnTypes === 'any'
        ? compileExpression(expression, environment, ['bool', 'string', 'null_type'], true, true)
        : compileExpression(expression, environment, returnTypes, true);
    if (typeof result === 'string') {
      errors.push(invalid(path, expression, result));
      return undefined;
    }
    return { expression, program: result };
  };
}
