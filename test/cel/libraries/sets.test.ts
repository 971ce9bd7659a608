import { loadCel } from '../../../lib/cel';
import { compileError, evaluate } from './helpers';

beforeAll(loadCel);

// cel-go ext/sets.go, which kube enables from 1.29 (pkg/cel/environment/base.go).
describe('sets: godoc examples of ext/sets.go', () => {
  it.each([
    ['sets.contains([], [])', true],
    ['sets.contains([], [1])', false],
    ['sets.contains([1, 2, 3, 4], [2, 3])', true],
    ['sets.equivalent([], [])', true],
    ['sets.equivalent([1], [1, 1])', true],
    ['sets.intersects([1], [])', false],
    ['sets.intersects([1], [1, 2])', true],
  ])('%s → %j', (expression, expected) => {
    expect(evaluate(expression)).toBe(expected);
  });

  // The godoc's mixed-type examples are list literals of several element types, which kube's
  // HomogeneousAggregateLiterals rejects; with dyn elements (as JSON data has) they hold.
  it.each([
    ['sets.contains([1, 2.0, 3u], [1.0, 2u, 3])', "expected type 'int' but found 'double'"],
    ['sets.equivalent([1], [1u, 1.0])', "expected type 'uint' but found 'double'"],
    ['sets.equivalent([1, 2, 3], [3u, 2.0, 1])', "expected type 'uint' but found 'double'"],
    ['sets.intersects([[1], [2, 3]], [[1, 2], [2, 3.0]])', "expected type 'int' but found 'double'"],
  ])('%s does not compile with homogeneous literals', (expression, error) => {
    expect(compileError(expression)).toContain(error);
  });

  it.each([
    ['sets.contains([dyn(1), dyn(2.0), dyn(3u)], [dyn(1.0), dyn(2u), dyn(3)])', true],
    ['sets.equivalent([dyn(1)], [dyn(1u), dyn(1.0)])', true],
    ['sets.equivalent([dyn(1), dyn(2), dyn(3)], [dyn(3u), dyn(2.0), dyn(1)])', true],
    ['sets.intersects([[dyn(1)], [dyn(2), dyn(3)]], [[dyn(1), dyn(2)], [dyn(2), dyn(3.0)]])', true],
  ])('%s → %j', (expression, expected) => {
    expect(evaluate(expression)).toBe(expected);
  });
});

describe('sets: CEL equality on lists of the same element type', () => {
  it.each([
    ['sets.contains(object.roles, ["admin"])', true],
    ['sets.intersects(object.roles, ["root", "view"])', true],
    ['sets.equivalent(object.roles, ["view", "admin", "view"])', true],
    ['sets.contains(object.ports, [443, 80])', true],
    ['sets.contains(object.ports, [8080])', false],
    ['sets.contains(object.maps, [{"a": 1}])', true],
    ['sets.contains(object.maps, [{"a": 2}])', false],
    ['sets.contains([quantity("1Ki")], [quantity("1024")])', true],
    ['sets.intersects([url("https://e.com/a b")], [url("https://e.com/a%20b")])', true],
    ['sets.contains([1.0], [dyn(double("NaN"))])', false],
    // JSON lists whose elements are of several kinds.
    ['sets.contains(object.mixed, object.ports)', true],
    ['sets.intersects(object.ports, [dyn(443.0)])', true],
  ])('%s → %j', (expression, expected) => {
    expect(evaluate(expression, { roles: ['admin', 'view'], ports: [80, 443], maps: [{ a: 1 }], mixed: [0.5, 80, 443] })).toBe(expected);
  });

  it('both lists share the element type T', () => {
    expect(compileError('sets.contains([1], ["a"])')).toMatch(/found no matching overload for 'sets.contains' applied to '\(list\(int\), list\(string\)\)'/);
    expect(compileError('sets.contains([1], 1)')).toMatch(/found no matching overload for 'sets.contains' applied to '\(list\(int\), int\)'/);
  });
});
