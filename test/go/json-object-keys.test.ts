import { jsonObjectKeys, mayRepeatMemberNames } from '../../lib/go/json-object-keys';

/*
 * The member names of a JSON text with sigs.k8s.io/json's strict-decoding paths (kubernetes-sigs/json
 * `UnmarshalStrict`: `a.b`, `a[0].b`, `[1].path` under a top-level array) and whether each repeats one.
 */
describe('jsonObjectKeys', () => {
  const repeats = (text: string) =>
    jsonObjectKeys(text)
      .filter((key) => key.repeated)
      .map((key) => key.path);

  it('names members by their path, in document order', () => {
    const keys = jsonObjectKeys('{"a": {"b": [1, {"c": null}, [{"d": true}]]}, "e": "}"}');
    expect(keys.map((key) => key.path)).toEqual(['a', 'a.b', 'a.b[1].c', 'a.b[2][0].d', 'e']);
    expect(keys.map((key) => key.parent)).toEqual(['', 'a', 'a.b[1]', 'a.b[2][0]', '']);
  });

  it('finds a repeat in any object, not across objects', () => {
    expect(repeats('{"a": 1, "b": {"a": 2}, "a": 3, "b": {"a": 4, "a": 5}}')).toEqual(['a', 'b', 'b.a']);
    expect(repeats('[{"op": "add", "path": "/a", "path": "/b"}, {"path": "/c"}]')).toEqual(['[0].path']);
  });

  it('reads escaped names as the decoder does, and strings holding braces or quotes as values', () => {
    expect(repeats('{"\\u0061": "{\\"a\\": 1}", "a": "x"}')).toEqual(['a']);
    expect(jsonObjectKeys('{"a\\"b": {}, "c": []}').map((key) => key.path)).toEqual(['a"b', 'c']);
  });

  it('has no members for a scalar or an empty object', () => {
    expect(jsonObjectKeys(' 42 ')).toEqual([]);
    expect(jsonObjectKeys('{ }')).toEqual([]);
  });
});

describe('mayRepeatMemberNames', () => {
  const check = (text: string) => mayRepeatMemberNames(text, JSON.parse(text));

  it('is true exactly when an object repeats a name, whatever the strings hold', () => {
    expect(check('{"a": 1, "b": {"a": 2}, "c": [{"a": 3}, {"a": 4}]}')).toBe(false);
    expect(check('{"a": {"x": 1}, "a": {"y": 2}}')).toBe(true);
    expect(check('[{"k": 1}, {"k": 2, "k": 3}]')).toBe(true);
    // Strings that look like members, escaped quotes and colons inside values do not count as names.
    expect(check('{"a": "\\"b\\": 1", "c": ["d:", "\\\\", ":"], "e" : "f"}')).toBe(false);
    expect(check('{"__proto__": {"x": 1}, "__proto__": 2}')).toBe(true);
  });

  it('remembers the text it checked last; for any other text without its value it cannot tell (true)', () => {
    check('{"a": 1}');
    expect(mayRepeatMemberNames('{"a": 1}')).toBe(false);
    expect(mayRepeatMemberNames('{"b": 1}')).toBe(true);
  });
});
