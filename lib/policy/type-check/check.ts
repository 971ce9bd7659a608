/**
 * kube-apiserver's type check of a ValidatingAdmissionPolicy
 * (k8s.io/apiserver/pkg/admission/plugin/policy/validating/typechecking.go `TypeChecker.Check`): every
 * validation's expression and messageExpression is compiled against each kind the policy's
 * resourceRules match, with `object` typed from the kind's schema, and the problems become warnings in
 * `status.typeChecking.expressionWarnings`. They never stop the policy from loading or running.
 */
import type { ASTNode } from '@marcbachmann/cel-js';
import { parseAndCheck } from '../../cel/compile';
import { displayIssue } from '../../cel/errors';
import type { GroupVersionKind } from '../../kube/admission';
import type { ValidatingAdmissionPolicy } from '../../kube/admission-policy';
import { builtinDeclType, customResourceDeclType, type DeclType } from './decl-type';
import { typedPolicyEnvironment, withVariables, type NamedDeclType, type TypedEnvironment } from './environment';
import { formatGvk, typesToCheck, type KindResolver, type KindSchema, type KindSchemaResolver } from './kinds';

/** admissionregistration/v1 ExpressionWarning. */
export interface ExpressionWarning {
  /** The expression's path: `spec.validations[0].expression`, `spec.validations[0].messageExpression`. */
  fieldRef: string;
  /** One `<gvk>: <cel-go issues>\n` per kind the expression fails for, joined by newlines. */
  warning: string;
}

/**
 * The warnings kube writes to a ValidatingAdmissionPolicy's `status.typeChecking.expressionWarnings`,
 * in its order (validations in order, each expression before its messageExpression); empty when every
 * expression checks. Kinds whose schema `schemaFor` does not know are left out, as kube leaves out kinds
 * its schema resolver cannot find. The CEL library must be loaded (lib/cel `loadCel`).
 *
 * Only validations are checked: not matchConditions, auditAnnotations or variables (a variable that
 * fails to compile is `dyn` to the expressions that read it, as in kube).
 */
export function typeCheckPolicy(policy: ValidatingAdmissionPolicy, resolveKinds: KindResolver, schemaFor: KindSchemaResolver): ExpressionWarning[] {
  const spec = policy.spec ?? {};
  const validations = spec.validations ?? [];
  if (validations.length === 0) return [];
  const kinds = policyKinds(policy, resolveKinds, schemaFor);
  const warnings: ExpressionWarning[] = [];
  validations.forEach((validation, i) => {
    const at = `spec.validations[${i}]`;
    const expressionWarning = checkAgainstKinds(kinds, validation.expression);
    if (expressionWarning) warnings.push({ fieldRef: `${at}.expression`, warning: expressionWarning });
    // typechecking.go skips only an empty messageExpression, not a blank one.
    if (!validation.messageExpression) return;
    const messageWarning = checkAgainstKinds(kinds, validation.messageExpression);
    if (messageWarning) warnings.push({ fieldRef: `${at}.messageExpression`, warning: messageWarning });
  });
  return warnings;
}

interface KindEnvironment {
  gvk: GroupVersionKind;
  environment: TypedEnvironment;
}

/**
 * typecheckingcontext.go `CreateContext` and typechecking.go `CheckExpression`'s compiler: per kind,
 * the typed environment with the policy's variables compiled into `variables`. kube rebuilds this for
 * every expression; it depends on nothing else, so it is built once per kind here.
 */
function policyKinds(policy: ValidatingAdmissionPolicy, resolveKinds: KindResolver, schemaFor: KindSchemaResolver): KindEnvironment[] {
  const spec = policy.spec ?? {};
  const paramKind = spec.paramKind ?? undefined;
  const paramGvk = paramKind ? parseParamKind(paramKind.apiVersion ?? '', paramKind.kind ?? '') : undefined;
  const paramSchema = paramGvk && schemaFor(paramGvk);
  const paramType = paramSchema && declTypeOf(paramSchema);
  const kinds: KindEnvironment[] = [];
  for (const gvk of typesToCheck(spec.matchConstraints, resolveKinds)) {
    const schema = schemaFor(gvk);
    if (!schema) continue;
    const objectType = declTypeOf(schema);
    const objectName = rootTypeName(gvk.kind, '');
    const object: NamedDeclType | undefined = objectType && { name: objectName, type: objectType };
    const params = paramKind ? { type: paramType && paramGvk ? { name: rootTypeName(paramGvk.kind, objectName), type: paramType } : undefined } : undefined;
    let base: TypedEnvironment;
    try {
      base = cachedEnvironment(object, params);
    } catch {
      // typechecking.go: a compiler that cannot be built is reported (utilruntime.HandleError) and the
      // kind skipped; type checking never changes what the policy does.
      continue;
    }
    kinds.push({ gvk, environment: compileVariables(base, spec.variables ?? []) });
  }
  return kinds;
}

const NO_OBJECT_TYPE = {};
const environments = new WeakMap<object, Map<string, { params: DeclType | undefined; environment: TypedEnvironment }[]>>();

/**
 * typedPolicyEnvironment, kept for the next policy with the same types: declaring a kind's types takes
 * tens of milliseconds, and the environment is only ever cloned afterwards (withVariables), never changed.
 * Types come from builtinDeclType and customResourceDeclType, which keep one per schema.
 */
function cachedEnvironment(object: NamedDeclType | undefined, params: { type: NamedDeclType | undefined } | undefined): TypedEnvironment {
  let byNames = environments.get(object?.type ?? NO_OBJECT_TYPE);
  if (!byNames) environments.set(object?.type ?? NO_OBJECT_TYPE, (byNames = new Map()));
  const key = `${object?.name ?? ''}\0${params ? `params:${params.type?.name ?? 'dyn'}` : ''}`;
  let entries = byNames.get(key);
  if (!entries) byNames.set(key, (entries = []));
  const known = entries.find((entry) => entry.params === params?.type?.type);
  if (known) return known.environment;
  const environment = typedPolicyEnvironment({ object, ...(params ? { params } : {}) });
  entries.push({ params: params?.type?.type, environment });
  return environment;
}

/**
 * composition.go `CompileAndStoreVariables`: each variable is compiled with the ones before it in
 * `variables`, and becomes a field of the type its expression has (`convertCelTypeToDeclType`: lists
 * and maps keep their element types, objects and anything else become `dyn`, as does a variable that
 * fails to compile).
 */
function compileVariables(base: TypedEnvironment, variables: readonly { name: string; expression: string }[]): TypedEnvironment {
  const fields = new Map<string, string>();
  for (const variable of variables) {
    const result = checkExpression(withVariables(base, fields), variable.expression);
    fields.set(variable.name, result.issues.length === 0 && result.type !== undefined ? variableFieldType(result.type) : 'dyn');
  }
  return withVariables(base, fields);
}

/** typechecking.go `TypeCheckingResults.String`: `<gvk>: <issues>\n` per failing kind, joined by newlines. */
function checkAgainstKinds(kinds: readonly KindEnvironment[], expression: string): string | undefined {
  const results: string[] = [];
  for (const { gvk, environment } of kinds) {
    const { issues } = checkExpression(environment, expression);
    if (issues.length > 0) results.push(`${formatGvk(gvk)}: ${issues.join('\n')}\n`);
  }
  return results.length > 0 ? results.join('\n') : undefined;
}

function declTypeOf(schema: KindSchema): DeclType | undefined {
  return schema.source === 'builtin' ? builtinDeclType(schema.struct) : customResourceDeclType(schema.schema);
}

/** schema.ParseGroupVersion + WithKind: `v1` is the core group; more than one `/` is no kind at all. */
function parseParamKind(apiVersion: string, kind: string): GroupVersionKind | undefined {
  const parts = apiVersion.split('/');
  if (parts.length > 2) return undefined;
  const [group, version] = parts.length === 2 ? [parts[0] ?? '', parts[1] ?? ''] : ['', apiVersion];
  if (group === '' && version === '' && kind === '') return undefined;
  return { group, version, kind };
}

/**
 * The name a root type is declared under: its kind, as kube's (which appends a timestamp), when cel-js
 * takes it as a type name; another than `taken`, so that `params` of the object's own kind gets a type
 * of its own.
 */
function rootTypeName(kind: string, taken: string): string {
  const name = /^[A-Z][A-Za-z0-9_]+$/.test(kind) ? kind : `Kind_${kind.replace(/[^A-Za-z0-9_]/g, '_')}`;
  return name === taken ? `${name}Params` : name;
}

/** What checking one expression found: cel-go's issues (each `ERROR: <input>:…` with its snippet), in source order. */
interface CheckResult {
  issues: string[];
  /** The expression's type, as cel-js names it, when it checks. */
  type?: string;
}

/**
 * The compile step of typechecking.go's `typeCheckingCompiler`: parse and check, any result type
 * accepted, the issues as cel-go's `Issues.String()` prints them (lib/cel/errors.ts `celGoIssue`),
 * sorted by position as common/errors.go `ToDisplayString` sorts them.
 */
function checkExpression(environment: TypedEnvironment, expression: string): CheckResult {
  const checked = parseAndCheck(expression, environment);
  if (!checked.program) return { issues: 'issue' in checked ? [checked.issue] : [] };
  const issues = 'issue' in checked ? [checked.issue] : [];
  issues.push(...presenceTestIssues(checked.program.ast, expression, environment.objectTypes));
  issues.sort((a, b) => compareLocations(issueLocation(a), issueLocation(b)));
  return 'type' in checked && issues.length === 0 ? { issues, type: checked.type } : { issues };
}

function issueLocation(issue: string): [number, number] {
  const match = /^ERROR: <input>:(\d+):(\d+):/.exec(issue);
  return match ? [Number(match[1]), Number(match[2])] : [0, 0];
}

function compareLocations([lineA, columnA]: [number, number], [lineB, columnB]: [number, number]): number {
  return lineA - lineB || columnA - columnB;
}

/**
 * cel-go checks the operand of `has()` like any selection and the tested field against the operand's
 * type (checker.go `checkSelect`, `undefined field` at the has call); cel-js's `has` checks only the
 * variable it starts from. The selections are checked here from the types that were declared. Only
 * `has()` macros cel-js reached before stopping at an error carry types, so only those are checked.
 */
function presenceTestIssues(ast: ASTNode, expression: string, objectTypes: ReadonlyMap<string, ReadonlyMap<string, string>>): string[] {
  const issues: string[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!isAstNode(node) || node.op === 'value') return;
    if (node.op === 'call' && node.args[0] === 'has' && node.args[1].length === 1) {
      const issue = presenceTestIssue(node, node.args[1][0] as ASTNode, expression, objectTypes);
      if (issue) issues.push(issue);
    }
    visit(node.args);
  };
  visit(ast);
  return issues;
}

function presenceTestIssue(
  call: ASTNode,
  argument: ASTNode,
  expression: string,
  objectTypes: ReadonlyMap<string, ReadonlyMap<string, string>>,
): string | undefined {
  const selections: ASTNode[] = [];
  let root = argument;
  while (root.op === '.') {
    selections.unshift(root);
    root = root.args[0];
  }
  if (root.op !== 'id' || selections.length === 0) return undefined;
  let type = (root as ASTNode & { checkedType?: { name: string } }).checkedType?.name;
  for (const selection of selections) {
    if (type === undefined || selection.op !== '.') return undefined;
    const field = selection.args[1];
    const fields = objectTypes.get(type);
    if (fields) {
      type = fields.get(field);
      if (type !== undefined) continue;
      // The test itself is located at the has call's `(`, a selection inside it at its `.`.
      const offset = selection === argument ? expression.indexOf('(', call.start) : expression.indexOf('.', selection.args[0].end);
      return displayIssue(expression, offset, `undefined field '${field}'`);
    }
    type = mapValueType(type);
  }
  return undefined;
}

function isAstNode(value: unknown): value is ASTNode {
  return typeof value === 'object' && value !== null && typeof (value as { op?: unknown }).op === 'string' && 'args' in value;
}

/** The value type of a cel-js `map<K, V>` type name, undefined for anything else. */
function mapValueType(type: string): string | undefined {
  if (!type.startsWith('map<') || !type.endsWith('>')) return undefined;
  return splitTypeArguments(type.slice(4, -1))[1];
}

function splitTypeArguments(inner: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < inner.length; i++) {
    const ch = inner[i];
    if (ch === '<') depth++;
    else if (ch === '>') depth--;
    else if (ch === ',' && depth === 0) {
      parts.push(inner.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(inner.slice(start).trim());
  return parts;
}

const VARIABLE_SCALARS = new Set(['bool', 'bytes', 'double', 'google.protobuf.Duration', 'int', 'null', 'string', 'google.protobuf.Timestamp', 'uint', 'dyn']);

/** composition.go `convertCelTypeToDeclType`, from and to cel-js type names (which write `list<dyn>` as `list`). */
export function variableFieldType(type: string): string {
  if (type === 'list') return 'list<dyn>';
  if (type === 'map') return 'map<dyn, dyn>';
  if (VARIABLE_SCALARS.has(type)) return type;
  if (type.startsWith('list<') && type.endsWith('>')) return `list<${variableFieldType(type.slice(5, -1).trim())}>`;
  if (type.startsWith('map<') && type.endsWith('>')) {
    const [key = 'dyn', value = 'dyn'] = splitTypeArguments(type.slice(4, -1));
    return `map<${variableFieldType(key)}, ${variableFieldType(value)}>`;
  }
  // Object types, optionals, `type` and cel-js's `dyn<T>` have neither the container nor the indexer
  // trait cel-go looks for: dyn.
  return 'dyn';
}
