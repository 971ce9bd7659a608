import { compileSelector, SelectorError } from '../../lib/kube/label-selector';

describe('label selectors (apimachinery LabelSelectorAsSelector)', () => {
  it.each([
    [{}, {}, true],
    [{}, undefined, true],
    [{ matchLabels: { app: 'web' } }, { app: 'web', env: 'prod' }, true],
    [{ matchLabels: { app: 'web' } }, { app: 'api' }, false],
    [{ matchLabels: { app: 'web' } }, undefined, false],
    [{ matchExpressions: [{ key: 'env', operator: 'In', values: ['prod', 'staging'] }] }, { env: 'staging' }, true],
    [{ matchExpressions: [{ key: 'env', operator: 'In', values: ['prod'] }] }, {}, false],
    [{ matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['prod'] }] }, {}, true],
    [{ matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['prod'] }] }, { env: 'prod' }, false],
    [{ matchExpressions: [{ key: 'legacy', operator: 'Exists' }] }, { legacy: '' }, true],
    [{ matchExpressions: [{ key: 'legacy', operator: 'DoesNotExist' }] }, { legacy: '' }, false],
    [{ matchLabels: { a: '1' }, matchExpressions: [{ key: 'b', operator: 'Exists' }] }, { a: '1' }, false],
  ])('%j on %j → %s', (selector, labels, expected) => {
    expect(compileSelector(selector).matches(labels)).toBe(expected);
  });

  it('a null selector matches nothing', () => {
    const none = compileSelector(null);
    expect(none.nothing).toBe(true);
    expect(none.matches({ any: 'thing' })).toBe(false);
  });

  it('prints the selector as apimachinery does, requirements sorted by key', () => {
    const selector = compileSelector({
      matchLabels: { tier: 'front' },
      matchExpressions: [
        { key: 'env', operator: 'In', values: ['staging', 'prod'] },
        { key: 'legacy', operator: 'DoesNotExist' },
        { key: 'app', operator: 'Exists' },
        { key: 'zone', operator: 'NotIn', values: ['b', 'a'] },
      ],
    });
    expect(selector.text).toBe('app,env in (prod,staging),!legacy,tier=front,zone notin (a,b)');
  });

  it.each([
    [{ matchExpressions: [{ key: 'a', operator: 'Equals', values: ['x'] }] }, /"Equals" is not a valid label selector operator/],
    [{ matchExpressions: [{ key: 'a', operator: 'In', values: [] }] }, /values set can't be empty/],
    [{ matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] }, /values set must be empty/],
    [{ matchLabels: { 'bad key!': 'x' } }, /key: Invalid value: "bad key!"/],
    [{ matchLabels: { a: 'bad value!' } }, /Invalid value: "bad value!"/],
  ])('rejects %j', (selector, message) => {
    expect(() => compileSelector(selector)).toThrow(SelectorError);
    expect(() => compileSelector(selector)).toThrow(message);
  });
});

describe('selector errors name the failing value', () => {
  it('reports the index of the invalid value', () => {
    expect(() => compileSelector({ matchExpressions: [{ key: 'a', operator: 'In', values: ['ok', 'bad value!'] }] })).toThrow(
      /^values\[1\]: Invalid value: "bad value!"/,
    );
  });

  it('gives the same compiled selector for the same object', () => {
    const selector = { matchLabels: { app: 'web' } };
    expect(compileSelector(selector)).toBe(compileSelector(selector));
  });
});
