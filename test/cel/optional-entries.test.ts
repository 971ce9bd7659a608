// Optional entries in list and map literals, as kube-apiserver's CEL (cel-go with optional types, which
// its base environment enables everywhere) parses, checks, runs and charges them: `[a, ?b]` holds b's
// value only when the optional b has one, `{?'k': v}` holds 'k' only when v has a value
// (parser/parser.go, checker/checker.go `checkCreateList`/`checkCreateMap`, interpreter `evalList`/`evalMap`).
// Cases after cel-spec's tests/simple/testdata/optionals.textproto where kube agrees (it adds
// homogeneous aggregate literals).
import { loadCel } from '../../lib/cel';
import { parseAndCheck } from '../../lib/cel/compile';
import { estimateCost } from '../../lib/cel/cost/estimate';
import { matchConditionsEnvironment } from '../../lib/cel/environment';
import { evaluateProgram } from '../../lib/cel/evaluate';
import { celValue } from '../../lib/cel/values';
import { ruleEnvironment } from '../../lib/registry/crd/cel/environment';
import { sizedType } from '../../lib/registry/crd/cel/rule-types';
import { structuralSchema } from '../../lib/registry/crd/structural';
import { errorOf, evaluateOne, issueOf, valueOf } from './helpers';

beforeAll(loadCel);

describe('evaluation', () => {
  const object = celValue({ y: 'v', m: { a: 1 } });
  it.each([
    ['[?optional.of(1), 2] == [1, 2]', true],
    ['[?optional.none()] == []', true],
    ["{?'k': optional.none()} == {}", true],
    ['[1, ?optional.none(), 3]', [1n, 3n]],
    ['[?object.?y]', ['v']],
    ['[?object.?z]', []],
    ["{?'a': object.m.?a}", { a: 1n }],
    ["{?'a': object.m.?b}", {}],
    ["{'k': 1, ?'other': optional.of(2)}", { k: 1n, other: 2n }],
    // The `?` takes the whole element, a conditional included.
    ['[?true ? optional.of(1) : optional.none()]', [1n]],
    ['[?optional.of([?optional.of(1), ?optional.none()])]', [[1n]]],
    ['[[?optional.of(1)], [?optional.none()]]', [[1n], []]],
    ['size([?optional.of(1), ?optional.none()])', 1n],
    ['[?optional.of(1), ?optional.none(), ?optional.of(3)].map(e, e * 2)', [2n, 6n]],
    // optionals.textproto optional_chaining_12, 14, 15, 16.
    ["{?'nested_map': optional.ofNonZeroValue({?'map': {'c': {'dashed-index': 'goodbye'}}.?c})}", { nested_map: { map: { 'dashed-index': 'goodbye' } } }],
    ['[?{}.?c, ?optional.of(42), ?optional.none()]', [42n]],
    ["[?optional.ofNonZeroValue({'c': []}.?c.orValue(dyn({})))]", []],
    ["optional.ofNonZeroValue({?'nested_map': optional.ofNonZeroValue({?'map': optional.of({}).?c})}).hasValue()", false],
  ])('%s', (expression, expected) => {
    expect(valueOf(expression, { object })).toEqual(expected);
  });

  it('an empty optional removes an earlier entry of its key; a later entry replaces an earlier one (evalMap)', () => {
    expect(valueOf("{'k': 1, ?'k': optional.none()}")).toEqual({});
    expect(valueOf("{'k': 1, ?'k': optional.of(2)}")).toEqual({ k: 2n });
    expect(valueOf("{?'k': optional.of(1), 'k': 2}")).toEqual({ k: 2n });
  });

  it('an optional entry of a dyn value that is no optional is a runtime error (interpretable.go invalidOptional…Init)', () => {
    const object = celValue({ spec: { replicas: 3, ratio: 0.5, name: 'web', on: true, gone: null } });
    expect(valueOf('[?object.spec.replicas]', { object })).toEqual({ error: 'cannot initialize optional list element from non-optional value 3' });
    expect(valueOf('[?object.spec.ratio]', { object })).toEqual({ error: 'cannot initialize optional list element from non-optional value 0.5' });
    expect(valueOf('[?object.spec.gone]', { object })).toEqual({ error: 'cannot initialize optional list element from non-optional value NULL_VALUE' });
    expect(valueOf("{?'k': object.spec.name}", { object })).toEqual({ error: "cannot initialize optional entry 'k' from non-optional value web" });
    expect(valueOf('{?1: object.spec.on}', { object })).toEqual({ error: "cannot initialize optional entry '1' from non-optional value true" });
    expect(valueOf('[?object.spec.?replicas, ?object.spec.?missing]', { object })).toEqual([3n]);
  });
});

describe('compile errors (checker.go: an optional entry must be an optional_type)', () => {
  it.each([
    ['[?1]', "ERROR: <input>:1:3: expected type 'optional_type(int)' but found 'int'\n | [?1]\n | ..^"],
    ["[1, ?'a']", "ERROR: <input>:1:6: expected type 'optional_type(string)' but found 'string'\n | [1, ?'a']\n | .....^"],
    ["{'a': 1, ?'b': 2}", "ERROR: <input>:1:16: expected type 'optional_type(int)' but found 'int'\n | {'a': 1, ?'b': 2}\n | ...............^"],
    ["{?'a': [1]}", "ERROR: <input>:1:8: expected type 'optional_type(list(int))' but found 'list(int)'\n | {?'a': [1]}\n | .......^"],
    // The element's own position, as cel-go reports a call at its parenthesis.
    ["[?size('a')]", "ERROR: <input>:1:7: expected type 'optional_type(int)' but found 'int'\n | [?size('a')]\n | ......^"],
  ])('%s', (expression, issue) => {
    expect(issueOf(expression)).toBe(issue);
  });

  it('homogeneous aggregate literals (kube enables them) compare the types the optionals hold', () => {
    expect(issueOf("[?optional.of(1), 'a']")).toBe(
      "ERROR: <input>:1:19: expected type 'int' but found 'string'\n | [?optional.of(1), 'a']\n | ..................^",
    );
    expect(issueOf("{?'a': optional.of(1), 'b': 'x'}")).toBe(
      "ERROR: <input>:1:29: expected type 'int' but found 'string'\n | {?'a': optional.of(1), 'b': 'x'}\n | ............................^",
    );
    // optionals.textproto optional_chaining_13 mixes a map and a bool too; kube refuses such a literal.
    expect(issueOf("{?'a': optional.of({'b': 1}), 'c': true}")).toBe(
      "ERROR: <input>:1:36: expected type 'map(string, int)' but found 'bool'\n | {?'a': optional.of({'b': 1}), 'c': true}\n | ...................................^",
    );
    // Types in cel-go's spelling, as for any literal.
    expect(issueOf("[[1], ['a']]")).toBe("ERROR: <input>:1:7: expected type 'list(int)' but found 'list(string)'\n | [[1], ['a']]\n | ......^");
    // An empty optional's type takes the others'.
    expect(issueOf('[?optional.none(), 1, ?optional.of(2)]')).toBeUndefined();
  });

  it('`?` starts only a list element or a map key', () => {
    for (const [expression, column] of [
      ['[(?1)]', 3],
      ['f(?1)', 3],
      ['?1', 1],
      ["{'a': ?optional.of(1)}", 7],
      ['[??optional.of(1)]', 3],
    ] as const) {
      expect(issueOf(expression)).toMatch(new RegExp(`^ERROR: <input>:1:${column}: Unexpected token: QUESTION`));
    }
    expect(issueOf('[?]')).toMatch(/^ERROR: <input>:1:3: /);
    expect(issueOf('[1, ?]')).toMatch(/^ERROR: <input>:1:6: /);
  });
});

describe('inside a format() argument (exempt from homogeneous literals)', () => {
  it('an optional entry is checked and left out as anywhere else', () => {
    expect(valueOf("'%s'.format([[?dyn(optional.of(1)), ?dyn(optional.none())]])")).toBe('[1]');
    expect(valueOf("'%s'.format([{?'a': dyn(optional.of(1)), ?'b': dyn(optional.none())}])")).toBe('{"a":1}');
    expect(issueOf("'%s'.format([[?1]])")).toBe(
      "ERROR: <input>:1:16: expected type 'optional_type(int)' but found 'int'\n | '%s'.format([[?1]])\n | ...............^",
    );
  });

  it('the format validator reads an optional entry’s own type, as cel-go’s stringFormatChecker does', () => {
    expect(issueOf("'%s'.format([?optional.of('a')])")).toContain(
      'error during formatting: string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given optional_type',
    );
  });
});

describe('cost', () => {
  /** The cost of running `expression`, in cel-go's units. */
  function runtimeCost(expression: string, activation: Record<string, unknown> = {}): number {
    const checked = parseAndCheck(expression, matchConditionsEnvironment());
    if ('issue' in checked) throw new Error(checked.issue);
    return evaluateProgram(checked.program, activation, Number.MAX_SAFE_INTEGER).cost;
  }

  /** The static estimate with `self` declared by `schema`. */
  function estimate(expression: string, schema: object = { type: 'object' }) {
    return estimateCost(ruleEnvironment().env.parse(expression).ast, new Map([['self', sizedType(structuralSchema(schema as never).root)]]));
  }

  const strings = { type: 'object', properties: { a: { type: 'string', maxLength: 5 }, b: { type: 'string', maxLength: 5 } } };

  it.each([
    // list 10 (ListCreateBaseCost); optional.of 1; a literal 0.
    ['[?optional.of(1), 2]', 11],
    // optional.none() 1 (an absent entry is evaluated and charged all the same).
    ['[?optional.none()]', 11],
    // map 30 (MapCreateBaseCost); the key 0; optional.none() 1.
    ["{?'k': optional.none()}", 31],
    // object 1 and object.?y 1, twice.
    ['[?object.?y, ?object.?z]', 14],
    // map 30; object 1, .m 1, .?a 1.
    ["{?'a': object.m.?a}", 33],
    // two lists (11 and 10) and == on two lists of two (ceil(2 × 0.1) = 1).
    ['[?optional.of(1), 2] == [1, 2]', 22],
  ])('%s costs %d at run time, as its estimate', (expression, cost) => {
    expect(runtimeCost(expression, { object: celValue({ y: 'v', m: { a: 1 } }) })).toBe(cost);
  });

  it('the static estimate charges the same: the entries and the literal, whether or not an entry is present', () => {
    // `optional` names a function's namespace, which cel-go resolves when checking: the call alone costs 1.
    expect(estimate('optional.of(1)')).toEqual({ min: 1, max: 1 });
    expect(runtimeCost('optional.of(1)')).toBe(1);
    expect(estimate('[?optional.of(1), 2]')).toEqual({ min: 11, max: 11 });
    expect(estimate("{?'k': optional.none()}")).toEqual({ min: 31, max: 31 });
    // self 1 and .?a 1, twice, and the list 10.
    expect(estimate('[?self.?a, ?self.?b]', strings)).toEqual({ min: 14, max: 14 });
    expect(runtimeCost('[?object.?a, ?object.?b]', { object: celValue({ a: 'x' }) })).toBe(14);
    // map 30; self 1 and .?a 1.
    expect(estimate("{?'a': self.?a}", strings)).toEqual({ min: 32, max: 32 });
  });
});

describe('in a webhook matchCondition', () => {
  it('matches on a literal with optional entries; a non-optional dyn entry is the expression’s error', () => {
    expect(evaluateOne("[?object.metadata.?labels.?app, ?object.metadata.?labels.?team] == ['web']").matches).toBe(true);
    expect(errorOf('[?object.spec.replicas].size() == 1')).toBe('cannot initialize optional list element from non-optional value 3');
  });
});
