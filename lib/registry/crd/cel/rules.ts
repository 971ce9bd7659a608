/**
 * Compiling a node's x-kubernetes-validations (apiextensions-apiserver pkg/apiserver/schema/cel
 * compilation.go `compileRule`): the rule must compile to a bool, a `messageExpression` to a string;
 * a rule referring to `oldSelf` is a transition rule; `fieldPath` is normalized against the schema.
 * Errors read as kube words them (`compilation failed: ERROR: <input>:1:6: …`,
 * `cel expression must evaluate to a bool`, `messageExpression must evaluate to a string`, and what
 * cel-go's `env.Program` refuses: `program instantiation failed: …`, `messageExpression instantiation failed: …`).
 */
import type { ASTNode, ParseResult } from '@marcbachmann/cel-js';
import { checkEveryIssue } from '../../../cel/check-every-issue';
import { celGoIssue, checkIssues } from '../../../cel/errors';
import { afterCheck, displayIssues, programError } from '../../../cel/checked';
import { celModule } from '../../../cel/runtime';
import type { SchemaNode, ValidationRule } from '../schema-node';
import { ruleEnvironment } from './environment';
import { normalizeFieldPath } from './rule-field-path';

export interface CompiledRule {
  readonly rule: ValidationRule;
  /** Undefined for an empty rule (kube skips it) or one that failed to compile. */
  readonly program: ParseResult | undefined;
  /** `compilation failed: …`, `cel expression must evaluate to a bool` or `program instantiation failed: …`. */
  readonly error: string | undefined;
  readonly usesOldSelf: boolean;
  readonly message: ParseResult | undefined;
  readonly messageError: string | undefined;
  /** The rule's fieldPath as a field path (`spec.replicas`), when valid. */
  readonly fieldPath: string | undefined;
}

const compiled = new WeakMap<SchemaNode, readonly CompiledRule[]>();

/** The node's compiled rules (compiled once per node; CEL must be loaded). */
export function compiledRules(node: SchemaNode): readonly CompiledRule[] {
  let rules = compiled.get(node);
  if (!rules) {
    rules = node.validations.map((rule) => compileRule(node, rule));
    compiled.set(node, rules);
  }
  return rules;
}

type Compiled = { program: ParseResult; type: string } | { error: string };

function compile(expression: string): Compiled {
  const { ParseError } = celModule();
  const { env, functions } = ruleEnvironment();
  let program: ParseResult;
  try {
    program = env.parse(expression);
  } catch (error) {
    if (error instanceof ParseError) return { error: celGoIssue(error, expression, functions) };
    throw error;
  }
  const checked = checkEveryIssue(program);
  if (checked.issues) return { error: displayIssues(expression, checkIssues(checked.issues, expression, functions, program.ast)) };
  const issues = afterCheck(program.ast);
  if (issues.length > 0) return { error: displayIssues(expression, issues) };
  return { program, type: checked.type };
}

/** Whether the expression refers to `oldSelf` (the checked expression's reference map). */
function refersTo(node: unknown, name: string): boolean {
  if (Array.isArray(node)) return node.some((child) => refersTo(child, name));
  if (node === null || typeof node !== 'object') return false;
  const ast = node as ASTNode;
  if (ast.op === 'id' && ast.args === name) return true;
  return 'args' in ast && refersTo(ast.args, name);
}

function compileRule(node: SchemaNode, rule: ValidationRule): CompiledRule {
  const fieldPath = rule.fieldPath ? normalizeFieldPath(rule.fieldPath, node) : undefined;
  const base = { rule, fieldPath: typeof fieldPath === 'string' ? fieldPath : undefined };
  const empty = { program: undefined, error: undefined, usesOldSelf: false, message: undefined, messageError: undefined };
  if (rule.rule.trim() === '') return { ...base, ...empty };
  const result = compile(rule.rule);
  if ('error' in result) return { ...base, ...empty, error: `compilation failed: ${result.error}` };
  // `self` is dyn here, so a dyn result may be a bool; kube knows the field types and checks exactly.
  if (result.type !== 'bool' && result.type !== 'dyn') return { ...base, ...empty, error: 'cel expression must evaluate to a bool' };
  const refused = programError(result.program.ast);
  if (refused !== undefined) return { ...base, ...empty, error: `program instantiation failed: ${refused}` };
  const usesOldSelf = refersTo(result.program.ast, 'oldSelf');
  let message: ParseResult | undefined;
  let messageError: string | undefined;
  if (rule.messageExpression !== undefined && rule.messageExpression !== '') {
    const compiledMessage = compile(rule.messageExpression);
    if ('error' in compiledMessage) messageError = `messageExpression compilation failed: ${compiledMessage.error}`;
    else if (compiledMessage.type !== 'string' && compiledMessage.type !== 'dyn') messageError = 'messageExpression must evaluate to a string';
    else {
      const messageRefused = programError(compiledMessage.program.ast);
      if (messageRefused === undefined) message = compiledMessage.program;
      else messageError = `messageExpression instantiation failed: ${messageRefused}`;
    }
  }
  return { ...base, program: result.program, error: undefined, usesOldSelf, message, messageError };
}
