import type { ASTNode } from '@marcbachmann/cel-js';
import { forEachNode } from './ast-walk';
import { displayIssue } from './errors';
import { conversionRedirect } from './libraries/conversions';
import { outsideKubeIssues } from './outside-kube';
import { goRegexpError } from './libraries/go-regexp';
import { stringsRedirect } from './libraries/go-strings';
import { matchesRedirect } from './libraries/matches';
import { literalRegexErrors } from './libraries/regex';
import { carryTimestampOffsets } from './libraries/timestamp-offsets';
import { timestampAccessorRedirect } from './libraries/timestamps';
import { redirectCalls } from './redirect-calls';
import { parseGoDuration, parseRfc3339, MAX_UNIX_SECONDS, MIN_UNIX_SECONDS } from '../go/time-parse';

/** A compile issue found after type checking: where (an offset in the checked text) and cel-go's message. */
export interface LiteralIssue {
  offset: number;
  message: string;
}

const prepared = new WeakSet<ASTNode>();

/**
 * What follows a successful type check, on every expression kube-apiserver compiles: the AST validators
 * its base environment enables (apiserver pkg/cel/environment/base.go, from 1.29: cel-go's
 * ValidateDurationLiterals, ValidateTimestampLiterals and ValidateRegexLiterals; homogeneous aggregate
 * literals are cel-js's own check), the calls whose cel-js behaviour is replaced by cel-go's (timestamp
 * accessors, `duration()`/`timestamp()`, `matches`, ext.Strings' built-ins, the offset a timestamp
 * was written with), and the
 * functions cel-js has that kube's environment does not (lib/cel/outside-kube.ts).
 * Returns the validators' issues, which fail the compilation.
 */
export function afterCheck(ast: ASTNode): LiteralIssue[] {
  if (prepared.has(ast)) return [];
  prepared.add(ast);
  redirectCalls(ast, (call) => timestampAccessorRedirect(call) ?? conversionRedirect(call) ?? matchesRedirect(call) ?? stringsRedirect(call));
  carryTimestampOffsets(ast);
  return [...literalIssues(ast), ...outsideKubeIssues(ast)];
}

/**
 * Why cel-go's `env.Program` refuses a checked expression, if it does (kube-apiserver reports it as
 * `program instantiation failed: <this>`, after the compile issues and the result type): an invalid
 * literal pattern of `find`, `findAll` or `matches` (lib/cel/libraries/regex.ts).
 */
export function programError(ast: ASTNode): string | undefined {
  return literalRegexErrors(ast)[0];
}

/** common/errors.go NewErrors' maxErrorsToReport: issues past it are counted, not kept. */
const MAX_ERRORS_TO_REPORT = 100;

/**
 * cel-go's display of the issues (common/errors.go): the first 100 reported (`ReportErrorAtID` drops the
 * rest as they come), ordered by position by `ToDisplayString`, then how many more were truncated.
 */
export function displayIssues(expression: string, issues: readonly LiteralIssue[]): string {
  const lines = issues
    .slice(0, MAX_ERRORS_TO_REPORT)
    .sort((a, b) => a.offset - b.offset)
    .map((issue) => displayIssue(expression, issue.offset, issue.message));
  if (issues.length > MAX_ERRORS_TO_REPORT) lines.push(`${issues.length - MAX_ERRORS_TO_REPORT} more errors were truncated`);
  return lines.join('\n');
}

/**
 * cel-go checker/validator.go `formatValidator`: a call to `duration`, `timestamp` or `matches` whose
 * first argument is a literal is evaluated (or the pattern compiled) once after checking; a failure is
 * `invalid <function> argument` at the literal. The first argument of a receiver call excludes the
 * receiver (`'a'.matches(')')` checks `')'`); in the global form `matches('a', ')')` it is the string.
 */
function literalIssues(ast: ASTNode): LiteralIssue[] {
  const issues: LiteralIssue[] = [];
  forEachNode(ast, (node) => {
    let name: string;
    let args: readonly ASTNode[];
    if (node.op === 'call') [name, args] = node.args as [string, ASTNode[]];
    else if (node.op === 'rcall') [name, , args] = node.args as [string, ASTNode, ASTNode[]];
    else return;
    const literal = args[0];
    if (literal?.op !== 'value' || !isInvalidLiteral(name, literal.args)) return;
    issues.push({ offset: literal.start, message: `invalid ${name} argument` });
  });
  return issues;
}

function isInvalidLiteral(name: string, value: unknown): boolean {
  switch (name) {
    case 'duration':
      return typeof value === 'string' && parseGoDuration(value) === undefined;
    case 'timestamp': {
      if (typeof value === 'bigint') return value < BigInt(MIN_UNIX_SECONDS) || value > BigInt(MAX_UNIX_SECONDS);
      if (typeof value !== 'string') return false;
      const millis = parseRfc3339(value);
      return millis === undefined || millis < MIN_UNIX_SECONDS * 1000 || millis >= (MAX_UNIX_SECONDS + 1) * 1000;
    }
    case 'matches': {
      const pattern = typeof value === 'string' ? value : undefined;
      return pattern !== undefined && goRegexpError(pattern) !== undefined;
    }
    default:
      return false;
  }
}
