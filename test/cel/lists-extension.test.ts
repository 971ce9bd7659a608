// cel-go's lists extension (ext/lists.go, version 3) in the matchConditions environment: semantics and
// error texts from its documentation and source.
import { loadCel } from '../../lib/cel';
import { celValue } from '../../lib/cel/values';
import { parseAndCheck } from '../../lib/cel/compile';
import { matchConditionsEnvironment } from '../../lib/cel/environment';
import { evaluateProgram } from '../../lib/cel/evaluate';
import { issueOf, valueOf } from './helpers';

beforeAll(loadCel);

describe('ext.Lists', () => {
  it.each([
    ['lists.range(4)', [0n, 1n, 2n, 3n]],
    ['lists.range(0)', []],
    ['lists.range(-2)', []],
    ['[1, 2, 3, 4].slice(1, 3)', [2n, 3n]],
    ['[1, 2].slice(2, 2)', []],
    ['[[1, 2], [3]].flatten()', [1n, 2n, 3n]],
    ['[[[1]], [[2, 3]]].flatten()', [[1n], [2n, 3n]]],
    ['[1, 2, 3].reverse()', [3n, 2n, 1n]],
    ['[3, 1, 2].sort()', [1n, 2n, 3n]],
    ["['b', 'a', 'c'].sort()", ['a', 'b', 'c']],
    ['[1, 2, 1, 3, 2].distinct()', [1n, 2n, 3n]],
    ["['a', 'b', 'a'].distinct()", ['a', 'b']],
  ])('%s', (expression, expected) => {
    expect(valueOf(expression)).toEqual(expected);
  });

  it('flatten(depth) on JSON data of mixed depths, and distinct keeping the first of equal elements', () => {
    const object = celValue({ nested: [1, [2, [3, [4]]]], numbers: [1, 1.5, 2, 1.5, 1] });
    expect(valueOf('object.nested.flatten(2)', { object })).toEqual([1n, 2n, 3n, [4n]]);
    expect(valueOf('object.nested.flatten(0)', { object })).toEqual([1n, [2n, [3n, [4n]]]]);
    expect(valueOf('object.numbers.distinct()', { object })).toEqual([1n, 1.5, 2n]);
    expect(valueOf('object.numbers.distinct().size() == 3 && [1, 2].distinct() == [1, 2]', { object })).toBe(true);
  });

  it('sort and reverse give values CEL compares as lists', () => {
    expect(valueOf("[duration('2s'), duration('1s')].sort() == [duration('1s'), duration('2s')]")).toBe(true);
    expect(valueOf('lists.range(3).reverse() == [2, 1, 0]')).toBe(true);
  });

  it.each([
    ['[1, 2].slice(-1, 1)', 'cannot slice(-1, 1), negative indexes not supported'],
    ['[1, 2].slice(2, 1)', 'cannot slice(2, 1), start index must be less than or equal to end index'],
    ['[1, 2].slice(0, 3)', 'cannot slice(0, 3), list is length 2'],
    ['[[1]].flatten(-1)', 'level must be non-negative'],
  ])('%s fails: %s', (expression, error) => {
    expect(valueOf(expression)).toEqual({ error });
  });

  it('sort is declared on comparable element types only', () => {
    expect(issueOf('[[1], [2]].sort() == [[1]]')?.split('\n')[0]).toBe(
      "ERROR: <input>:1:16: found no matching overload for 'sort' applied to 'list(list(int)).()'",
    );
  });

  describe('sortBy (version 2, a macro: list.@sortByAssociatedKeys(list.map(e, key)))', () => {
    it.each([
      ['[3, 1, 2].sortBy(x, x)', [1n, 2n, 3n]],
      ['[3, 1, 2].sortBy(x, -x)', [3n, 2n, 1n]],
      ["['bb', 'a', 'ccc'].sortBy(s, s.size())", ['a', 'bb', 'ccc']],
      [
        "[timestamp('2024-01-01T00:00:00Z'), timestamp('2023-01-01T00:00:00Z')].sortBy(t, t) == [timestamp('2023-01-01T00:00:00Z'), timestamp('2024-01-01T00:00:00Z')]",
        true,
      ],
      ['[].sortBy(x, x)', []],
    ])('%s', (expression, expected) => {
      expect(valueOf(expression)).toEqual(expected);
    });

    it('sorts JSON objects by a field, equal keys keeping their order', () => {
      const object = celValue({
        containers: [
          { name: 'c', port: 80 },
          { name: 'a', port: 443 },
          { name: 'b', port: 80 },
        ],
      });
      expect(valueOf('object.containers.sortBy(c, c.name).map(c, c.name)', { object })).toEqual(['a', 'b', 'c']);
      expect(valueOf('object.containers.sortBy(c, c.port).map(c, c.name)', { object })).toEqual(['c', 'b', 'a']);
    });

    it('costs what its expansion costs in cel-go: a binding fold around a map fold and the sorting call', () => {
      // [] 10 for the binding; the list 10; two reads of the bound list 2; map: [] 10, 3 × (read 1 + [..] 10
      // + add 1 + x 1), result 1; @sortByAssociatedKeys 1.
      const checked = parseAndCheck('[3, 1, 2].sortBy(x, x)', matchConditionsEnvironment());
      if ('issue' in checked) throw new Error(checked.issue);
      expect(evaluateProgram(checked.program, {}, Number.MAX_SAFE_INTEGER)).toMatchObject({ cost: 73 });
    });

    it('keys of different types at run time are an error', () => {
      const object = celValue({ items: [{ k: 1 }, { k: 'a' }] });
      expect(valueOf('object.items.sortBy(i, i.k)', { object })).toEqual({ error: 'list elements must have the same type' });
      expect(valueOf('object.items.sortBy(i, i)', { object })).toEqual({ error: 'list elements must be comparable' });
    });

    it.each([
      ['[1, 2].sortBy(x, [x])', "found no matching overload for '@sortByAssociatedKeys' applied to 'list(int).(list(list(int)))'"],
      ['[1].sortBy(x.y, x)', 'argument is not an identifier'],
      ['1.sortBy(x, x)', 'sortBy can only be applied to a list, identifier, comprehension, call or select expression'],
    ])('%s is refused when compiled', (expression, issue) => {
      expect(issueOf(expression)).toContain(issue);
    });
  });
});
