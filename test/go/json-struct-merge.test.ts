import { goDecodeInto, goDecodeJson, parseIntoStruct } from '../../lib/go/json-struct-merge';

/*
 * A repeated member as Go's decoder reads it into a struct (encoding/json `object`/`array`, kept by
 * sigs.k8s.io/json): the later value decoded into what the earlier one left.
 */
describe('parseIntoStruct', () => {
  it('parses JSON as JSON.parse does when nothing repeats', () => {
    const text = '{"a": [1, "two", {"b": null}], "c": {"d": true}, "e": -1.5e3, "\\u00e9": "\\n"}';
    expect(parseIntoStruct(text)).toEqual(JSON.parse(text));
    expect(parseIntoStruct(' 7 ')).toBe(7);
  });

  it('merges a repeated object member by member, at every depth', () => {
    const text = '{"metadata": {"name": "a", "labels": {"x": "1"}}, "metadata": {"labels": {"y": "2"}, "name": "b"}}';
    expect(parseIntoStruct(text)).toEqual({ metadata: { name: 'b', labels: { x: '1', y: '2' } } });
  });

  it('merges a repeated array element by element, taking the later length', () => {
    const text = '{"c": [{"name": "a", "image": "x"}, {"name": "b"}], "c": [{"name": "z"}]}';
    expect(parseIntoStruct(text)).toEqual({ c: [{ name: 'z', image: 'x' }] });
    expect(goDecodeInto([1, 2], [3, 4, 5])).toEqual([3, 4, 5]);
  });

  it('replaces a scalar, and an object by a scalar; keeps __proto__ an own member', () => {
    expect(parseIntoStruct('{"a": {"b": 1}, "a": "s", "n": 1, "n": 2}')).toEqual({ a: 's', n: 2 });
    const parsed = parseIntoStruct('{"__proto__": {"x": 1}}') as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
  });

  it('throws on a text cut short instead of reading past its end', () => {
    expect(() => parseIntoStruct('{"a": "b')).toThrow(SyntaxError);
  });
});

describe('goDecodeJson', () => {
  it('merges a repeated member only into a struct (typed); into a map the last value is kept', () => {
    const text = '{"spec": {"a": 1}, "spec": {"b": 2}}';
    expect(goDecodeJson(text, true)).toEqual({ spec: { a: 1, b: 2 } });
    expect(goDecodeJson(text, false)).toEqual({ spec: { b: 2 } });
    expect(goDecodeJson('{"spec": {"a": 1}}', true)).toEqual({ spec: { a: 1 } });
  });

  it('throws JSON.parse’s SyntaxError for a text that is not JSON', () => {
    expect(() => goDecodeJson('{"a": ', true)).toThrow(SyntaxError);
  });
});
