/**
 * The CEL environment x-kubernetes-validations rules compile in: kube's base environment
 * (apiserver pkg/cel/environment/base.go, the libraries lib/cel registers) with the variables
 * `self` and `oldSelf`.
 *
 * kube-apiserver declares `self` with a type derived from the schema (apiserver pkg/cel/common
 * `SchemaDeclType`), so a rule naming a field the schema lacks fails when the CRD is created. Here
 * `self` and `oldSelf` are `dyn`: a rule kube accepts compiles and evaluates the same, but type
 * mistakes kube catches at CRD creation only show here when the rule runs.
 */
import type { Environment } from '@marcbachmann/cel-js';
import { registerLibrary } from '../../../cel/library';
import { celGoFunctionNames } from '../../../cel/libraries/namespace';
import { celModule } from '../../../cel/runtime';

export interface RuleEnvironment {
  env: Environment;
  /** Every function and macro name, to tell an unknown function from a known one called wrongly. */
  functions: ReadonlySet<string>;
}

let cached: RuleEnvironment | undefined;

/** The shared environment (requires loadCel() to have run). */
export function ruleEnvironment(): RuleEnvironment {
  if (cached) return cached;
  const { Environment } = celModule();
  const env = new Environment({ enableOptionalTypes: true, homogeneousAggregateLiterals: true });
  registerLibrary(env);
  env.registerVariable('self', 'dyn').registerVariable('oldSelf', 'dyn');
  cached = { env, functions: celGoFunctionNames(env) };
  return cached;
}
