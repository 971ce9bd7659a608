import type { ParseResult } from '@marcbachmann/cel-js';
import { CelFunctionError, celGoRuntimeMessage } from './errors';
import { celModule } from './runtime';

/** A CEL program's value, or cel-go's text for the error it raised. */
export type Evaluation = { value: unknown } | { error: string };

/**
 * Runs a compiled program: the one place every policy, matchCondition, mutation and CRD rule is
 * evaluated. Errors cel-js raises and those of the Kubernetes functions come back in cel-go's words.
 * Anything else thrown while evaluating (a JavaScript error inside cel-js or a library) is still the
 * expression's error, never the caller's, as cel-go's cel/program.go `Eval` recovers a panic into
 * `internal error: <panic>`: one expression must not stop a whole run.
 */
export function evaluateProgram(program: ParseResult, activation: Record<string, unknown>): Evaluation {
  const { EvaluationError } = celModule();
  try {
    return { value: program(activation) };
  } catch (error) {
    if (error instanceof EvaluationError) return { error: celGoRuntimeMessage(error.code, error.summary) };
    if (error instanceof CelFunctionError) return { error: error.message };
    return { error: `internal error: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** apiserver plugin/cel activation.go `Evaluate`: how a failed expression is reported. */
export function expressionError(expression: string, cause: string): string {
  return `expression '${expression}' resulted in error: ${cause}`;
}
