import { compileMatchConditions, loadCel } from '../../lib/cel';
import { createPod, errorOf, evaluateOne, pod } from './helpers';

beforeAll(loadCel);

// Values to call the functions on: literals would let the checker fix their types, fields keep them dyn.
const input = createPod(
  pod('web-1', 'default', {
    data: {
      text: '  Hello, World  ',
      csv: 'a,b,c',
      numbers: [3, 1, 2],
      sorted: [1, 2, 2, 5],
      ratios: [0.5, 1.5],
      words: ['b', 'a', 'c'],
      empty: [],
      big: [4611686018427387904, 4611686018427387904],
    },
  }),
);

describe('ext.Strings functions kube enables (version 2, pkg/cel/environment/base.go)', () => {
  it.each([
    "'HeLLo'.lowerAscii() == 'hello'",
    "'HeLLo'.upperAscii() == 'HELLO'",
    "object.data.text.trim() == 'Hello, World'",
    "object.data.csv.split(',') == ['a', 'b', 'c']",
    "object.data.csv.split(',', 2) == ['a', 'b,c']",
    "['a', 'b'].join('-') == 'a-b'",
    "'hello'.substring(1, 3) == 'el'",
    "'hello'.indexOf('l') == 2 && 'hello'.lastIndexOf('l') == 3",
    // Go strings.Replace: all occurrences, or the first n; an empty pattern matches around every rune.
    "object.data.csv.replace(',', ';') == 'a;b;c'",
    "object.data.csv.replace(',', ';', 1) == 'a;b,c'",
    "'ab'.replace('', '-') == '-a-b-'",
    "'héllo'.charAt(1) == 'é' && 'abc'.charAt(3) == ''",
    "'registry.local/app:1'.matches('^registry\\\\.local/')",
  ])('%s', (expression) => {
    expect(evaluateOne(expression, input)).toMatchObject({ matches: true });
  });

  it('charAt past the end is an error', () => {
    expect(errorOf("'abc'.charAt(4) == ''", input)).toBe('index out of range: 4');
  });
});

describe('Kubernetes lists library (k8s.io/apiserver/pkg/cel/library/lists.go)', () => {
  it.each([
    'object.data.sorted.isSorted() && !object.data.numbers.isSorted()',
    "['a', 'b', 'b', 'c'].isSorted() && !object.data.words.isSorted()",
    'object.data.numbers.sum() == 6 && object.data.ratios.sum() == 2.0',
    'object.data.empty.sum() == 0',
    'object.data.numbers.min() == 1 && object.data.numbers.max() == 3',
    "object.data.words.min() == 'a' && object.data.words.max() == 'c'",
    'object.data.sorted.indexOf(2) == 1 && object.data.sorted.lastIndexOf(2) == 2 && object.data.sorted.indexOf(7) == -1',
    // Heterogeneous equality: an int element equals the same double.
    'object.data.sorted.indexOf(5.0) == 3',
  ])('%s', (expression) => {
    expect(evaluateOne(expression, input)).toMatchObject({ matches: true });
  });

  it.each([
    ['object.data.empty.min() == 1', 'min called on empty list'],
    ['object.data.empty.max() == 1', 'max called on empty list'],
    ['object.data.big.sum() > 0', 'integer overflow'],
  ])('%s → %s', (expression, error) => {
    expect(errorOf(expression, input)).toBe(error);
  });

  it('sum is declared for numbers only, so a list of strings does not compile', () => {
    const result = compileMatchConditions([{ name: 'a', expression: "['a'].sum() == 'a'" }]);
    expect('errors' in result && result.errors[0]).toMatch(/found no matching overload for 'sum' applied to 'list\(string\)\.\(\)'/);
  });
});
