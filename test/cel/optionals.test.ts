// Optional types as cel-go has them (cel/library.go optionalLib), beyond what cel-js brings:
// optional.ofNonZeroValue is none for each kind's zero value (traits.Zeroer `IsZeroValue`).
import { loadCel } from '../../lib/cel';
import { celValue } from '../../lib/cel/values';
import { valueOf } from './helpers';

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
