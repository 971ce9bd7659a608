import type { ParseResult } from '@marcbachmann/cel-js';
import { MATCH_CONDITIONS_COST_BUDGET, OUT_OF_COST_BUDGET } from '../cel/cost/limits';
import { evaluateProgram, expressionError, type Evaluation } from '../cel/evaluate';
import { CelFunctionError } from '../cel/errors';
import { celValue } from '../cel/values';
import { goAggregate } from '../go/aggregate';
import type { FailurePolicy } from '../kube/webhook-config';
import { allowEverything, type Authorizer } from '../authz/authorizer';
import { requestAuthorizer } from '../cel/authz';
import { requestValue } from '../cel/values';
import type { GroupVersionKind, GroupVersionResource, KubeObject } from '../kube/admission';
import type { AdmissionAttributes } from '../kube/attributes';
import { convertToKind } from '../match/should-call';

/** What the expressions of one policy read: the request as the matched resource sees it. */
export interface PolicyActivation {
  object: unknown;
  oldObject: unknown;
  request: Record<string, unknown>;
  params: unknown;
  namespaceObject: unknown;
  authorizer: unknown;
}

/** A compiled policy expression with a name: a variable or a matchCondition. */
export interface NamedProgram {
  name: string;
  expression: string;
  program: ParseResult;
}

/** The activation with `variables` bound to the policy's variables, each evaluated on first read. */
export function withVariables(variables: readonly NamedProgram[], input: PolicyActivation): Record<string, unknown> {
  return { ...input, variables: lazyVariables(variables, input) };
}

/**
 * composition.go: `variables.<name>` evaluates its expression on first read and keeps the value (or
 * the error) for the rest of the request; an error surfaces where the variable is read.
 */
function lazyVariables(list: readonly NamedProgram[], input: PolicyActivation): Record<string, unknown> {
  const variables: Record<string, unknown> = {};
  const activation: Record<string, unknown> = { ...input, variables };
  for (const variable of list) {
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

/**
 * A policy's matchConditions (plugin/cel matchconditions `Match`): any false skips the policy whatever
 * the errors; errors under failurePolicy Ignore skip it too, under Fail they are the policy's error.
 */
export function evaluateMatchConditions(
  conditions: readonly NamedProgram[],
  activation: Record<string, unknown>,
  failurePolicy: FailurePolicy | undefined,
): { skipped?: string; error?: string; errors: string[] } {
  const errors: string[] = [];
  // matchconditions/matcher.go: the conditions share RuntimeCELCostBudgetMatchConditions; past it the
  // filter's error decides, as an evaluation error does.
  let remaining = MATCH_CONDITIONS_COST_BUDGET;
  for (const condition of conditions) {
    const outcome = evaluateProgram(condition.program, activation);
    if (outcome.cost > remaining) {
      if (failurePolicy === 'Ignore')
        return { skipped: `matchConditions failed and failurePolicy Ignore skips the policy: ${OUT_OF_COST_BUDGET}`, errors: [OUT_OF_COST_BUDGET] };
      return { error: OUT_OF_COST_BUDGET, errors: [OUT_OF_COST_BUDGET] };
    }
    remaining -= outcome.cost;
    if ('error' in outcome) errors.push(expressionError(condition.expression, outcome.error));
    else if (outcome.value !== true) return { skipped: `matchConditions ${JSON.stringify(condition.name)} evaluated to false`, errors: [] };
  }
  if (errors.length === 0) return { errors };
  if (failurePolicy === 'Ignore') return { skipped: `matchConditions failed and failurePolicy Ignore skips the policy: ${goAggregate(errors)}`, errors };
  return { error: goAggregate(errors), errors };
}

/** The activation of one evaluation: JSON values as CEL reads them. */
export function policyActivation(parts: {
  object: unknown;
  oldObject: unknown;
  request: Record<string, unknown>;
  params: unknown;
  namespaceObject: unknown;
  authorizer: unknown;
}): PolicyActivation {
  return {
    object: celValue(parts.object ?? null),
    oldObject: celValue(parts.oldObject ?? null),
    request: parts.request,
    params: celValue(parts.params ?? null),
    namespaceObject: celValue(parts.namespaceObject ?? null),
    authorizer: parts.authorizer,
  };
}

/** What the expressions read of the cluster besides the request. */
export interface PolicyCluster {
  namespaceObject(name: string): KubeObject | undefined;
  authorizer?: Authorizer;
}

/**
 * What a policy's expressions read for one request (plugin/cel `CreateAdmissionRequest` and the optional
 * bindings): the object and oldObject in the version the rules matched, the request with the matched
 * resource and kind, the param, the request's Namespace and the authorizer.
 */
export function activationFor(
  attributes: AdmissionAttributes,
  resource: GroupVersionResource,
  kind: GroupVersionKind,
  params: KubeObject | null,
  cluster: PolicyCluster,
): PolicyActivation {
  const request = requestValue({
    uid: '',
    kind,
    resource,
    subResource: attributes.subResource,
    requestKind: attributes.kind,
    requestResource: attributes.resource,
    requestSubResource: attributes.subResource,
    name: attributes.name,
    namespace: attributes.namespace,
    operation: attributes.operation,
    userInfo: attributes.userInfo,
    object: null,
    oldObject: null,
    dryRun: attributes.dryRun,
    options: attributes.options,
  });
  // authz.go: `authorizer.requestResource` describes the request as it was made.
  const authorizer = requestAuthorizer(attributes.userInfo, cluster.authorizer ?? allowEverything, {
    group: attributes.resource.group,
    resource: attributes.resource.resource,
    subresource: attributes.subResource,
    namespace: attributes.namespace,
    name: attributes.name,
  });
  return policyActivation({
    object: convertToKind(attributes.object, kind),
    oldObject: convertToKind(attributes.oldObject, kind),
    request,
    params,
    // Cluster-scoped requests have no namespace object (null).
    namespaceObject: attributes.namespace ? (cluster.namespaceObject(attributes.namespace) ?? null) : null,
    authorizer,
  });
}
