import { loadCel } from '../../../lib/cel';
import { compileError, evaluate, runtimeError } from './helpers';

beforeAll(loadCel);

const uint = (v: bigint) => expect.objectContaining({ value: v });

// cel-go ext/math.go, version 1.
describe('math.greatest and math.least: godoc examples', () => {
  it.each([
    ['math.greatest(1)', 1n],
    ['math.greatest(1u, 2u)', uint(2n)],
    ['math.greatest(-42.0, -21.5, -100.0)', -21.5],
    ['math.greatest([-42.0, -21.5, -100.0])', -21.5],
    ['math.greatest(object.numbers)', 7n],
    ['math.least(1)', 1n],
    ['math.least(1u, 2u)', uint(1n)],
    ['math.least(-42.0, -21.5, -100.0)', -100.0],
    ['math.least([-42.0, -21.5, -100.0])', -100.0],
    ['math.least(object.numbers)', -3n],
  ])('%s → %p', (expression, expected) => {
    expect(evaluate(expression, { numbers: [4, -3, 7] })).toEqual(expected);
  });

  it.each([
    ["math.greatest('string')", '1:15: math.greatest() invalid single argument value'],
    ['math.least([])', '1:12: math.least() invalid single argument value'],
    ["math.greatest(1, 'a')", '1:18: math.greatest() simple literal arguments must be numeric'],
    ['math.least(1, 2, [3])', '1:18: math.least() simple literal arguments must be numeric'],
  ])('%s is a parse error', (expression, error) => {
    expect(compileError(`${expression} == 1`)).toContain(`ERROR: <input>:${error}`);
  });

  it.each([
    ["math.greatest(1, 'a'.lowerAscii())", "found no matching overload for 'math.@max' applied to '(int, string)'"],
    ["math.least('a'.lowerAscii())", "found no matching overload for 'math.@min' applied to '(string)'"],
    ["math.greatest(['a'.lowerAscii()])", "found no matching overload for 'math.@max' applied to '(list(string))'"],
    // Three or more arguments are a list literal, which must be homogeneous.
    ['math.greatest(1, 2.0, 3)', "expected type 'int' but found 'double'"],
  ])('%s is a check error', (expression, error) => {
    expect(compileError(`${expression} == 1`)).toContain(error);
  });

  it.each([
    ["math.greatest(dyn('string'))", 'no such overload: math.@max(string)'],
    ["math.least(object.numbers, dyn('a'))", 'no such overload: math.@min(list, string)'],
    ['math.greatest(object.empty)', 'math.@max(list) argument must not be empty'],
    ['math.least(object.words)', 'no such overload: math.@min'],
    ["math.greatest(dyn(double('NaN')), 1)", 'NaN values cannot be ordered: math.@max'],
    ["math.greatest([1.0, double('NaN')])", 'no such overload: math.@max'],
  ])('%s fails at runtime: %s', (expression, error) => {
    expect(runtimeError(`dyn(${expression}) == 1`, { numbers: [1, 2], empty: [], words: ['a', 'b'] })).toBe(error);
  });

  it('mixes numeric types', () => {
    expect(evaluate('math.greatest(1, 2.5)')).toBe(2.5);
    expect(evaluate('math.least(1u, -1)')).toBe(-1n);
    expect(evaluate('math.greatest(dyn(1), dyn(1.0))')).toBe(1n);
    expect(evaluate("math.greatest(1, dyn(double('NaN')))")).toBe(1n);
  });

  // cel-go rejects math.greatest() while expanding the macro ("math.greatest() requires at least one
  // argument"); cel-js has no zero-argument macros, so it is an unknown overload instead.
  it('math.greatest() does not compile', () => {
    expect(compileError('math.greatest() == 1')).toBeDefined();
  });

  it.failing('math.greatest() reports that it requires at least one argument', () => {
    expect(compileError('math.greatest() == 1')).toContain('math.greatest() requires at least one argument');
  });
});

describe('math functions of version 1: godoc examples', () => {
  it.each([
    ['math.bitOr(1u, 2u)', uint(3n)],
    ['math.bitOr(-2, -4)', -2n],
    ['math.bitAnd(3u, 2u)', uint(2n)],
    // The godoc says 3: 3 & 5 is 1.
    ['math.bitAnd(3, 5)', 1n],
    ['math.bitAnd(-3, -5)', -7n],
    ['math.bitXor(3u, 5u)', uint(6n)],
    ['math.bitXor(1, 3)', 2n],
    // The godoc says -1: ^1 is -2.
    ['math.bitNot(1)', -2n],
    ['math.bitNot(-1)', 0n],
    ['math.bitNot(0u)', uint(18446744073709551615n)],
    ['math.bitShiftLeft(1, 2)', 4n],
    ['math.bitShiftLeft(-1, 2)', -4n],
    ['math.bitShiftLeft(1u, 2)', uint(4n)],
    ['math.bitShiftLeft(1u, 200)', uint(0n)],
    ['math.bitShiftLeft(1, 63)', -9223372036854775808n],
    ['math.bitShiftRight(1024, 2)', 256n],
    ['math.bitShiftRight(1024u, 2)', uint(256n)],
    ['math.bitShiftRight(1024u, 64)', uint(0n)],
    ['math.bitShiftRight(-1, 60)', 15n],
    ['math.ceil(1.2)', 2.0],
    ['math.ceil(-1.2)', -1.0],
    ['math.floor(1.2)', 1.0],
    ['math.floor(-1.2)', -2.0],
    ['math.round(1.2)', 1.0],
    ['math.round(1.5)', 2.0],
    ['math.round(-1.5)', -2.0],
    ['math.round(0.49999999999999994)', 0.0],
    ['math.trunc(-1.3)', -1.0],
    ['math.trunc(1.3)', 1.0],
    ['math.abs(-1)', 1n],
    ['math.abs(1)', 1n],
    ['math.abs(-1.5)', 1.5],
    ['math.abs(3u)', uint(3n)],
    ['math.sign(-42)', -1n],
    ['math.sign(0)', 0n],
    ['math.sign(42)', 1n],
    ['math.sign(-0.5)', -1.0],
    ['math.sign(7u)', uint(1n)],
    ['math.isInf(1.0/0.0)', true],
    ['math.isInf(1.2)', false],
    ['math.isNaN(0.0/0.0)', true],
    ['math.isNaN(1.2)', false],
    ['math.isFinite(0.0/0.0)', false],
    ['math.isFinite(1.2)', true],
  ])('%s → %p', (expression, expected) => {
    expect(evaluate(expression)).toEqual(expected);
  });

  it('math.sign(NaN) is NaN', () => {
    expect(evaluate("math.sign(double('NaN'))")).toBeNaN();
  });

  it.each([
    ['math.abs(-9223372036854775808)', 'integer overflow'],
    ['math.bitShiftLeft(1, -2)', 'math.bitShiftLeft() negative offset: -2'],
    ['math.bitShiftRight(1u, -2)', 'math.bitShiftRight() negative offset: -2'],
  ])('%s is an error: %s', (expression, error) => {
    expect(runtimeError(`${expression} == ${expression}`)).toBe(error);
  });

  it.each([
    ['math.ceil(1)', /found no matching overload for 'ceil'/],
    ['math.bitAnd(1, 2u)', /found no matching overload for 'bitAnd'/],
    ['math.isNaN(1)', /found no matching overload for 'isNaN'/],
    // math.sqrt is version 2.
    ['math.sqrt(81.0)', /undeclared reference to 'sqrt'|found no matching overload for 'sqrt'/],
  ])('%s does not compile', (expression, error) => {
    expect(compileError(`${expression} == ${expression}`)).toMatch(error);
  });
});
