import { conditionHolds } from '../../lib/stub/respond';

describe('stub conditions', () => {
  const object = { metadata: { labels: { a: '1' } }, spec: { pair: { x: 1, y: 2 } } };

  it.each([
    [{ pointer: '/metadata/labels/a', exists: true }, true],
    [{ pointer: '/metadata/labels/b', exists: false }, true],
    [{ pointer: '/metadata/labels/a', equals: '1' }, true],
    [{ pointer: '/spec/pair', equals: { y: 2, x: 1 } }, true],
    [{ pointer: '/metadata/labels/b', notEquals: 'x' }, true],
    [{ pointer: '/metadata/labels/a', notEquals: '1' }, false],
    [
      {
        all: [
          { pointer: '/metadata/labels/a', exists: true },
          { pointer: '/spec/pair/x', equals: 2 },
        ],
      },
      false,
    ],
  ])('%j → %s', (condition, expected) => {
    expect(conditionHolds(condition, object)).toBe(expected);
  });
});
