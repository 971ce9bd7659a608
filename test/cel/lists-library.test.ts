// kube's list library (apiserver pkg/cel/library/lists.go) on every element type it declares: isSorted,
// min and max on its comparable types (int, uint, double, bool, duration, timestamp, string, bytes),
// sum on its summable ones (int, uint, double, duration), indexOf/lastIndexOf on any; compiled and run
// in the matchConditions environment.
import { loadCel } from '../../lib/cel';
import { issueOf, valueOf } from './helpers';

beforeAll(loadCel);

describe('lists library on uint and duration lists', () => {
  it.each([
    '[1u, 2u, 3u].sum() == 6u',
    '[1u, 3u, 2u].max() == 3u && [2u, 1u, 3u].min() == 1u',
    '[1u, 2u, 2u].isSorted() && ![2u, 1u].isSorted()',
    '[0u].filter(x, x > 5u).sum() == 0u',
    "[duration('1s'), duration('2m')].sum() == duration('121s')",
    "[duration('1h'), duration('1s'), duration('90m')].min() == duration('1s')",
    "[duration('1h'), duration('1s'), duration('90m')].max() == duration('90m')",
    "[duration('1s'), duration('1000ms'), duration('2s')].isSorted() && ![duration('2s'), duration('1s')].isSorted()",
    "[duration('1s'), duration('2s'), duration('1s')].indexOf(duration('1000ms')) == 0",
    "[duration('1s'), duration('2s'), duration('1s')].lastIndexOf(duration('1s')) == 2",
    "[duration('1s')].indexOf(duration('3s')) == -1",
    "[duration('0')].filter(d, d > duration('1s')).sum() == duration('0')",
    '[1u, 2u].indexOf(2u) == 1',
    "[timestamp('2024-01-02T00:00:00Z'), timestamp('2024-01-01T00:00:00Z')].min() == timestamp('2024-01-01T00:00:00Z')",
  ])('%s', (expression) => {
    expect(valueOf(expression)).toBe(true);
  });

  it('overflows as cel-go reports them', () => {
    expect(valueOf('[18446744073709551615u, 1u].sum() == 0u')).toEqual({ error: 'unsigned integer overflow' });
    expect(valueOf("[duration('2562047h'), duration('2562047h')].sum() == duration('0')")).toEqual({ error: 'integer overflow' });
  });

  it('element types lists.go does not declare are refused when compiled', () => {
    expect(issueOf("['a'].sum() == 'a'")?.split('\n')[0]).toBe("ERROR: <input>:1:10: found no matching overload for 'sum' applied to 'list(string).()'");
    expect(issueOf('[[1]].min() == [1]')?.split('\n')[0]).toBe("ERROR: <input>:1:10: found no matching overload for 'min' applied to 'list(list(int)).()'");
  });
});
