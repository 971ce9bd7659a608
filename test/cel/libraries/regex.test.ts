import { loadCel } from '../../../lib/cel';
import { literalRegexErrors } from '../../../lib/cel/libraries';
import { compileError, evaluate, kubeEnv, runtimeError } from './helpers';

beforeAll(loadCel);

// k8s.io/apiserver/pkg/cel/library/regex.go, with Go's regexp (RE2) semantics.
describe('find and findAll: examples of "CEL in Kubernetes"', () => {
  it.each([
    [`"abc 123".find('[0-9]+')`, '123'],
    [`"1, 2, 3, 4".findAll('[0-9]+').map(x, int(x)).sum() < 100`, true],
  ])('%s → %j', (expression, expected) => {
    expect(evaluate(expression)).toEqual(expected);
  });

  // The page's earlier version used `[0-9]*`, which also matches the empty strings between the numbers;
  // in kube, int('') is then an error (cel-js's int('') happens to be 0, a cel-js divergence).
  it("the older page's `findAll('[0-9]*')` example yields empty matches too", () => {
    expect(evaluate(`"1, 2, 3, 4".findAll('[0-9]*')`)).toEqual(['1', '', '2', '', '3', '', '4']);
  });
});

describe('find and findAll: godoc examples of regex.go', () => {
  it.each([
    // The godoc says '123': Go's FindString returns the leftmost match, the empty one at index 0.
    [`"abc 123".find('[0-9]*')`, ''],
    [`"abc 123".find('xyz')`, ''],
    // The godoc says ['123', '456']: FindAllString also returns the empty matches between them.
    [`"123 abc 456".findAll('[0-9]*')`, ['123', '', '', '', '', '456']],
    [`"123 abc 456".findAll('[0-9]*', 1)`, ['123']],
    [`"123 abc 456".findAll('xyz')`, []],
  ])('%s → %j', (expression, expected) => {
    expect(evaluate(expression)).toEqual(expected);
  });
});

describe("Go's matching semantics", () => {
  it.each([
    // findAll's limit: negative means all, zero none.
    [`'a1b2c3'.findAll('[0-9]', -1)`, ['1', '2', '3']],
    [`'a1b2c3'.findAll('[0-9]', 0)`, []],
    [`'a1b2c3'.findAll('[0-9]', 2)`, ['1', '2']],
    // An empty match right after a match is skipped; the search moves on by one rune after an empty match.
    [`'aaa'.findAll('a*')`, ['aaa']],
    [`'baaab'.findAll('a*')`, ['', 'aaa', '']],
    [`'héllo'.findAll('')`, ['', '', '', '', '', '']],
    // Leftmost-first alternation, as Perl.
    [`'abc'.find('a|ab')`, 'a'],
    [`'abc'.find('ab|a')`, 'ab'],
    // Greedy, lazy, and (?U) swapping them.
    [`'<a><b>'.find('<.*>')`, '<a><b>'],
    [`'<a><b>'.find('<.*?>')`, '<a>'],
    [`'<a><b>'.find('(?U)<.*>')`, '<a>'],
    // . excludes only \\n; (?s) includes it.
    ["'a\\rb'.find('a.b')", 'a\rb'],
    ["'a\\nb'.find('a.b')", ''],
    ["'a\\nb'.find('(?s)a.b')", 'a\nb'],
    // \\s is [\\t\\n\\f\\r ] in Go: no vertical tab, no Unicode spaces.
    ["'\\v'.find('\\\\s')", ''],
    ["'\\u00a0'.find('\\\\s')", ''],
    // ^ and $ match at the text's ends, or at lines with (?m); $ does not match before a final \\n.
    ["'a\\n'.find('a$')", ''],
    ["'x\\nab\\ny'.findAll('(?m)^\\\\w+$')", ['x', 'ab', 'y']],
    ["'a\\nb'.find('\\\\Ab')", ''],
    ["'ab\\n'.find('b\\\\z')", ''],
    // \\b is an ASCII word boundary.
    [`'foo food foo'.findAll('\\\\bfoo\\\\b')`, ['foo', 'foo']],
    [`'é1'.find('\\\\b1')`, '1'],
    // Case folding is Unicode simple folding, and can be switched within the pattern.
    [`'HeLLo'.find('(?i)hello')`, 'HeLLo'],
    [`'aB Ab'.findAll('a(?i)b')`, ['aB']],
    [`'K \u212a k'.findAll('(?i)k')`, ['K', '\u212a', 'k']],
    [`'\u212a'.find('(?i)[^k]')`, ''],
    [`'Straße'.find('(?i)STRASSE')`, ''],
    // Unicode classes, POSIX classes, Perl classes.
    [`'héllo wörld'.findAll('\\\\pL+')`, ['héllo', 'wörld']],
    [`'abc αβγ'.find('\\\\p{Greek}+')`, 'αβγ'],
    [`'ab12'.find('[[:digit:]]+')`, '12'],
    [`'ab12'.find('[[:^alpha:]]+')`, '12'],
    [`'a_1-b'.findAll('\\\\w+')`, ['a_1', 'b']],
    // Escapes: octal, hex, \\Q…\\E, and a class with ] first.
    [`'a+b'.find('\\\\Qa+b\\\\E')`, 'a+b'],
    [`'A'.find('\\\\101')`, 'A'],
    [`'😀'.find('\\\\x{1F600}')`, '😀'],
    [`'a]b'.find('[]a]+')`, 'a]'],
    // A `{` that does not start a repetition is a literal.
    [`'x{,5}'.find('x{,5}')`, 'x{,5}'],
    [`'aaa'.find('a{2}')`, 'aa'],
    // Repeating an assertion is allowed in Go.
    [`'ab'.find('^*a')`, 'a'],
    // Named groups (both syntaxes) are plain groups here.
    [`'ab'.find('(?P<first>a)(?<second>b)')`, 'ab'],
  ])('%s → %j', (expression, expected) => {
    expect(evaluate(expression)).toEqual(expected);
  });

  it('runs on strings from JSON data', () => {
    expect(evaluate(`object.image.find('[^:]+$')`, { image: 'registry.local/app:1.2' })).toBe('1.2');
  });
});

describe("invalid patterns: `Illegal regex: ` and Go's regexp/syntax error", () => {
  it.each([
    ['(', 'missing closing ): `(`'],
    ['a(b', 'missing closing ): `a(b`'],
    [')', 'unexpected ): `)`'],
    ['a**', 'invalid nested repetition operator: `**`'],
    ['a*?*', 'invalid nested repetition operator: `*?*`'],
    ['x{2}{3}', 'invalid nested repetition operator: `{2}{3}`'],
    ['*', 'missing argument to repetition operator: `*`'],
    ['a|*', 'missing argument to repetition operator: `*`'],
    ['a{1001}', 'invalid repeat count: `{1001}`'],
    ['a{2,1}', 'invalid repeat count: `{2,1}`'],
    ['(a{500}){3}', 'invalid repeat count: `{3}`'],
    ['[a', 'missing closing ]: `[a`'],
    ['x[]', 'missing closing ]: `[]`'],
    ['[z-a]', 'invalid character class range: `z-a`'],
    ['[[:foo:]]', 'invalid character class range: `[:foo:]`'],
    ['\\pX', 'invalid character class range: `\\pX`'],
    ['\\p{Foo}', 'invalid character class range: `\\p{Foo}`'],
    ['\\p{L', 'invalid character class range: `\\p{L`'],
    ['\\1', 'invalid escape sequence: `\\1`'],
    ['\\8', 'invalid escape sequence: `\\8`'],
    ['\\q', 'invalid escape sequence: `\\q`'],
    ['\\C', 'invalid escape sequence: `\\C`'],
    ['\\xZZ', 'invalid escape sequence: `\\xZZ`'],
    ['\\x{}', 'invalid escape sequence: `\\x{}`'],
    ['[a-\\d]', 'invalid escape sequence: `\\d`'],
    // Go quotes the expression even when it is empty.
    ['\\', 'trailing backslash at end of expression: ``'],
    ['a\\', 'trailing backslash at end of expression: ``'],
    ['[a\\', 'trailing backslash at end of expression: ``'],
    ['(?=a)', 'invalid or unsupported Perl syntax: `(?=`'],
    ['(?!a)', 'invalid or unsupported Perl syntax: `(?!`'],
    ['(?i', 'invalid or unsupported Perl syntax: `(?i`'],
    ['(?-)', 'invalid or unsupported Perl syntax: `(?-)`'],
    ['(?<=a)b', 'invalid named capture: `(?<=a)b`'],
    ['(?P<>a)', 'invalid named capture: `(?P<>`'],
    ['(?P<a-b>x)', 'invalid named capture: `(?P<a-b>`'],
  ])('%j → %s', (pattern, message) => {
    expect(runtimeError('object.s.find(object.pattern)', { s: 'x', pattern })).toBe(`Illegal regex: error parsing regexp: ${message}`);
    expect(runtimeError('object.s.findAll(object.pattern)', { s: 'x', pattern })).toBe(`Illegal regex: error parsing regexp: ${message}`);
  });

  it('the error text of a literal pattern, as kube-apiserver reports it when building the program', () => {
    const program = kubeEnv().env.parse(`'x'.find('(') == '' && ['a'].all(s, s.findAll('[z-a]').size() == 0) && 'x'.find('ok') == ''`);
    expect(literalRegexErrors(program.ast)).toEqual([
      'error parsing regexp: missing closing ): `(`',
      'error parsing regexp: invalid character class range: `z-a`',
    ]);
  });

  // regex.go's FindRegexOptimization and FindAllRegexOptimization, and cel-go's MatchesRegexOptimization,
  // compile a literal pattern while the program is built, so kube refuses the expression before it runs
  // (plugin/cel compile.go: `program instantiation failed: <Go's error>`).
  it("an invalid literal pattern fails when the program is built, with Go's error", () => {
    expect(compileError(`'x'.find('(') == ''`)).toBe('program instantiation failed: error parsing regexp: missing closing ): `(`');
    expect(compileError(`'x'.findAll('[z-a]', 2).size() == 0`)).toBe(
      'program instantiation failed: error parsing regexp: invalid character class range: `z-a`',
    );
    // cel-go stops at the first call it builds: the receiver's before the call on it.
    expect(compileError(`'x'.find('(?P<>x)').find('[')`)).toBe('program instantiation failed: error parsing regexp: invalid named capture: `(?P<>`');
  });

  it("the global matches: its literal validator reads the first argument, the program's compilation the pattern", () => {
    // checker/validator.go ValidateRegexLiterals checks argument 0 of matches(a, b), the string.
    expect(compileError(`matches('a', ')')`)).toBe('program instantiation failed: error parsing regexp: unexpected ): `)`');
    expect(compileError(`matches('(', 'a')`)?.split('\n')[0]).toBe('ERROR: <input>:1:9: invalid matches argument');
  });

  it('a pattern that is not a literal fails when the expression runs', () => {
    expect(compileError(`object.s.find(object.p) == ''`)).toBeUndefined();
    expect(compileError(`'x'.find('(' + ')') == ''`)).toBeUndefined();
  });
});

// Where RE2 (Go since 1.17, golang/go#46123) and a JavaScript engine part ways, and where RE2/J (re2js's
// origin) refuses what Go accepts.
describe("Go's regexp beyond a JavaScript engine", () => {
  it('an empty-preferring star matches the empty string, as (|a)+ does', () => {
    expect(evaluate(`'aaab'.findAll('(|a)*')`)).toEqual(['', '', '', '', '']);
    expect(evaluate(`'aaab'.findAll('(|a)+')`)).toEqual(['', '', '', '', '']);
  });

  // regexp.go `SubexpIndex`: "(?P<bob>a+)(?P<bob>b+) declares two subexpressions named bob".
  it('a capture name may be used twice', () => {
    expect(evaluate(`'ab'.find('(?P<n>a)(?<n>b)')`)).toBe('ab');
    // A class and \\Q…\\E holding the text of a named group are still literal text.
    expect(evaluate(`'a(?P<n>)'.find('(?P<n>a)(?P<n>[(?P<n>)]+)')`)).toBe('a(?P<n>)');
    expect(evaluate(`'a(?P<n>x)'.find('(?P<n>a)(?P<n>\\\\Q(?P<n>\\\\E)x')`)).toBe('a(?P<n>x');
    // An error after the duplicate is Go's, about the pattern as written.
    expect(runtimeError('object.s.find(object.pattern)', { s: 'x', pattern: '(?P<n>a)(?P<n>b))' })).toBe(
      'Illegal regex: error parsing regexp: unexpected ): `(?P<n>a)(?P<n>b))`',
    );
  });

  it('nesting deeper than 1 000 is refused with the whole pattern quoted', () => {
    const pattern = `${'('.repeat(1000)}${')'.repeat(1000)}`;
    expect(runtimeError('object.s.find(object.pattern)', { s: 'x', pattern })).toBe(
      `Illegal regex: error parsing regexp: expression nests too deeply: \`${pattern}\``,
    );
    expect(evaluate(`'x'.find('${'('.repeat(999)}x${')'.repeat(999)}')`)).toBe('x');
  });

  // A backtracking engine takes exponential time on these: the tests finishing is what they check.
  it.each([
    ['(a+)+$', `${'a'.repeat(5000)}b`, ''],
    ['(a*)*b', 'a'.repeat(5000), ''],
    ['(x+x+)+y', 'x'.repeat(5000), ''],
  ])('find(%j) over 5 000 characters runs in linear time', (pattern, s, expected) => {
    expect(evaluate('object.s.find(object.pattern)', { s, pattern })).toBe(expected);
    expect(evaluate('object.s.findAll(object.pattern)', { s, pattern })).toEqual([]);
  });
});

describe('declarations', () => {
  it('find and findAll take string receivers only', () => {
    expect(compileError(`[1].find('a') == ''`)).toMatch(/found no matching overload for 'find'/);
    expect(compileError(`'a'.findAll('a', 'b') == []`)).toMatch(/found no matching overload for 'findAll'/);
  });
});
