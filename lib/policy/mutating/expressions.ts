/**
 * Compiling and evaluating a MutatingAdmissionPolicy mutation's CEL `expression` with cel-js, as
 * kube-apiserver does (admission/plugin/policy/mutating/compilation.go `compilePolicy`, plugin/cel
 * compile.go `CompileCELExpression` with `HasPatchTypes`):
 * - the expression may construct `Object…` and `JSONPatch` values and call `jsonpatch.escapeKey`
 *   (cel-objects.ts), written in CEL's message syntax (rewritten for cel-js by object-literals.ts);
 * - an ApplyConfiguration expression must have the type `Object`, a JSONPatch expression
 *   `list(JSONPatch)`; otherwise compiling fails with `must evaluate to Object but got <type>`;
 * - a failed compile is `compilation failed: <cel-go's issue>`, reported when the mutation runs (or
 *   `program instantiation failed: <error>` for what cel-go's `env.Program` refuses, lib/cel/checked.ts);
 * - a run-time error is `expression '<expression>' resulted in error: <cause>` (plugin/cel activation.go);
 * - an ApplyConfiguration's value must name nested objects after their field path (`type mismatch: …`,
 *   patch/smd.go), a JSONPatch's value becomes JSON patch operations (patch/json_patch.go).
 *
 * The environment is the caller's (the policy's variables: object, oldObject, request, params,
 * namespaceObject, variables, authorizer), extended here without being modified.
 */
import type { Environment, ParseError, ParseResult, TypeError as CelTypeError } from '@marcbachmann/cel-js';
import { checkEveryIssue } from '../../cel/check-every-issue';
import { celGoIssue, celGoTypeName, checkIssues, displayIssue } from '../../cel/errors';
import { evaluateProgram } from '../../cel/evaluate';
import { afterCheck, displayIssues, programError } from '../../cel/checked';
import { celGoFunctionNames } from '../../cel/libraries/namespace';
import { celModule } from '../../cel/runtime';
import type { JsonObject } from '../../kube/json';
import { CelObject, OBJECT_TYPE, registerMutationLibrary, registerObjectTypes } from './cel-objects';
import { rewriteObjectLiterals, type RewrittenExpression } from './object-literals';
import { applyConfigurationValue, jsonPatchOperations, requestValues, typeNameMismatches } from './result-values';
import type { GoMap } from '../../patch/smd/smd-values';

export type PatchType = 'ApplyConfiguration' | 'JSONPatch';

/** The types kube requires of each patch type's expression (patch/smd.go and json_patch.go `ReturnTypes`), as cel-go prints them. */
export const RETURN_TYPES: Readonly<Record<PatchType, string>> = { ApplyConfiguration: 'Object', JSONPatch: 'list(JSONPatch)' };

/** A caller's environment extended with the mutation types. */
export interface MutationEnvironment {
  readonly env: Environment;
  /** Every function and macro name, for cel-go's "undeclared reference" vs "no matching overload". */
  readonly functions: ReadonlySet<string>;
}

/**
 * Derives the environment mutations compile in from `base`, the environment the policy's other
 * expressions use. cel-js freezes an environment once it is cloned: register everything on `base`
 * before calling this.
 */
export function mutationEnvironment(base: Environment): MutationEnvironment {
  const env = base.clone();
  registerMutationLibrary(env);
  return { env, functions: celGoFunctionNames(env) };
}

/** What one evaluation of a mutation gives. */
export type MutationEvaluation =
  | { ok: true; patchType: 'ApplyConfiguration'; applyConfiguration: GoMap }
  | { ok: true; patchType: 'JSONPatch'; operations: JsonObject[] }
  | { ok: false; error: string };

export type CompiledMutation =
  | { ok: true; patchType: PatchType; evaluate(activation: Readonly<Record<string, unknown>>): MutationEvaluation }
  | { ok: false; error: string };

/**
 * Compiles one mutation. The activation passed to `evaluate` holds CEL values (lib/cel/values.ts
 * `celValue`: ints as bigint) under the environment's variable names.
 */
export function compileMutation(environment: MutationEnvironment, patchType: PatchType, expression: string): CompiledMutation {
  const { ParseError: CelParseError } = celModule();
  const rewritten = rewriteObjectLiterals(expression);
  // Each expression gets its own environment for the `Object…` names it uses.
  const env = environment.env.clone();
  registerObjectTypes(env, rewritten.typeNames);
  let program: ParseResult;
  try {
    program = env.parse(rewritten.text);
  } catch (error) {
    if (error instanceof CelParseError) return { ok: false, error: `compilation failed: ${issue(error, rewritten, expression, environment.functions)}` };
    throw error;
  }
  const checked = checkEveryIssue(program);
  const issues = checked.issues ? checkIssues(checked.issues, rewritten.text, environment.functions, program.ast) : afterCheck(program.ast);
  if (checked.issues || issues.length > 0) {
    const shown = issues.map((found) => ({ offset: rewritten.toSource(found.offset), message: found.message }));
    return { ok: false, error: `compilation failed: ${displayIssues(expression, shown)}` };
  }
  const got = celGoType(checked.type);
  const expected = RETURN_TYPES[patchType];
  if (got !== expected) return { ok: false, error: `must evaluate to ${expected} but got ${got}` };
  const refused = programError(program.ast);
  if (refused !== undefined) return { ok: false, error: `program instantiation failed: ${refused}` };
  return { ok: true, patchType, evaluate: (activation) => evaluate(program, patchType, expression, activation) };
}

function evaluate(program: ParseResult, patchType: PatchType, expression: string, activation: Readonly<Record<string, unknown>>): MutationEvaluation {
  const request = requestValues(activation);
  const evaluation = evaluateProgram(program, activation);
  if ('error' in evaluation) return { ok: false, error: `expression '${expression}' resulted in error: ${evaluation.error}` };
  const { value } = evaluation;
  if (patchType === 'JSONPatch') {
    const operations = jsonPatchOperations(value);
    return operations.ok ? { ok: true, patchType, operations: operations.value } : { ok: false, error: operations.error };
  }
  if (!(value instanceof CelObject) || value.typeName !== OBJECT_TYPE) {
    return { ok: false, error: `unsupported return type from ApplyConfiguration expression: ${value instanceof CelObject ? value.typeName : typeof value}` };
  }
  const mismatch = typeNameMismatches(value);
  if (mismatch !== undefined) return { ok: false, error: `type mismatch: ${mismatch}` };
  return { ok: true, patchType, applyConfiguration: applyConfigurationValue(value, request) };
}

/** cel-js's name of a checked type in cel-go's spelling; an unbound type parameter (`[]`'s) is dyn, as cel-go substitutes it. */
function celGoType(name: string): string {
  const expanded = ({ list: 'list<dyn>', map: 'map<dyn, dyn>' } as Record<string, string>)[name] ?? name;
  return celGoTypeName(expanded.replace(/\b[A-Z]\b/g, 'dyn'));
}

/**
 * cel-go's display of a compile issue, at the position in the expression as written: cel-js reported
 * it on the rewritten text, so its position is mapped back and the display redrawn.
 */
function issue(error: ParseError | CelTypeError, rewritten: RewrittenExpression, expression: string, functions: ReadonlySet<string>): string {
  const display = celGoIssue(error, rewritten.text, functions);
  const header = /^ERROR: <input>:(\d+):(\d+): (.*)$/m.exec(display);
  if (!header) return display;
  const [, line = '1', column = '1', message = ''] = header;
  const lines = rewritten.text.split('\n');
  const lineStart = lines.slice(0, Number(line) - 1).reduce((sum, text) => sum + text.length + 1, 0);
  const columnChars = [...(lines[Number(line) - 1] ?? '')].slice(0, Number(column) - 1).join('').length;
  return displayIssue(expression, rewritten.toSource(lineStart + columnChars), message);
}
