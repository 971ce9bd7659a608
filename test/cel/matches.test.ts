// CEL's `matches` as cel-go runs it (common/types/string.go `Match`: Go's regexp.MatchString): RE2's
// syntax and linear time, a match anywhere in the string, both of cel-go's overloads, and Go's error
// text for a pattern Go refuses (compiled in advance for a literal: checker/validator.go).
import { loadCel } from '../../lib/cel';
import { issueOf, valueOf } from './helpers';

beforeAll(loadCel);

describe("matches: Go's regexp syntax and semantics", () => {
  it.each([
    // Unanchored: a match anywhere is enough; ^ and $ anchor it.
    [`'xabcx'.matches('abc')`, true],
    [`'abc'.matches('^b')`, false],
    // \\z is the end of the text in RE2; in a JavaScript RegExp it is a plain z.
    ["'ab'.matches('b\\\\z')", true],
    ["'ab\\n'.matches('b\\\\z')", false],
    ["'z'.matches('\\\\z')", true],
    ["'az'.matches('^a\\\\z')", false],
    // (?i) switched on in the middle of the pattern (JavaScript has flags for the whole pattern only).
    [`'aB'.matches('^a(?i)b$')`, true],
    [`'AB'.matches('^a(?i)b$')`, false],
    // Unicode classes without braces, POSIX classes.
    [`'é'.matches('^\\\\pL$')`, true],
    [`'1'.matches('^\\\\pL$')`, false],
    [`'x'.matches('^[[:alpha:]]$')`, true],
    [`':'.matches('^[[:alpha:]]$')`, false],
    // . excludes only \\n (JavaScript's excludes \\r and the line separators too); (?s) includes it.
    ["'a\\rb'.matches('^a.b$')", true],
    ["'a\\u2028b'.matches('^a.b$')", true],
    ["'a\\nb'.matches('^a.b$')", false],
    ["'a\\nb'.matches('(?s)^a.b$')", true],
    // \\Q…\\E is literal text.
    [`'a+b'.matches('^\\\\Qa+b\\\\E$')`, true],
  ])('%s → %j', (expression, expected) => {
    expect(valueOf(expression)).toBe(expected);
  });

  it('the global overload matches(string, string), which cel-go declares beside the member one', () => {
    expect(valueOf(`matches('xabcx', 'abc')`)).toBe(true);
    expect(valueOf(`matches('ab', '^b')`)).toBe(false);
    expect(valueOf("matches('ab\\n', 'b\\\\z')")).toBe(false);
    expect(valueOf('matches(object.s, object.p)', { object: { s: 'aB', p: 'a(?i)b' } })).toBe(true);
  });

  it('runs on values known only at run time (dyn receiver and pattern)', () => {
    expect(valueOf('object.s.matches(object.p)', { object: { s: 'ab\n', p: 'b\\z' } })).toBe(false);
    expect(valueOf('object.s.matches(object.p)', { object: { s: 'héllo', p: '^\\pL+$' } })).toBe(true);
  });
});

describe('matches: patterns Go refuses', () => {
  it('a literal lookahead is refused when the expression is compiled, at the pattern', () => {
    expect(issueOf("'a'.matches('(?=a)')")).toBe("ERROR: <input>:1:13: invalid matches argument\n | 'a'.matches('(?=a)')\n | ............^");
    expect(issueOf("'a'.matches('(?<=a)')")?.split('\n')[0]).toBe('ERROR: <input>:1:13: invalid matches argument');
  });

  it("a pattern known only at run time fails with Go's regexp error", () => {
    expect(valueOf('object.s.matches(object.p)', { object: { s: 'a', p: '(?=a)' } })).toEqual({
      error: 'error parsing regexp: invalid or unsupported Perl syntax: `(?=`',
    });
    expect(valueOf('matches(object.s, object.p)', { object: { s: 'a', p: 'a\\' } })).toEqual({
      error: 'error parsing regexp: trailing backslash at end of expression: ``',
    });
  });
});

// Go's regexp runs in time linear in the input. A backtracking engine takes exponential time on these
// patterns when they fail to match: with 5 000 characters, longer than anyone would wait. Each test
// finishing at all is what it checks.
describe('matches: linear time on nested quantifiers', () => {
  const as = 'a'.repeat(5000);
  it.each([
    ['^(a+)+$', `${as}b`],
    ['(a*)*b', as],
    ['(x+x+)+y', 'x'.repeat(5000)],
  ])('%s over 5 000 characters that do not match', (pattern, s) => {
    expect(valueOf('object.s.matches(object.p)', { object: { s, p: pattern } })).toBe(false);
    expect(valueOf(`object.s.matches('${pattern}')`, { object: { s } })).toBe(false);
  });

  it('and where they do match', () => {
    expect(valueOf(`object.s.matches('^(a+)+$')`, { object: { s: as } })).toBe(true);
  });
});
