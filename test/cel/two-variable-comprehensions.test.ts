// cel-go's two-variable comprehensions (ext/comprehensions.go), which kube-apiserver enables from 1.32
// (k8s.io/apiserver pkg/cel/environment/base.go): semantics from the library's documentation, error
// texts from its macros and from cel-go's checker.
import { loadCel } from '../../lib/cel';
import { parseAndCheck } from '../../lib/cel/compile';
import { matchConditionsEnvironment } from '../../lib/cel/environment';
import { evaluateProgram } from '../../lib/cel/evaluate';
import { celValue } from '../../lib/cel/values';
import { issueOf, valueOf } from './helpers';

beforeAll(loadCel);

describe('two-variable comprehensions', () => {
  it.each([
    ['[1, 2, 3].all(i, v, i < v)', true],
    ["{'hello': 'world', 'taco': 'taco'}.all(k, v, k != v)", false],
    ["{'h': ['hello', 'hi'], 'j': ['joke', 'jog']}.all(k, vals, vals.all(v, v.startsWith(k)))", true],
    ["{'greeting': 'hello', 'farewell': 'goodbye'}.exists(k, v, k.startsWith('good') || v.endsWith('bye'))", true],
    ['[1, 2, 4, 8, 16].exists(i, v, v == 1024 && i == 10)', false],
    ['[1, 2, 1, 3, 1, 4].existsOne(i, v, i == 1 || v == 1)', false],
    ['[1, 1, 2, 2, 3, 3].existsOne(i, v, i == 2 && v == 2)', true],
    ["{'i': 0, 'j': 1, 'k': 2}.exists_one(i, v, i == 'l' || v == 1)", true],
    ['[].all(i, v, false)', true],
    ['[].exists(i, v, true)', false],
  ])('%s is %s', (expression, expected) => {
    expect(valueOf(expression)).toBe(expected);
  });

  it.each([
    ['[1, 2, 3].transformList(i, v, (i * v) + v)', [1n, 4n, 9n]],
    ['[1, 2, 3].transformList(i, v, i % 2 == 0, (i * v) + v)', [1n, 9n]],
    ["{'greeting': 'hello', 'farewell': 'goodbye'}.transformList(k, _, k)", ['greeting', 'farewell']],
    ["{'greeting': 'hello', 'farewell': 'goodbye'}.transformList(_, v, v)", ['hello', 'goodbye']],
    ["{'greeting': 'hello'}.transformMap(k, v, v + '!')", { greeting: 'hello!' }],
    ["{'greeting': 'hello'}.transformMapEntry(k, v, {v: k})", { hello: 'greeting' }],
    ["{'a': 1, 'b': 2, 'c': 3}.transformMap(k, v, v > 1, v * 10)", { b: 20n, c: 30n }],
  ])('%s', (expression, expected) => {
    expect(valueOf(expression)).toEqual(expected);
  });

  it('transformMap over a list keys the result by index', () => {
    expect(valueOf('[1, 2, 3].transformMap(i, v, (i * v) + v)')).toEqual(
      new Map([
        [0n, 1n],
        [1n, 4n],
        [2n, 9n],
      ]),
    );
    expect(valueOf('[1, 2, 3].transformMap(i, v, i % 2 == 0, (i * v) + v) == {0: 1, 2: 9}')).toBe(true);
  });

  it('ranges over JSON data: a label map and a container list', () => {
    const object = celValue({ metadata: { labels: { app: 'web', tier: 'front' } }, spec: { containers: [{ name: 'a' }, { name: 'b' }] } });
    expect(valueOf("object.metadata.labels.all(k, v, k.size() <= 63 && v != '')", { object })).toBe(true);
    expect(valueOf("object.metadata.labels.transformList(k, v, k + '=' + v)", { object })).toEqual(['app=web', 'tier=front']);
    expect(valueOf('object.spec.containers.transformMapEntry(i, c, {c.name: i})', { object })).toEqual({ a: 0n, b: 1n });
    expect(valueOf('object.spec.containers.exists(i, c, i == 1 && c.name == "b")', { object })).toBe(true);
  });

  it('a range that is not a list or map at run time is an error (interpreter evalFold)', () => {
    const object = celValue({ replicas: 3, name: 'web' });
    expect(valueOf('object.replicas.all(k, v, true)', { object })).toEqual({ error: "got 'types.Int', expected iterable type" });
    expect(valueOf('object.name.transformList(k, v, v)', { object })).toEqual({ error: "got 'types.String', expected iterable type" });
  });

  it('a duplicate key from transformMapEntry is an error (cel-go mutableMap.Insert)', () => {
    expect(valueOf("{'greeting': 'aloha', 'farewell': 'aloha'}.transformMapEntry(k, v, {v: k})")).toEqual({
      error: 'insert failed: key aloha already exists',
    });
  });

  it('all and exists absorb an error the deciding element outweighs, as && and || do; existsOne does not', () => {
    expect(valueOf('[0, 1].exists(i, v, 1 / v > 0)')).toBe(true);
    expect(valueOf('[0, 1].all(i, v, 1 / v < 0)')).toBe(false);
    expect(valueOf('[0, 1].all(i, v, 1 / v > 0)')).toEqual({ error: 'division by zero' });
    expect(valueOf('[1, 0].exists(i, v, 1 / v < 0)')).toEqual({ error: 'division by zero' });
    expect(valueOf('[0, 1].existsOne(i, v, 1 / v > 0)')).toEqual({ error: 'division by zero' });
  });

  it.each([
    ['[1, 2].all(i.j, v, true)', 'ERROR: <input>:1:14: argument must be a simple name\n | [1, 2].all(i.j, v, true)\n | .............^'],
    ['1.all(i, v, true)', "ERROR: <input>:1:1: expression of type 'int' cannot be range of a comprehension (must be list, map, or dynamic)"],
    ['[1, 2].all(i, v, v)', "found no matching overload for '_&&_' applied to '(bool, int)'"],
    ['[1, 2].exists(i, v, v)', "found no matching overload for '_||_' applied to '(bool, int)'"],
  ])('%s is refused when compiled', (expression, issue) => {
    expect(issueOf(expression)).toContain(issue);
  });

  it('the variables are typed: an index is an int, a map value its declared type', () => {
    expect(issueOf("[1, 2].all(i, v, i == 'a')")).toContain("found no matching overload for '_==_' applied to '(int, string)'");
    expect(issueOf("{'a': 1}.all(k, v, v == 'a')")).toContain("found no matching overload for '_==_' applied to '(int, string)'");
    expect(issueOf('[1, 2].transformList(i, v, v) == [1, 2]')).toBeUndefined();
  });

  it('each evaluation of the same program starts afresh, and nests with the one-variable forms', () => {
    const checked = parseAndCheck('object.transformMap(k, v, v.filter(x, x > k.size()))', matchConditionsEnvironment());
    if ('issue' in checked) throw new Error(checked.issue);
    const run = (object: unknown) => evaluateProgram(checked.program, { object: celValue(object) });
    expect(run({ ab: [1, 2, 3] })).toMatchObject({ value: { ab: [3n] } });
    expect(run({ a: [0, 5] })).toMatchObject({ value: { a: [5n] } });
  });

  // The hidden steps of cel-go's two-variable folds cost as the one-variable ones do (interpreter/runtimecost.go).
  it.each([
    ['[1, 2, 3].all(i, v, v > 0)', 26], // list 10; 3 × (condition 2 + read 1 + v 1 + _>_ 1); result 1
    ['[1, 2, 3].exists(i, v, v == 2)', 26], // list 10; 2 × (condition 3 + read 1 + 2); one more condition 3; result 1
    ['[1, 2, 3].existsOne(i, v, v == 2)', 22], // list 10; 3 × (2 + read 1) + 1 add; result 2
    ['[1, 2, 3].transformList(i, v, v * 2)', 63], // list 10; init [] 10; 3 × (read 1 + [..] 10 + add 1 + 2); result 1
    ["{'a': 1}.transformMap(k, v, v)", 65], // map 30; init {} 30; read 1 + k 1 + insert 1 + v 1; result 1
  ])('%s costs %d', (expression, expected) => {
    const checked = parseAndCheck(expression, matchConditionsEnvironment());
    if ('issue' in checked) throw new Error(checked.issue);
    expect(evaluateProgram(checked.program, {}, Number.MAX_SAFE_INTEGER)).toMatchObject({ cost: expected });
  });

  it('the per-call limit stops a two-variable comprehension midway', () => {
    const checked = parseAndCheck('lists.range(1000).all(i, v, i == v)', matchConditionsEnvironment());
    if ('issue' in checked) throw new Error(checked.issue);
    expect(evaluateProgram(checked.program, {}, 100)).toMatchObject({ error: 'operation cancelled: actual cost limit exceeded' });
  });
});
