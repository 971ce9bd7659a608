import type { ParseResult } from '@marcbachmann/cel-js';
import type { MatchConditionsEnvironment } from './environment';
import { checkEveryIssue } from './check-every-issue';
import { celGoIssue, celGoTypeName, checkIssues } from './errors';
import { afterCheck, displayIssues, programError } from './checked';
import { celModule } from './runtime';

/** What an expression must evaluate to, as cel-go names the types. */
export type ReturnType = 'bool' | 'string' | 'null_type';

/**
 * apiserver plugin/cel compile.go `CompileCELExpression`: a parse or check failure is `compilation failed:
 * <cel-go's issue>`; a result type that is none of `returnTypes` is `must evaluate to …`; what cel-go's
 * `env.Program` refuses is `program instantiation failed: …` (lib/cel/checked.ts `programError`). `acceptDyn`
 * lets a dyn result through: for policies, whose `object` kube types from the resource's schema (a
 * boolean field is a bool there) while the harness declares it dyn — the value is checked when it runs.
 * `anyType` accepts every result (a policy's variables, whose type is what their expression gives).
 */
export function compileExpression(
  expression: string,
  environment: MatchConditionsEnvironment,
  returnTypes: readonly ReturnType[],
  acceptDyn = false,
  anyType = false,
): ParseResult | string {
  const parsed = parseAndCheck(expression, environment);
  if ('issue' in parsed) return `compilation failed: ${parsed.issue}`;
  const { program, type } = parsed;
  const accepted = anyType || (returnTypes as readonly string[]).includes(type === 'null' ? 'null_type' : type) || (acceptDyn && type === 'dyn');
  if (!accepted) {
    // cel-js abbreviates list<dyn> and map<dyn, dyn> here.
    const got = celGoTypeName({ list: 'list<dyn>', map: 'map<dyn, dyn>' }[type] ?? type);
    return returnTypes.length === 1 ? `must evaluate to ${returnTypes[0]} but got ${got}` : `must evaluate to one of [${returnTypes.join(' ')}] but got ${got}`;
  }
  const refused = programError(program.ast);
  return refused === undefined ? program : `program instantiation failed: ${refused}`;
}

/** An expression parsed and type-checked: its program and result type, or cel-go's text for the first issue. */
export type Checked = { program: ParseResult; type: string } | { issue: string; program?: ParseResult };

/**
 * cel-js's parse and check, a failure in cel-go's words (lib/cel/errors.ts `celGoIssue`), every issue
 * of the check as cel-go's checker reports them (lib/cel/check-every-issue.ts); the program comes back
 * with a check issue too, for callers that look further into it.
 */
export function parseAndCheck(expression: string, environment: MatchConditionsEnvironment): Checked {
  const { ParseError } = celModule();
  const { env, functions } = environment;
  let program: ParseResult;
  try {
    program = env.parse(expression);
  } catch (error) {
    if (error instanceof ParseError) return { issue: celGoIssue(error, expression, functions) };
    throw error;
  }
  const checked = checkEveryIssue(program);
  if (checked.issues) return { issue: displayIssues(expression, checkIssues(checked.issues, expression, functions, program.ast)), program };
  const issues = afterCheck(program.ast);
  return issues.length > 0 ? { issue: displayIssues(expression, issues), program } : { program, type: checked.type };
}
