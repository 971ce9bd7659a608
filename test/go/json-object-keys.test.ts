import { jsonObjectKeys } from '../../lib/go/json-object-keys';

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
