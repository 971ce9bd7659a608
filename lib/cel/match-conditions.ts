import type { ParseResult } from '@marcbachmann/cel-js';
import type { AdmissionRequest, KubeObject, Status } from '../kube/admission';
import { forbidden } from '../kube/status';
import type { FailurePolicy, MatchCondition } from '../kube/webhook-config';
import { allowEverything, type Authorizer } from '../authz/authorizer';
import { requestAuthorizer } from './authz';
import { matchConditionsEnvironment } from './environment';
import { compileExpression } from './compile';
import { MATCH_CONDITIONS_COST_BUDGET, OUT_OF_COST_BUDGET } from './cost/limits';
import { evaluateProgram, expressionError } from './evaluate';
import { goAggregate } from '../go/aggregate';
import { qualifiedNameErrors } from '../kube/names';
import { duplicate, invalid, required, tooMany } from './validation';
import { celValue, requestValue } from './values';

/** What matchConditions read: the request as the matched webhook would receive it. */
export interface MatchConditionsInput {
  object: KubeObject | null;
  oldObject: KubeObject | null;
  request: AdmissionRequest;
  /** Decides `authorizer` checks; allows everything when omitted. */
  authorizer?: Authorizer;
}

/** Names the rejected request in the 403: its resource (without version) and name. */
export interface MatchConditionsTarget {
  resource: { group: string; resource: string };
  name: string;
}

/** What a webhook's matchConditions decided about one request. */
export interface MatchConditionsVerdict {
  /** false: some condition evaluated to false, or one failed and failurePolicy Ignore skips the webhook. */
  matches: boolean;
  why: string;
  /** Some condition failed to evaluate (whatever the failurePolicy made of it). */
  evaluationError?: boolean;
  /** Evaluation errors with failurePolicy Fail: the request is rejected. */
  error?: Status;
}

export interface CompiledConditions {
  evaluate(input: MatchConditionsInput, failurePolicy: FailurePolicy | undefined, target: MatchConditionsTarget): MatchConditionsVerdict;
}

const MAX_CONDITIONS = 64;

/**
 * Validates and compiles a webhook's matchConditions as kube-apiserver does when the configuration is
 * created (pkg/apis/admissionregistration/validation `validateMatchConditions`): at most 64, each with
 * a qualified, unique name and an expression that compiles to bool. Errors read as the API's field
 * errors under `path`, e.g. `webhooks[0].matchConditions`.
 */
export function compileMatchConditions(conditions: readonly MatchCondition[], path = 'matchConditions'): CompiledConditions | { errors: string[] } {
  const errors: string[] = [];
  if (conditions.length > MAX_CONDITIONS) errors.push(tooMany(path, conditions.length, MAX_CONDITIONS));
  const programs: ParseResult[] = [];
  const names = new Set<string>();
  for (const [i, condition] of conditions.entries()) {
    const at = `${path}[${i}]`;
    const expression = condition.expression.trim();
    if (expression === '') errors.push(required(`${at}.expression`));
    else {
      const compiled = compile(expression);
      if (typeof compiled === 'string') errors.push(invalid(`${at}.expression`, expression, compiled));
      else programs.push(compiled);
    }
    if (condition.name === '') errors.push(required(`${at}.name`));
    else errors.push(...qualifiedNameErrors(condition.name).map((message) => invalid(`${at}.name`, condition.name, message)));
    if (condition.name !== '') {
      if (names.has(condition.name)) errors.push(duplicate(`${at}.name`, condition.name));
      names.add(condition.name);
    }
  }
  // field.ErrorList.ToAggregate drops repeated messages.
  if (errors.length > 0) return { errors: [...new Set(errors)] };
  // A copy, so later edits to the caller's array cannot desynchronise names from programs.
  const frozen = conditions.map((condition) => ({ ...condition }));
  return { evaluate: (input, failurePolicy, target) => evaluate(frozen, programs, input, failurePolicy, target) };
}

/** compile.go `CompileCELExpression` in the matchConditions environment: exactly bool. */
function compile(expression: string): ParseResult | string {
  return compileExpression(expression, matchConditionsEnvironment(), ['bool']);
}

type Outcome = { value: boolean } | { error: string };

/** WH/matchconditions/matcher.go `Match`. */
function evaluate(
  conditions: readonly MatchCondition[],
  programs: readonly ParseResult[],
  input: MatchConditionsInput,
  failurePolicy: FailurePolicy | undefined,
  target: MatchConditionsTarget,
): MatchConditionsVerdict {
  const context = activation(input);
  // Every condition is evaluated before any result is looked at, as the filter does, all of them
  // under one budget (RuntimeCELCostBudgetMatchConditions); past it the filter's error is the verdict.
  const outcomes: Outcome[] = [];
  let remaining = MATCH_CONDITIONS_COST_BUDGET;
  for (const [i, condition] of conditions.entries()) {
    const { outcome, cost } = run(condition, programs[i], context);
    if (cost > remaining) return failed([OUT_OF_COST_BUDGET], failurePolicy, target);
    remaining -= cost;
    outcomes.push(outcome);
  }
  const errors: string[] = [];
  for (const [i, outcome] of outcomes.entries()) {
    if ('error' in outcome) errors.push(outcome.error);
    // Any false skips the webhook, whatever errors came before or after it.
    else if (!outcome.value) return { matches: false, why: `matchConditions ${JSON.stringify(conditions[i]?.name)} evaluated to false` };
  }
  if (errors.length === 0) return { matches: true, why: `all ${conditions.length} matchConditions evaluated to true` };
  return failed(errors, failurePolicy, target);
}

/** matcher.go: errors skip the webhook under failurePolicy Ignore and refuse the request under Fail. */
function failed(errors: readonly string[], failurePolicy: FailurePolicy | undefined, target: MatchConditionsTarget): MatchConditionsVerdict {
  const message = goAggregate([...errors]);
  if (failurePolicy === 'Ignore')
    return { matches: false, evaluationError: true, why: `matchConditions failed and failurePolicy Ignore skips the webhook: ${message}` };
  return {
    matches: false,
    evaluationError: true,
    why: `matchConditions failed with failurePolicy Fail, rejecting the request: ${message}`,
    error: forbidden(target.resource, target.name, message),
  };
}

function run(condition: MatchCondition, program: ParseResult | undefined, context: Record<string, unknown>): { outcome: Outcome; cost: number } {
  if (!program) throw new Error(`matchCondition ${JSON.stringify(condition.name)} has no compiled program`);
  const evaluation = evaluateProgram(program, context);
  const { cost } = evaluation;
  if ('error' in evaluation) return { outcome: { error: expressionError(condition.expression, evaluation.error) }, cost };
  const result = evaluation.value;
  if (typeof result !== 'boolean') throw new Error(`matchCondition ${JSON.stringify(condition.name)} produced ${typeof result}, not a bool`);
  return { outcome: { value: result }, cost };
}

function activation(input: MatchConditionsInput): Record<string, unknown> {
  const { request } = input;
  const resource = request.requestResource ?? request.resource;
  // authz.go `NewResourceAuthorizerVal` describes the request as it was made, before matchPolicy conversion.
  const authorizer = requestAuthorizer(request.userInfo, input.authorizer ?? allowEverything, {
    group: resource.group,
    resource: resource.resource,
    subresource: request.requestSubResource ?? request.subResource ?? '',
    namespace: request.namespace ?? '',
    name: request.name ?? '',
  });
  return { object: celValue(input.object), oldObject: celValue(input.oldObject), request: requestValue(request), authorizer };
}

/** apimachinery utilerrors aggregate `Error()`: repeated messages dropped, several joined as `[a, b]`. */
