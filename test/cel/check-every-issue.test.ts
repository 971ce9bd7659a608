// The recorded check behind every compile of the harness's CEL (lib/cel/check-every-issue.ts): cel-go's
// checker reports every issue of an expression; the node hooks change nothing outside a recorded check.
import { loadCel } from '../../lib/cel';
import { checkEveryIssue } from '../../lib/cel/check-every-issue';
import { parseAndCheck } from '../../lib/cel/compile';
import { matchConditionsEnvironment } from '../../lib/cel/environment';
import { evaluateProgram } from '../../lib/cel/evaluate';

beforeAll(loadCel);

const summaries = (outcome: ReturnType<typeof checkEveryIssue>) => outcome.issues?.map(({ error, followsFailure }) => [error.summary, followsFailure]);

describe('checkEveryIssue', () => {
  it('records each issue in the order cel-js meets them, and marks one that follows a failed operand', () => {
    const program = matchConditionsEnvironment().env.parse('[imnotafield, 1].size() == 2 && request.uid == ""');
    expect(summaries(checkEveryIssue(program))).toEqual([
      ['Unknown variable: imnotafield', false],
      ["List elements must have the same type, expected type 'dyn' but found 'int'", true],
      ['No such key: uid', false],
    ]);
  });

  it('gives the same issues when a program is checked again (cel-js keeps the types it found)', () => {
    const program = matchConditionsEnvironment().env.parse('a && b');
    const first = summaries(checkEveryIssue(program));
    expect(first).toHaveLength(2);
    expect(summaries(checkEveryIssue(program))).toEqual(first);
  });

  it('a program that checks is typed as cel-go types it, and runs', () => {
    const program = matchConditionsEnvironment().env.parse("duration('1h') + timestamp('2023-01-01T00:00:00Z')");
    expect(checkEveryIssue(program)).toEqual({ type: 'google.protobuf.Timestamp' });
    expect(evaluateProgram(program, {})).toMatchObject({ value: new Date('2023-01-01T01:00:00Z') });
  });

  // The recovering checks are installed only once a plain check failed; what that check typed stays typed.
  it('after a failed plain check, keeps the types it found (duration + timestamp a timestamp) and records every issue', () => {
    const expression = "(duration('1h') + timestamp('2023-01-01T00:00:00Z')).getFullYear() == 2023 && a && request.uid == ''";
    const program = matchConditionsEnvironment().env.parse(expression);
    expect(summaries(checkEveryIssue(program))).toEqual([
      ['Unknown variable: a', false],
      ['No such key: uid', false],
    ]);
  });

  // common/errors.go: ReportErrorAtID keeps the first 100 issues; ToDisplayString sorts them and counts the rest.
  it('displays the first 100 issues and how many more were truncated, as cel-go does', () => {
    const expression = Array.from({ length: 103 }, (_, i) => `v${i}`).join(' || ');
    const checked = parseAndCheck(expression, matchConditionsEnvironment());
    const lines = ('issue' in checked ? checked.issue : '').split('\n');
    expect(lines.filter((line) => line.startsWith('ERROR: '))).toHaveLength(100);
    expect(lines[0]).toBe("ERROR: <input>:1:1: undeclared reference to 'v0' (in container '')");
    expect(lines.at(-1)).toBe('3 more errors were truncated');
  });
});
