import { goFormatG } from '../../lib/go/format-float';
import { badValue } from '../../lib/registry/crd/openapi/go-values';

describe('Go value printing in CRD validation errors', () => {
  it('prints float64 as fmt %v does (shortest %g, exponent from 1e+06 and below 1e-04)', () => {
    expect([1e6, 1234567.5, 123456, 0.0001, 0.00001, 2.5, -0.5, 1e21, 1.5e-7].map(goFormatG)).toEqual([
      '1e+06',
      '1.2345675e+06',
      '123456',
      '0.0001',
      '1e-05',
      '2.5',
      '-0.5',
      '1e+21',
      '1.5e-07',
    ]);
  });

  it('renders bad values: strings quoted, int64 bare, maps as JSON with sorted keys', () => {
    expect(badValue('a')).toBe('a');
    expect(badValue(3)).toBe(3);
    expect(badValue(2.5)).toEqual({ marshaled: '2.5' });
    expect(badValue({ b: 1, a: [{ d: 1, c: 2 }] })).toEqual({ marshaled: '{"a":[{"c":2,"d":1}],"b":1}' });
    expect(badValue(null)).toBeNull();
  });
});
