import { check, compileErrorLine, errorOf, evaluate } from './helpers';
import { loadCel } from '../../../lib/cel';

beforeAll(loadCel);

// The semver library of k8s.io/apiserver/pkg/cel/library/semverlib.go at version 1 (base.go, 1.33+).
// Examples come from its godoc, the "CEL in Kubernetes" page and semver_test.go.

const compileError = compileErrorLine;

describe('kubernetes.io "Kubernetes semver library" examples', () => {
  it.each([
    ["isSemver('1.0.0')", true],
    ["isSemver('v1.0', true)", true],
    ["semver('1.2.3').major()", 1n],
    ["semver('1.2.3').compareTo(semver('2.0.0')) < 0", true],
  ])('%s is %s', (expression, result) => {
    expect(evaluate(expression)).toBe(result);
  });
});

describe('semver (semverlib.go godoc)', () => {
  it.each([
    ["semver('1.0.0')", [1n, 0n, 0n]],
    ["semver('0.1.0-alpha.1')", [0n, 1n, 0n]],
    // normalize: the leading v goes, missing numbers become 0, leading zeros go.
    ["semver('v1.0.0', true)", [1n, 0n, 0n]],
    ["semver('1.0', true)", [1n, 0n, 0n]],
    ["semver('01.01.01', true)", [1n, 1n, 1n]],
  ])('%s returns a Semver', (expression, [major, minor, patch]) => {
    expect(evaluate(`[${expression}.major(), ${expression}.minor(), ${expression}.patch()]`)).toEqual([major, minor, patch]);
  });

  it.each(["semver('v1.0.0', true) == semver('1.0.0')", "semver('1.0', true) == semver('1.0.0')", "semver('01.01.01', true) == semver('1.1.1')"])(
    '%s',
    (expression) => {
      expect(evaluate(expression)).toBe(true);
    },
  );

  // blang/semver's error text, as types.WrapErr passes it on.
  it.each([
    ["semver('200K')", 'No Major.Minor.Patch elements found'],
    ["semver('Three')", 'No Major.Minor.Patch elements found'],
    ["semver('Mi')", 'No Major.Minor.Patch elements found'],
  ])('%s is an error', (expression, message) => {
    expect(errorOf(expression)).toBe(message);
  });
});

describe('isSemver (semverlib.go godoc)', () => {
  it.each([
    ["isSemver('1.0.0')", true],
    ["isSemver('hello')", false],
    ["isSemver('v1.0')", false],
    ["isSemver('v1.0', true)", true],
    // The godoc writes these two with `semver(` but means isSemver.
    ["isSemver('1.0', true)", true],
    ["isSemver('01.01.01', true)", true],
  ])('%s is %s', (expression, result) => {
    expect(evaluate(expression)).toBe(result);
  });
});

describe('major, minor, patch and comparisons (semverlib.go godoc)', () => {
  it.each([
    ['semver("1.2.3").major()', 1n],
    ['semver("1.2.3").minor()', 2n],
    ['semver("1.2.3").patch()', 3n],
    ['semver("1.2.3").compareTo(semver("1.2.3"))', 0n],
    ['semver("1.2.3").compareTo(semver("2.0.0"))', -1n],
    ['semver("1.2.3").compareTo(semver("0.1.2"))', 1n],
  ])('%s is %s', (expression, result) => {
    expect(evaluate(expression)).toBe(result);
  });
});

describe('semver_test.go', () => {
  it.each([
    ['isSemver("1.2.3-beta.1+build.1")', true],
    ['isSemver("")', false],
    ['isSemver("v1.0.0")', false],
    ['isSemver(" 1.0.0")', false],
    ['isSemver("1. 0.0")', false],
    ['isSemver("1.0.0 ")', false],
    ['isSemver("01.01.01")', false],
    ['isSemver("1")', false],
    ['isSemver("1.1")', false],
    ['isSemver("", true)', false],
    ['isSemver(" 1.0.0", true)', false],
    ['isSemver("1. 0.0", true)', false],
    ['isSemver("1.0.0 ", true)', false],
    ['isSemver("v1.0.0", true)', true],
    ['isSemver("01.01.01", true)', true],
    ['isSemver("1", true)', true],
    ['isSemver("1.1", true)', true],
    ['semver("v01.01", true) == semver("1.1.0")', true],
    ['semver("1.2.3") == semver("1.2.3")', true],
    ['semver("1.2.3") == semver("1.0.0")', false],
    ['semver("1.0.0").isLessThan(semver("1.2.3"))', true],
    ['semver("1.0.0").isLessThan(semver("1.0.0"))', false],
    ['semver("1.2.3").isGreaterThan(semver("1.0.0"))', true],
    ['semver("1.0.0").isGreaterThan(semver("1.0.0"))', false],
    ['semver("1.2.3").compareTo(semver("1.2.3"))', 0n],
    ['semver("1.0.0").compareTo(semver("1.2.3"))', -1n],
    ['semver("1.2.3").compareTo(semver("1.0.0"))', 1n],
  ])('%s is %s', (expression, result) => {
    expect(evaluate(expression)).toBe(result);
  });

  it('semver("v1.0") is an error', () => {
    expect(errorOf('semver("v1.0")')).toBe('No Major.Minor.Patch elements found');
  });

  it('isSemver takes a string (compile error)', () => {
    expect(compileError('isSemver([1, 2, 3])')).toMatch(/^ERROR: <input>:1:9: found no matching overload for 'isSemver' applied to '\(list\(int\)\)'$/);
    expect(compileError("semver('1.0.0', 'yes')")).toMatch(/found no matching overload for 'semver' applied to '\(string, string\)'/);
  });
});

describe("blang/semver's rules and texts", () => {
  it.each([
    ["semver('')", 'Version string empty'],
    ["semver('v1.0.0')", 'Invalid character(s) found in major number "v1"'],
    ["semver('1.x.0')", 'Invalid character(s) found in minor number "x"'],
    ["semver('1.0.x')", 'Invalid character(s) found in patch number "x"'],
    ["semver('01.0.0')", 'Major number must not contain leading zeroes "01"'],
    ["semver('1.01.0')", 'Minor number must not contain leading zeroes "01"'],
    ["semver('1.0.01')", 'Patch number must not contain leading zeroes "01"'],
    ["semver('1..0')", 'strconv.ParseUint: parsing "": invalid syntax'],
    ["semver('18446744073709551616.0.0')", 'strconv.ParseUint: parsing "18446744073709551616": value out of range'],
    ["semver('1.0.0-')", 'Prerelease is empty'],
    ["semver('1.0.0-a..b')", 'Prerelease is empty'],
    ["semver('1.0.0-01')", 'Numeric PreRelease version must not contain leading zeroes "01"'],
    ["semver('1.0.0-a_b')", 'Invalid character(s) found in prerelease "a_b"'],
    ["semver('1.0.0+')", 'Build meta data is empty'],
    ["semver('1.0.0+a_b')", 'Invalid character(s) found in build meta data "a_b"'],
    ["semver('1.0.0-é')", 'Invalid character(s) found in prerelease "é"'],
    // semverlib.go's own text (lower case, unlike blang's ParseTolerant).
    ["semver('1.0-alpha', true)", 'short version cannot contain PreRelease/Build meta data'],
    ["semver('1+b', true)", 'short version cannot contain PreRelease/Build meta data'],
    // normalize strips leading zeros from the first three dot-separated parts only.
    ["semver('1.0.0-01', true)", 'Numeric PreRelease version must not contain leading zeroes "01"'],
    ["semver(' 1.0.0', true)", 'Invalid character(s) found in major number "0 1"'],
  ])('%s is an error: %s', (expression, message) => {
    expect(errorOf(expression)).toBe(message);
  });

  it.each([
    // semver.org's precedence example: 1.0.0-alpha < alpha.1 < alpha.beta < beta < beta.2 < beta.11 < rc.1 < 1.0.0.
    [
      "['1.0.0-alpha', '1.0.0-alpha.1', '1.0.0-alpha.beta', '1.0.0-beta', '1.0.0-beta.2', '1.0.0-beta.11', '1.0.0-rc.1', '1.0.0'].map(v, semver(v)).all(v, true)",
      true,
    ],
    ["semver('1.0.0-alpha').isLessThan(semver('1.0.0-alpha.1'))", true],
    ["semver('1.0.0-alpha.1').isLessThan(semver('1.0.0-alpha.beta'))", true],
    ["semver('1.0.0-alpha.beta').isLessThan(semver('1.0.0-beta'))", true],
    ["semver('1.0.0-beta').isLessThan(semver('1.0.0-beta.2'))", true],
    ["semver('1.0.0-beta.2').isLessThan(semver('1.0.0-beta.11'))", true],
    ["semver('1.0.0-beta.11').isLessThan(semver('1.0.0-rc.1'))", true],
    ["semver('1.0.0-rc.1').isLessThan(semver('1.0.0'))", true],
    ["semver('1.0.0-B').isLessThan(semver('1.0.0-a'))", true],
    // Build metadata has no precedence: Version.EQ and Compare ignore it.
    ["semver('1.0.0+a') == semver('1.0.0+b')", true],
    ["semver('1.0.0+a').compareTo(semver('1.0.0'))", 0n],
    ["semver('1.0.0-a') == semver('1.0.0')", false],
    // v0..v9 and leading zeros are normalized; everything else is parsed strictly.
    ["semver('v1.2.3-rc.1+b', true) == semver('1.2.3-rc.1')", true],
    ["semver('00.0.00', true) == semver('0.0.0')", true],
    ["isSemver('vv1.0.0', true)", false],
    ["isSemver('V1.0.0', true)", false],
    ["isSemver('1.0.0.0')", false],
  ])('%s is %s', (expression, result) => {
    expect(evaluate(expression)).toBe(result);
  });

  // semverlib.go converts the uint64 numbers with types.Int, which wraps past MaxInt64.
  it('numbers past int64 wrap as Go converts them', () => {
    expect(evaluate("semver('18446744073709551615.9223372036854775808.9223372036854775807').major()")).toBe(-1n);
    expect(evaluate("semver('18446744073709551615.9223372036854775808.9223372036854775807').minor()")).toBe(-9223372036854775808n);
    expect(evaluate("semver('18446744073709551615.9223372036854775808.9223372036854775807').patch()")).toBe(9223372036854775807n);
  });

  it('the type is kubernetes.Semver', () => {
    expect(check("semver('1.0.0')")).toMatchObject({ valid: true, type: 'kubernetes.Semver' });
  });
});
