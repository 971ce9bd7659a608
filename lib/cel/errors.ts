import type { ASTNode, ParseError, TypeError as CelTypeError } from '@marcbachmann/cel-js';
import type { RecordedIssue } from './check-every-issue';
import { isFunctionNamespace, namespaceValues } from './libraries/namespace';
import { outsideKubeIssues } from './outside-kube';

/**
 * An error raised by a function this harness adds to CEL (the Kubernetes libraries). It carries
 * cel-go's text already, and is told apart from bugs, which must not pass for CEL errors.
 */
export class CelFunctionError extends Error {
  override readonly name = 'CelFunctionError';
}

/**
 * cel-go's text for a runtime error cel-js reports in its own words. Sources: google/cel-go
 * interpreter/attributes.go (`no such key: %v`, `index out of bounds: %v`), common/types/err.go
 * (`division by zero`, `modulus by zero`, `integer overflow`, `unsigned integer overflow`,
 * `no such overload`), common/types/string.go (`type conversion error from 'string' to '%s'`).
 */
export function celGoRuntimeMessage(code: string, summary: string): string {
  switch (code) {
    case 'no_such_key':
      return summary.replace(/^No such key: /, 'no such key: ');
    case 'index_out_of_bounds':
      return `index out of bounds: ${/index (-?\d+)/.exec(summary)?.[1] ?? ''}`;
    // cel-go appends `: <function>` or `: <function>(<arg types>)` on some dispatch paths; the common
    // case, two operands of mismatched types, is the bare text.
    case 'no_such_overload':
    case 'no_matching_overload':
      return 'no such overload';
    case 'modulo_by_zero':
      return 'modulus by zero';
    case 'numeric_overflow':
      return /unsigned/i.test(summary) ? 'unsigned integer overflow' : 'integer overflow';
    case 'int_conversion_error':
      return "type conversion error from 'string' to 'int'";
    case 'uint_conversion_error':
      return "type conversion error from 'string' to 'uint'";
    case 'double_conversion_error':
      return "type conversion error from 'string' to 'double'";
    case 'bool_conversion_error':
      return "type conversion error from 'string' to 'bool'";
    default:
      return summary;
  }
}

const OPERATOR_FUNCTIONS: ReadonlyMap<string, string> = new Map([
  ['==', '_==_'],
  ['!=', '_!=_'],
  ['<', '_<_'],
  ['<=', '_<=_'],
  ['>', '_>_'],
  ['>=', '_>=_'],
  ['+', '_+_'],
  ['-', '_-_'],
  ['*', '_*_'],
  ['/', '_/_'],
  ['%', '_%_'],
  ['in', '@in'],
  ['&&', '_&&_'],
  ['||', '_||_'],
]);

/**
 * One compile issue as cel-go prints it (common/error.go `ToDisplayString`):
 * `ERROR: <input>:<line>:<column>: <message>` and a snippet with a caret under the offending token.
 * Messages follow cel-go's checker (checker/errors.go) where cel-js reports the same problem in other
 * words; parse errors keep cel-js's message, as cel-go's come from its ANTLR grammar.
 */
export function celGoIssue(error: ParseError | CelTypeError, expression: string, knownFunctions: ReadonlySet<string>): string {
  return issuesOf(error, expression, knownFunctions)
    .map((issue) => displayIssue(expression, issue.offset, issue.message))
    .join('\n');
}

/** A compile issue: where (an offset in the checked text) and cel-go's message. */
export interface Issue {
  offset: number;
  message: string;
}

const undeclared = (name: string) => `undeclared reference to '${name}' (in container '')`;

/**
 * Every issue cel-go's checker reports for what cel-js's checker raised (lib/cel/check-every-issue.ts),
 * with the functions kube's environment lacks and the namespaces read as values (lib/cel/outside-kube.ts),
 * which cel-go's checker reports with them. An issue that follows from a failed operand is left out, as
 * cel-go's error type satisfies every overload, except an undeclared function, which cel-go names whatever
 * its arguments (checker.go `checkCall`). Unsorted; one issue cel-js's checks give twice is kept once.
 */
export function checkIssues(recorded: readonly RecordedIssue[], expression: string, knownFunctions: ReadonlySet<string>, root: ASTNode): Issue[] {
  const issues: Issue[] = [];
  for (const { error, followsFailure } of recorded) {
    const found = issuesOf(error, expression, knownFunctions, root);
    issues.push(...(followsFailure ? found.filter((issue) => issue.message.startsWith('undeclared reference to ')) : found));
  }
  issues.push(...outsideKubeIssues(root));
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = `${issue.offset}\0${issue.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function errorIssue(error: ParseError | CelTypeError, expression: string, knownFunctions: ReadonlySet<string>): Issue {
  if (error.name !== 'TypeError' || !error.node) return { offset: error.range?.start ?? 0, message: error.summary };
  return { offset: celGoOffset(error.node, expression), message: checkerMessage(error.code, error.summary, error.node, knownFunctions) };
}

/** The issues cel-go reports for one error of cel-js's: one, or two for an undeclared namespace and function. */
function issuesOf(error: ParseError | CelTypeError, expression: string, knownFunctions: ReadonlySet<string>, root?: ASTNode): Issue[] {
  if (error.name !== 'TypeError' || !error.node) return [errorIssue(error, expression, knownFunctions)];
  const { node } = error;
  const namespaced = error.code === 'no_matching_overload' ? namespacedCallIssues(node, expression, knownFunctions) : undefined;
  if (namespaced) return namespaced;
  // An operation on a namespace read as a value: cel-go's checker reports the identifier (outsideKubeIssues),
  // and nothing of an operation on its error type.
  const values: readonly unknown[] = root ? namespaceValues(root) : [];
  if (operandsOf(node).some((operand) => values.includes(operand))) return [];
  return [errorIssue(error, expression, knownFunctions)];
}

/**
 * checker.go `checkCall` on `ns.f(args)`: `ns.f` is one qualified function name, its overloads resolved
 * against the arguments alone; when no function has that name, `ns` is an undeclared identifier and
 * `f` is looked up as a member function (a second issue when it is none either).
 */
function namespacedCallIssues(node: ASTNode, expression: string, knownFunctions: ReadonlySet<string>): Issue[] | undefined {
  if (node.op !== 'rcall') return undefined;
  const [name, receiver, args] = node.args;
  if (receiver.op !== 'id' || !isFunctionNamespace(receiver.args)) return undefined;
  const qualified = `${receiver.args}.${name}`;
  const at = celGoOffset(node, expression);
  if (knownFunctions.has(qualified)) {
    return [{ offset: at, message: `found no matching overload for '${qualified}' applied to '(${args.map(typeName).join(', ')})'` }];
  }
  const issues = [{ offset: receiver.start, message: undeclared(receiver.args) }];
  if (!knownFunctions.has(name)) issues.push({ offset: at, message: undeclared(name) });
  return issues;
}

function operandsOf(node: ASTNode): unknown[] {
  const { args } = node as { args: unknown };
  return Array.isArray(args) ? args.flat() : [args];
}

function checkerMessage(code: string, summary: string, node: ASTNode, knownFunctions: ReadonlySet<string>): string {
  const noOverload = (name: string, signature: string) => `found no matching overload for '${name}' applied to '${signature}'`;
  // cel-go's aggregate-literal check reports a plain type mismatch at the offending element.
  if (code.startsWith('heterogeneous_')) {
    const types = /expected type '(.*)' but found '(.*)'$/.exec(summary);
    return types ? `expected type '${checkerTypeName(types[1] ?? '')}' but found '${checkerTypeName(types[2] ?? '')}'` : summary;
  }
  switch (node.op) {
    case 'id':
      return code === 'unknown_variable' ? undeclared(node.args) : summary;
    case '.':
    case '.?':
      if (code === 'no_such_key') return `undefined field '${node.args[1]}'`;
      if (code === 'cannot_index_type') return `type '${typeName(node.args[0])}' does not support field selection`;
      return summary;
    case 'call': {
      if (code !== 'no_matching_overload') return summary;
      const [name, args] = node.args;
      return knownFunctions.has(name) ? noOverload(name, `(${args.map(typeName).join(', ')})`) : undeclared(name);
    }
    case 'rcall': {
      if (code !== 'no_matching_overload') return summary;
      const [name, receiver, args] = node.args;
      return knownFunctions.has(name) ? noOverload(name, `${typeName(receiver)}.(${args.map(typeName).join(', ')})`) : undeclared(name);
    }
    case '!_':
    case '-_':
      return code === 'no_such_overload' ? noOverload(node.op, `(${typeName(node.args)})`) : summary;
    case '?:':
      return code === 'incompatible_ternary_branches' ? noOverload('_?_:_', `(${node.args.map(typeName).join(', ')})`) : summary;
    case 'value':
    case 'list':
    case 'map':
    case '[]':
    case '[?]':
      return summary;
    default: {
      const operator = OPERATOR_FUNCTIONS.get(node.op);
      return operator && (code === 'no_such_overload' || code === 'invalid_logical_operand')
        ? noOverload(operator, `(${node.args.map(typeName).join(', ')})`)
        : summary;
    }
  }
}

/** The offset cel-go reports for a node: the operator token for calls, selections and operators (parser/parser.go). */
function celGoOffset(node: ASTNode, expression: string): number {
  const after = (token: string, from: number) => {
    const index = expression.indexOf(token, from);
    return index >= 0 ? index : node.start;
  };
  switch (node.op) {
    case '.':
    case '.?':
      return after('.', node.args[0].end);
    case '[]':
    case '[?]':
      return after('[', node.args[0].end);
    case 'call':
      return after('(', node.start);
    case 'rcall':
      return after('(', node.args[1].end);
    case '?:':
      return after('?', node.args[0].end);
    case 'value':
    case 'id':
    case 'list':
    case 'map':
    case '!_':
    case '-_':
      return node.start;
    default:
      return after(node.op, node.args[0].end);
  }
}

interface CheckedNode {
  readonly checkedType?: { readonly name: string };
}

function typeName(node: ASTNode): string {
  return checkerTypeName((node as ASTNode & CheckedNode).checkedType?.name ?? 'dyn');
}

/**
 * cel-go's spelling of a type in its checker's messages (checker/format.go `FormatCELType`, which
 * checker/errors.go uses): as `celGoTypeName`, but a timestamp, a duration and null by their short names.
 */
export function checkerTypeName(name: string): string {
  return celGoTypeName(name)
    .replace(/\bgoogle\.protobuf\.Timestamp\b/g, 'timestamp')
    .replace(/\bgoogle\.protobuf\.Duration\b/g, 'duration')
    .replace(/\bnull_type\b/g, 'null');
}

/** cel-go's spelling of a cel-js type name (types.Type String()): `list(int)`, `map(string, dyn)`, `null_type`. */
export function celGoTypeName(name: string): string {
  return name
    .replace(/\bdyn<([^<>]*)>/g, '$1')
    .replace(/\bnull\b/g, 'null_type')
    .replace(/\boptional</g, 'optional_type<')
    .replace(/</g, '(')
    .replace(/>/g, ')');
}

const MAX_SNIPPET_LENGTH = 16384;

/** cel-go common/error.go `ToDisplayString`: the header, the source line and a caret under the column. */
export function displayIssue(expression: string, offset: number, message: string): string {
  const before = expression.slice(0, offset);
  const line = before.split('\n').length;
  const lineStart = before.lastIndexOf('\n') + 1;
  const column = [...expression.slice(lineStart, offset)];
  const header = `ERROR: <input>:${line}:${column.length + 1}: ${message}`;
  const snippet = (expression.split('\n')[line - 1] ?? '').replace(/\t/g, ' ');
  if (Buffer.byteLength(snippet) > MAX_SNIPPET_LENGTH) return header;
  // Characters wider than one UTF-8 byte get full-width markers, as cel-go draws them.
  const marker = (ch: string | undefined, narrow: string, wide: string) => (ch !== undefined && Buffer.byteLength(ch) > 1 ? wide : narrow);
  const dots = column.map((ch) => marker(ch, '.', '\uff0e')).join('');
  const caret = marker([...expression.slice(offset)][0], '^', '\uff3e');
  return `${header}\n | ${snippet}\n | ${dots}${caret}`;
}
