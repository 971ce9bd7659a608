// The AST validators kube-apiserver's base environment enables from 1.29 (apiserver
// pkg/cel/environment/base.go: cel-go's ValidateDurationLiterals, ValidateTimestampLiterals,
// ValidateRegexLiterals, checker/validator.go `formatValidator`): a literal argument that cannot convert
// or compile fails the expression when it is compiled, `invalid <function> argument` at the literal.
// And the conversions themselves, as cel-go's string.go `ConvertToType` reads them at run time.
import { compileMatchConditions, loadCel } from '../../lib/cel';
import { createPod, evaluateOne, issueOf, valueOf } from './helpers';

beforeAll(loadCel);

function compileErrors(expression: string): string[] | undefined {
  const result = compileMatchConditions([{ name: 'only', expression }]);
  return 'errors' in result ? result.errors : undefined;
}

describe('literal validators', () => {
  it('an invalid duration literal is a compile error at the literal, in the field error kube writes', () => {
    expect(compileErrors("duration('1d') > duration('0')")).toEqual([
      `matchConditions[0].expression: Invalid value: "duration('1d') > duration('0')": compilation failed: ERROR: <input>:1:10: invalid duration argument\n | duration('1d') > duration('0')\n | .........^`,
    ]);
  });

  // regex.go FindRegexOptimization: the pattern is compiled when the program is built, after the checks.
  it("an invalid literal pattern of find is refused when the program is built (compile.go's `program instantiation failed`)", () => {
    expect(compileErrors("'x'.find('(') == ''")).toEqual([
      `matchConditions[0].expression: Invalid value: "'x'.find('(') == ''": program instantiation failed: error parsing regexp: missing closing ): \`(\``,
    ]);
    // A result of the wrong type is reported first, as CompileCELExpression checks it before building the program.
    expect(compileErrors("'x'.find('(')")).toEqual([`matchConditions[0].expression: Invalid value: "'x'.find('(')": must evaluate to bool but got string`]);
  });

  it.each([
    "duration('0')",
    "duration('-0')",
    "duration('1h30m')",
    "duration('-1.5h')",
    "duration('.5s')",
    "duration('1µs')",
    "duration('1μs')",
    "duration('2562047h')",
    "duration('1.h')",
  ])('%s is a valid literal', (expression) => {
    expect(issueOf(`${expression} >= duration('-2562047h')`)).toBeUndefined();
  });

  it.each(["duration('')", "duration('1')", "duration('1d')", "duration('.s')", "duration('2562048h')", "duration('-')", "duration('1h 30m')"])(
    '%s is refused',
    (expression) => {
      expect(issueOf(`${expression} == duration('0')`)?.split('\n')[0]).toBe('ERROR: <input>:1:10: invalid duration argument');
    },
  );

  it('an invalid timestamp literal, string or int, is refused; a valid one compiles', () => {
    expect(issueOf("timestamp('x') == timestamp('2024-01-01T00:00:00Z')")).toBe(
      "ERROR: <input>:1:11: invalid timestamp argument\n | timestamp('x') == timestamp('2024-01-01T00:00:00Z')\n | ..........^",
    );
    expect(issueOf("timestamp('2024-02-30T00:00:00Z') == timestamp(0)")?.split('\n')[0]).toBe('ERROR: <input>:1:11: invalid timestamp argument');
    expect(issueOf("timestamp('2024-01-01 00:00:00Z') == timestamp(0)")?.split('\n')[0]).toBe('ERROR: <input>:1:11: invalid timestamp argument');
    expect(issueOf('timestamp(253402300800) == timestamp(0)')?.split('\n')[0]).toBe('ERROR: <input>:1:11: invalid timestamp argument');
    expect(issueOf("timestamp('2024-01-01T00:00:00+01:00') == timestamp(253402300799)")).toBeUndefined();
  });

  it('an invalid regex literal of matches is refused', () => {
    expect(issueOf("'a'.matches(')')")).toBe("ERROR: <input>:1:13: invalid matches argument\n | 'a'.matches(')')\n | ............^");
    expect(issueOf("'a'.matches('(?i)a+')")).toBeUndefined();
    // Go's RE2 refuses what JavaScript accepts: a backreference.
    expect(issueOf("'aa'.matches('(a)\\\\1')")?.split('\n')[0]).toBe('ERROR: <input>:1:14: invalid matches argument');
  });

  it('several invalid literals are reported together, in the order they are written', () => {
    expect(
      issueOf("duration('x') < duration('y') && 'a'.matches('[')")
        ?.split('\n')
        .filter((line) => line.startsWith('ERROR')),
    ).toEqual([
      'ERROR: <input>:1:10: invalid duration argument',
      'ERROR: <input>:1:26: invalid duration argument',
      'ERROR: <input>:1:46: invalid matches argument',
    ]);
  });

  it('a literal inside a macro is validated too; a value only known when it runs is not', () => {
    expect(issueOf("[1].all(x, duration('1d') > duration('1h'))")?.split('\n')[0]).toBe('ERROR: <input>:1:21: invalid duration argument');
    expect(issueOf("duration(object.metadata.name) > duration('0')")).toBeUndefined();
  });
});

describe('conversions at run time, as cel-go makes them', () => {
  it("duration('0') is zero, and a string Go cannot read is cel-go's conversion error", () => {
    expect(valueOf("duration('0') == duration('0s')")).toBe(true);
    expect(valueOf("duration('1h30m').getMinutes()")).toBe(90n);
    expect(valueOf("duration('-1.5h') == duration('0') - duration('90m')")).toBe(true);
    const input = createPod();
    (input.object as { metadata: Record<string, unknown> }).metadata.name = '1d';
    const message = evaluateOne("duration(object.metadata.name) > duration('0')", input).error?.message;
    expect(message).toContain("resulted in error: type conversion error from 'string' to 'google.protobuf.Duration'");
  });

  it('timestamp(string) reads RFC 3339 only, and its range is years 1 to 9999', () => {
    expect(valueOf("timestamp('2024-01-01T01:00:00+01:00') == timestamp('2024-01-01T00:00:00Z')")).toBe(true);
    const input = createPod();
    const meta = (input.object as { metadata: Record<string, unknown> }).metadata;
    meta.name = '2024-01-01 00:00:00Z';
    expect(evaluateOne('timestamp(object.metadata.name) == timestamp(0)', input).error?.message).toContain(
      "resulted in error: type conversion error from 'string' to 'google.protobuf.Timestamp'",
    );
  });
});

describe('string() of a duration or a timestamp, as cel-go writes them', () => {
  it.each([
    ["string(duration('1h45m47s'))", '6347s'],
    ["string(duration('1.5s'))", '1.5s'],
    ["string(duration('-90m'))", '-5400s'],
    ["string(duration('1ns'))", '0.000000001s'],
    ["string(duration('0'))", '0s'],
    ["string(timestamp('2023-02-03T23:31:20+00:00'))", '2023-02-03T23:31:20Z'],
    ["string(timestamp('2023-02-03T23:31:20.120Z'))", '2023-02-03T23:31:20.12Z'],
    ['string(timestamp(0))', '1970-01-01T00:00:00Z'],
  ])('%s is %j', (expression, expected) => {
    expect(valueOf(expression)).toBe(expected);
  });
});

// cel-go keeps the offset time.Parse read (a FixedZone; kube-apiserver's own zone is UTC), so string()
// writes it back (time.RFC3339Nano), and a timestamp computed from it with a duration keeps it
// (time.Time Add); comparisons and the accessors (UTC: cel.DefaultUTCTimeZone) ignore it.
describe('the offset a timestamp was written with', () => {
  it('string() of a timestamp parsed with an offset keeps that offset', () => {
    expect(valueOf("string(timestamp('2023-02-03T23:31:20+01:00'))")).toBe('2023-02-03T23:31:20+01:00');
    expect(valueOf("string(timestamp('2023-02-03T23:31:20.5-05:30'))")).toBe('2023-02-03T23:31:20.5-05:30');
    // A zero offset is UTC's, written Z.
    expect(valueOf("string(timestamp('2023-02-03T23:31:20-00:00'))")).toBe('2023-02-03T23:31:20Z');
  });

  it('arithmetic with a duration keeps it', () => {
    expect(valueOf("string(timestamp('2023-02-03T23:31:20+01:00') + duration('1h'))")).toBe('2023-02-04T00:31:20+01:00');
    expect(valueOf("string(timestamp('2023-02-03T23:31:20-08:00') + duration('30m'))")).toBe('2023-02-04T00:01:20-08:00');
    expect(valueOf("string(timestamp('2023-02-03T00:10:00+09:00') - duration('20m'))")).toBe('2023-02-02T23:50:00+09:00');
  });

  it('format writes it as string() does', () => {
    expect(valueOf(`"%s".format([timestamp('2023-02-03T23:31:20+01:00')])`)).toBe('2023-02-03T23:31:20+01:00');
    expect(valueOf(`"%s".format([[timestamp('2023-02-03T23:31:20+01:00')]])`)).toBe('[timestamp("2023-02-03T23:31:20+01:00")]');
  });

  it('comparisons, differences and the accessors read the instant', () => {
    expect(valueOf("timestamp('2023-02-03T23:31:20+01:00') == timestamp('2023-02-03T22:31:20Z')")).toBe(true);
    expect(valueOf("timestamp('2023-02-03T23:31:20+01:00') < timestamp('2023-02-03T22:31:21Z')")).toBe(true);
    expect(valueOf("timestamp('2023-02-03T23:31:20+01:00') - timestamp('2023-02-03T22:31:20Z') == duration('0')")).toBe(true);
    expect(valueOf("timestamp('2023-02-03T23:31:20+01:00').getHours()")).toBe(22n);
    expect(valueOf("timestamp('2023-02-03T23:31:20+01:00').getHours('+01:00')")).toBe(23n);
  });
});
