// Optional types as cel-go has them (cel/library.go optionalLib), beyond what cel-js brings:
// optional.ofNonZeroValue is none for each kind's zero value (traits.Zeroer `IsZeroValue`); the optMap
// and optFlatMap macros; `==` between optionals (types/optional.go `Equal`); optional entries in literals.
import { loadCel } from '../../lib/cel';
import { celValue } from '../../lib/cel/values';
import { parseAndCheck } from '../../lib/cel/compile';
import { matchConditionsEnvironment } from '../../lib/cel/environment';
import { evaluateProgram } from '../../lib/cel/evaluate';
import { issueOf, valueOf } from './helpers';

beforeAll(loadCel);

describe('optional.ofNonZeroValue', () => {
  it.each(['0', '0u', '0.0', "''", "b''", 'false', 'null', "duration('0')", "timestamp('0001-01-01T00:00:00Z')", 'object.emptyList', 'object.emptyMap'])(
    '%s is a zero value: none',
    (value) => {
      expect(valueOf(`!optional.ofNonZeroValue(${value}).hasValue()`, { object: celValue({ emptyList: [], emptyMap: {} }) })).toBe(true);
    },
  );

  it.each(['1', '1u', '0.5', "'a'", "b'a'", 'true', "duration('1ns')", 'timestamp(0)', '[0]', "{'': 0}"])('%s is kept', (value) => {
    expect(valueOf(`optional.ofNonZeroValue(${value}).hasValue() && optional.ofNonZeroValue(${value}).value() == ${value}`)).toBe(true);
  });

  it('reads as an optional of the value’s type', () => {
    expect(valueOf("optional.ofNonZeroValue('').orValue('default')")).toBe('default');
    expect(valueOf("optional.ofNonZeroValue('set').orValue('default')")).toBe('set');
  });
});

describe('optMap and optFlatMap', () => {
  const object = celValue({ spec: { replicas: 3, labels: { app: 'web' } } });

  it.each([
    ['object.spec.?replicas.optMap(r, r * 2).orValue(0)', 6n],
    ['object.spec.?missing.optMap(r, r * 2).orValue(0)', 0n],
    ['object.spec.?labels.optMap(l, l.size()).value()', 1n],
    ["{'k': {'n': 'v'}}.?k.optFlatMap(m, m.?n).value()", 'v'],
    ["{'k': {'n': 'v'}}.?k.optFlatMap(m, m.?z).hasValue()", false],
    ['optional.of([1, 2]).optFlatMap(e, e[?0]) == optional.of(1)', true],
    ['optional.of([]).optFlatMap(e, e[?0]).hasValue()', false],
    ['optional.none().optMap(x, x + 1) == optional.none()', true],
  ])('%s', (expression, expected) => {
    expect(valueOf(expression, { object })).toEqual(expected);
  });

  it.each([
    ['optional.of(1).optMap(x.y, x)', 'optMap() variable name must be a simple identifier'],
    ['optional.of(1).optFlatMap(x.y, x)', 'optFlatMap() variable name must be a simple identifier'],
    ['1.optMap(x, x)', "found no matching overload for 'hasValue' applied to 'int.()'"],
  ])('%s is refused when compiled', (expression, issue) => {
    expect(issueOf(expression)).toContain(issue);
  });

  // cel-go expands optMap to `t.hasValue() ? optional.of([].fold(x = t.value(), x + 1)) : optional.none()`.
  it.each([
    ['optional.of(1).optMap(x, x + 1)', 17], // target optional.of(1) 1, twice; hasValue 1, value 1, [] 10, optional.of 1; x 1, _+_ 1
    ['optional.none().optMap(x, x + 1)', 3], // target optional.none() 1; hasValue 1; optional.none() 1
    ['optional.of([1]).optFlatMap(e, e[?0])', 36], // target [1] 10 + optional.of 1, twice; hasValue 1, value 1, [] 10; e 1, [?] 1
  ])('%s costs %d at run time', (expression, expected) => {
    const checked = parseAndCheck(expression, matchConditionsEnvironment());
    if ('issue' in checked) throw new Error(checked.issue);
    expect(evaluateProgram(checked.program, {}, Number.MAX_SAFE_INTEGER)).toMatchObject({ cost: expected });
  });

  it('the variable has the optional value type: a mismatch is a compile error', () => {
    expect(issueOf("optional.of(1).optMap(x, x == 'a')")).toContain("found no matching overload for '_==_' applied to '(int, string)'");
  });
});

describe('== between optionals', () => {
  it.each([
    ['optional.of(1) == optional.of(1)', true],
    ['optional.of(1) == optional.of(2)', false],
    ['optional.of(1) != optional.none()', true],
    ['optional.none() == optional.none()', true],
    ["{'a': 1}.?a == optional.of(1)", true],
    ["{'a': 1}.?b == optional.none()", true],
    ['optional.of([1, 2]) == optional.of([1, 2])', true],
  ])('%s is %s', (expression, expected) => {
    expect(valueOf(expression)).toBe(expected);
  });

  it('optionals of different types do not compare, as in cel-go (_==_ takes two values of one type)', () => {
    expect(issueOf("optional.of(1) == optional.of('a')")).toContain(
      "found no matching overload for '_==_' applied to '(optional_type(int), optional_type(string))'",
    );
  });
});

describe('optional entries in list and map literals (cel-go parser: `?` before an element or key)', () => {
  // An element or entry is kept only when its optional has a value (more in optional-entries.test.ts).
  it.each(['[?optional.of(1), 2] == [1, 2]', "{?'k': optional.none()} == {}"])('%s holds, as in kube', (expression) => {
    expect(issueOf(expression)).toBeUndefined();
    expect(valueOf(expression)).toBe(true);
  });
});
