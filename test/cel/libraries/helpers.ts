import type { Environment, ParseResult } from '@marcbachmann/cel-js';
import { programError } from '../../../lib/cel/checked';
import { parseAndCheck } from '../../../lib/cel/compile';
import { CelFunctionError, celGoRuntimeMessage } from '../../../lib/cel/errors';
import { registerLibrary } from '../../../lib/cel/library';
import { celGoFunctionNames } from '../../../lib/cel/libraries/namespace';
import { celModule } from '../../../lib/cel/runtime';
import { celValue } from '../../../lib/cel/values';

/*
 * An environment configured as kube-apiserver's base environment is (matchConditions' options), with the
 * existing library and the Kubernetes libraries, plus an `object` variable holding JSON data.
 */

let cached: { env: Environment; functions: ReadonlySet<string> } | undefined;

export function kubeEnv(): { env: Environment; functions: ReadonlySet<string> } {
  if (cached) return cached;
  const { Environment } = celModule();
  const env = new Environment({ enableOptionalTypes: true, homogeneousAggregateLiterals: true });
  registerLibrary(env);

  env.registerVariable('object', 'dyn');
  cached = { env, functions: celGoFunctionNames(env) };
  return cached;
}

/**
 * An expression compiled as kube-apiserver compiles it (lib/cel/compile.ts `parseAndCheck`, then what
 * cel-go's `env.Program` refuses): its program, or cel-go's text for the failure.
 */
function compile(expression: string): { program: ParseResult } | { issue: string } {
  const checked = parseAndCheck(expression, kubeEnv());
  if ('issue' in checked) return { issue: checked.issue };
  const refused = programError(checked.program.ast);
  return refused === undefined ? { program: checked.program } : { issue: `program instantiation failed: ${refused}` };
}

/** The compile error of an expression as cel-go prints it, or undefined when it compiles. */
export function compileError(expression: string): string | undefined {
  const compiled = compile(expression);
  return 'issue' in compiled ? compiled.issue : undefined;
}

type Outcome = { value: unknown } | { error: string };

/** Compiles (failing the test on a compile error) and evaluates; the error is cel-go's text. */
export function outcome(expression: string, object: unknown = null): Outcome {
  const compiled = compile(expression);
  if ('issue' in compiled) throw new Error(`${expression} does not compile:\n${compiled.issue}`);
  const { EvaluationError } = celModule();
  try {
    return { value: compiled.program({ object: celValue(object) }) };
  } catch (error) {
    if (error instanceof CelFunctionError) return { error: error.message };
    if (error instanceof EvaluationError) return { error: celGoRuntimeMessage(error.code, error.summary) };
    throw error;
  }
}

export function evaluate(expression: string, object: unknown = null): unknown {
  const result = outcome(expression, object);
  if ('error' in result) throw new Error(`${expression} failed: ${result.error}`);
  return result.value;
}

export function runtimeError(expression: string, object: unknown = null): string | undefined {
  const result = outcome(expression, object);
  return 'error' in result ? result.error : undefined;
}

/** The runtime error of an expression that compiles (failing the test if it succeeds). */
export function errorOf(expression: string): string {
  const error = runtimeError(expression);
  if (error === undefined) throw new Error(`${expression} evaluated without an error`);
  return error;
}

/** The first line of cel-go's compile issue (failing the test if the expression compiles). */
export function compileErrorLine(expression: string): string {
  const issue = compileError(expression);
  if (issue === undefined) throw new Error(`${expression} compiled`);
  return issue.split('\n')[0] ?? '';
}

/** What cel-js's checker says of an expression in the Kubernetes environment. */
export function check(expression: string): { valid: boolean; type?: string } {
  return kubeEnv().env.check(expression);
}
