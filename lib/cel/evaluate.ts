import type { ParseResult } from '@marcbachmann/cel-js';
import { COST_LIMIT_EXCEEDED, PER_CALL_LIMIT } from './cost/limits';
import { CostLimitExceeded, trackCost } from './cost/tracker';
import { CelFunctionError, celGoRuntimeMessage } from './errors';
import { celModule } from './runtime';

/** A CEL program's value, or cel-go's text for the error it raised; with what it cost, in cel-go's units. */
export type Evaluation = ({ value: unknown } | { error: string }) & { cost: number };

/**
 * Runs a compiled program: the one place every policy, matchCondition, mutation and CRD rule is
 * evaluated, under kube's per-call cost limit (apiserver pkg/apis/cel/config.go `PerCallLimit`; past it,
 * cel-go's `operation cancelled: actual cost limit exceeded`). Errors cel-js raises and those of the
 * Kubernetes functions come back in cel-go's words. Anything else thrown while evaluating (a JavaScript
 * error inside cel-js or a library) is still the expression's error, never the caller's, as cel-go's
 * cel/program.go `Eval` recovers a panic into `internal error: <panic>`: one expression must not stop a
 * whole run.
 */
export function evaluateProgram(program: ParseResult, activation: Record<string, unknown>, limit = PER_CALL_LIMIT): Evaluation {
  const { EvaluationError } = celModule();
  const { value, error, cost } = trackCost(program, activation, limit);
  if (error === undefined) return { value, cost };
  if (error instanceof CostLimitExceeded) return { error: COST_LIMIT_EXCEEDED, cost };
  if (error instanceof EvaluationError) return { error: celGoRuntimeMessage(error.code, error.summary), cost };
  if (error instanceof CelFunctionError) return { error: error.message, cost };
  return { error: `internal error: ${error instanceof Error ? error.message : String(error)}`, cost };
}

/** apiserver plugin/cel activation.go `Evaluate`: how a failed expression is reported. */
export function expressionError(expression: string, cause: string): string {
  return `expression '${expression}' resulted in error: ${cause}`;
}
