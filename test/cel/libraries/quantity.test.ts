import { loadCel } from '../../../lib/cel';
import { CelQuantity } from '../../../lib/cel/libraries';
import { compileError, evaluate, runtimeError } from './helpers';

beforeAll(loadCel);

const FORMAT_ERROR = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

// k8s.io/apiserver/pkg/cel/library/quantity.go on apimachinery's resource.Quantity.
describe('quantity library: examples of "CEL in Kubernetes"', () => {
  it.each([
    [`quantity("500000G").isInteger()`, true],
    [`quantity("50k").asInteger()`, 50000n],
    [`quantity("50k").add(quantity("20k")) == quantity("70k")`, true],
    [`quantity("50k").sub(20000) == quantity("30k")`, true],
    [`quantity("50k").add(20).sub(quantity("100k")).sub(-50000) == quantity("20")`, true],
    [`quantity("200M").compareTo(quantity("0.2G"))`, 0n],
    [`quantity("150Mi").isGreaterThan(quantity("100Mi"))`, true],
    [`quantity("50M").isLessThan(quantity("100M"))`, true],
  ])('%s → %j', (expression, expected) => {
    expect(evaluate(expression)).toEqual(expected);
  });

  it('quantity("9999999999999999999999999999999999999G").asApproximateFloat() is a lossy 1e46', () => {
    expect(evaluate(`quantity("9999999999999999999999999999999999999G").asApproximateFloat()`)).toBeCloseTo(1e46, -31);
  });

  it('the older page\'s quantity("50k").add("20k") does not compile: add takes a Quantity or an int', () => {
    expect(compileError(`quantity("50k").add("20k") == quantity("70k")`)).toMatch(
      /found no matching overload for 'add' applied to 'kubernetes.Quantity.\(string\)'/,
    );
  });
});

describe('quantity library: godoc examples of quantity.go', () => {
  it.each([
    [`isQuantity('1.3G')`, true],
    [`isQuantity('1.3Gi')`, true],
    [`isQuantity('1,3G')`, false],
    [`isQuantity('10000k')`, true],
    [`isQuantity('200K')`, false],
    [`isQuantity('Three')`, false],
    [`quantity("50000000G").isInteger()`, true],
    [`quantity("50k").isInteger()`, true],
    [`quantity("9999999999999999999999999999999999999G").isInteger()`, false],
    [`quantity("50k").asInteger() == 50000`, true],
    [`quantity("50k").sub(20000).asApproximateFloat() == 30000.0`, true],
    [`quantity("50k").add(20) == quantity("50020")`, true],
    [`quantity("50k").sub(20000) == quantity("30k")`, true],
    [`quantity("50k").add(20).sub(quantity("100k")).sub(-50000) == quantity("20")`, true],
    [`quantity("200M").compareTo(quantity("0.2G"))`, 0n],
    [`quantity("50M").compareTo(quantity("50Mi"))`, -1n],
    [`quantity("50Mi").compareTo(quantity("50M"))`, 1n],
    [`quantity("150Mi").isGreaterThan(quantity("100Mi"))`, true],
    [`quantity("50Mi").isGreaterThan(quantity("100Mi"))`, false],
    [`quantity("50M").isLessThan(quantity("100M"))`, true],
    [`quantity("100M").isLessThan(quantity("50M"))`, false],
  ])('%s → %j', (expression, expected) => {
    expect(evaluate(expression)).toEqual(expected);
  });

  it('quantity() parses as resource.ParseQuantity', () => {
    expect(evaluate(`quantity('1.5G')`)).toBeInstanceOf(CelQuantity);
    expect(evaluate(`quantity('200k') == quantity('200000')`)).toBe(true);
    expect(runtimeError(`quantity('200K')`)).toBe("unable to parse quantity's suffix");
    expect(runtimeError(`quantity('Three')`)).toBe(FORMAT_ERROR);
    expect(runtimeError(`quantity('10Mo')`)).toBe(FORMAT_ERROR);
    expect(runtimeError(`quantity('10Mm')`)).toBe("unable to parse quantity's suffix");
    expect(runtimeError(`quantity('')`)).toBe(FORMAT_ERROR);
  });

  // The godoc lists quantity('Mi') as an error and isQuantity('Mi') as false, but ParseQuantity's scanner
  // reads a missing number as 0 (lib/kube/quantity.ts ports it), so a bare suffix is the quantity 0.
  it("a bare suffix parses as zero, as ParseQuantity does (the godoc's quantity('Mi') error is not what it does)", () => {
    expect(evaluate(`isQuantity('Mi') && quantity('Mi').isInteger() && quantity('Mi').asInteger() == 0`)).toBe(true);
  });

  it('asInteger fails when the value is not an int64 amount', () => {
    expect(runtimeError(`quantity("9999999999999999999999999999999999999G").asInteger()`)).toBe('cannot convert value to integer');
  });
});

describe('resource.Quantity semantics', () => {
  it.each([
    // AsInt64 fails for a negative scale, and for any inf.Dec value (ParseQuantity's slow path), even a
    // whole one: 1.0 is 10e-1, 1.5Ki is parsed as a decimal.
    [`quantity('1.0').isInteger()`, false],
    [`quantity('1.5Ki').isInteger()`, false],
    [`quantity('1.5Ki') == quantity('1536')`, true],
    [`quantity('0.5k').isInteger() && quantity('0.5k').asInteger() == 500`, true],
    // ParseQuantity's fast path estimates the precision of a binary suffix: from Pi on it takes inf.Dec.
    [`quantity('1Ti').isInteger() && quantity('1Ti').asInteger() == 1099511627776`, true],
    [`quantity('1Pi').isInteger()`, false],
    [`quantity('8E').isInteger()`, true],
    [`quantity('10E').isInteger()`, false],
    [`quantity('1m').isInteger()`, false],
    [`quantity('1e3').asInteger()`, 1000n],
    // int64 arithmetic that overflows moves to inf.Dec, which is then never an integer.
    [`quantity('9E').add(quantity('9E')).isInteger()`, false],
    [`quantity('9E').add(quantity('9E')) == quantity('18E')`, true],
    [`quantity('1').add(quantity('1')).asInteger()`, 2n],
    [`quantity('1.5').add(quantity('1.5')).isInteger()`, false],
    [`quantity('1.5Ki').sub(quantity('0.5Ki')).isInteger()`, false],
    [`quantity('100m').add(900).asApproximateFloat()`, 900.1],
    [`quantity('1.5').asApproximateFloat()`, 1.5],
    [`quantity('1Ki').asApproximateFloat()`, 1024],
    [`quantity('-1k').add(500).asInteger()`, -500n],
    // Sub and add of an int go through NewQuantity(n, DecimalExponent).
    [`quantity('1').sub(-9223372036854775807).isInteger()`, false],
    [`quantity('0').sub(1).asInteger()`, -1n],
  ])('%s → %j', (expression, expected) => {
    expect(evaluate(expression)).toEqual(expected);
  });

  it.each([
    [`sign(quantity('-1.5'))`, -1n],
    [`sign(quantity('0'))`, 0n],
    [`sign(quantity('2Mi'))`, 1n],
    [`sign(quantity('50k').sub(quantity('100k')))`, -1n],
  ])('%s → %j', (expression, expected) => {
    expect(evaluate(expression)).toBe(expected);
  });

  // quantity.go declares sign with cel.Overload, so only the function-call form compiles in kube, although
  // the documentation lists sign() among a Quantity's member functions.
  it('sign is a function, not a member: q.sign() does not compile', () => {
    expect(compileError(`quantity('1').sign() == 1`)).toMatch(/found no matching overload for 'sign'/);
  });
});

describe('equality of quantities (quantity.go Equal)', () => {
  it.each([
    [`quantity("200M") == quantity("200M")`, true],
    [`quantity("200M") == quantity("0.2G") && quantity("0.2G") == quantity("200M")`, true],
    [`quantity("2M") == quantity("0.002G") && quantity("2000k") == quantity("2M") && quantity("0.002G") == quantity("2000k")`, true],
    [`quantity("200M") == quantity("0.3G")`, false],
    [`quantity("50k").add(quantity("20")) == quantity("50.02k")`, true],
    [`quantity("50k").sub(quantity("20")) == quantity("49.98k")`, true],
    [`quantity("50k").sub(20) == quantity("49980")`, true],
    [`quantity('1') != quantity('2')`, true],
    [`[quantity('1Ki')] == [quantity('1024')]`, true],
    [`quantity('1Ki') in [quantity('1'), quantity('1024')]`, true],
  ])('%s → %j', (expression, expected) => {
    expect(evaluate(expression)).toBe(expected);
  });

  // add and sub return *apiservercel.Quantity, and Equal only recognises a Quantity value as the other
  // operand: a computed quantity on the right of == is never equal, so == is not symmetric in kube.
  it.each([
    [`quantity("70k") == quantity("50k").add(quantity("20k"))`, false],
    [`quantity("50k").add(quantity("20k")) == quantity("50k").add(quantity("20k"))`, false],
    [`quantity("70k") != quantity("50k").add(20000)`, true],
    [`quantity("50k").add(20000) in [quantity("70k")]`, true],
    [`quantity("70k") in [quantity("50k").add(20000)]`, false],
  ])('%s → %j (computed quantities on the right)', (expression, expected) => {
    expect(evaluate(expression)).toBe(expected);
  });

  it('a quantity equals no other type; with static types the comparison does not compile', () => {
    expect(evaluate(`dyn(quantity('1')) == 1`)).toBe(false);
    expect(compileError(`quantity('1') == 1`)).toMatch(/found no matching overload for '_==_' applied to '\(kubernetes.Quantity, int\)'/);
  });
});

describe('declarations', () => {
  it.each([
    [`isQuantity([1, 2, 3])`, /found no matching overload for 'isQuantity' applied to '\(list\(int\)\)'/],
    [`quantity('1').isLessThan(1)`, /found no matching overload for 'isLessThan' applied to 'kubernetes.Quantity.\(int\)'/],
    [`quantity('1').asInteger(1) == 1`, /found no matching overload for 'asInteger'/],
    [`quantity('1').mantissa == 1`, /undefined field 'mantissa'/],
  ])('%s does not compile', (expression, error) => {
    expect(compileError(expression)).toMatch(error);
  });

  it('type() of a quantity is kubernetes.Quantity', () => {
    expect(String(evaluate(`type(quantity('1'))`))).toBe('Type<kubernetes.Quantity>');
  });

  it('works on quantities from JSON data', () => {
    expect(
      evaluate(`quantity(object.limits.memory).isGreaterThan(quantity(object.requests.memory))`, { limits: { memory: '1Gi' }, requests: { memory: '512Mi' } }),
    ).toBe(true);
  });
});
