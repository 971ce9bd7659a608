import type { ParseResult } from '@marcbachmann/cel-js';
import { CelFunctionError, celGoRuntimeMessage } from './errors';
import { celModule } from './runtime';

/** A CEL program's value, or cel-go's text for the error it raised. */
export type Evaluation = { value: unknown } | { error: string };

/**
 * Runs a compiled program. Errors cel-js raises and those of the Kubernetes functions come back in
 * cel-go's words; anything else is a bug in the harness and is thrown.
 */
export function evaluateProgram(program: ParseResult, activation: Record<string, unknown>): Evaluation {
  const { EvaluationError } = celModule();
  try {
    return { value: program(activation) };
  } catch (error) {
    if (error instanceof EvaluationError) return { error: celGoRuntimeMessage(error.code, error.summary) };
    if (error instanceof CelFunctionError) return { error: error.message };
    throw error;
  }
}

/** apiserver plugin/cel activation.go `Evaluate`: how a failed expression is reported. */
export function expressionError(expression: string, cause: string): string {
  return `expression '${expression}' resulted in error: ${cause}`;
}
