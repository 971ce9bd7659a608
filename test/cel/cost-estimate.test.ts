// The static cost estimate kube-apiserver makes of a CRD rule before it runs (cel-go checker/cost.go,
// k8s.io/apiserver pkg/cel/library/cost.go, sizes from pkg/cel/common/schemas.go). Each expected figure
// is worked out in the comment beside it from cel-go's rules: constants 0, a variable or a selection
// on an object or map 1, a call 1 unless its function says otherwise, a list literal 10, a map literal
// 30, a macro the fold it expands to with its loop body times the most elements its range can hold;
// a string of maxLength N holds up to 4N bytes, one without maxLength the whole request (3 MiB - 2).
import { loadCel } from '../../lib/cel';
import { estimateCost } from '../../lib/cel/cost/estimate';
import { maxArrayItems, maxCardinality, sizedType } from '../../lib/registry/crd/cel/rule-types';
import { ruleEnvironment } from '../../lib/registry/crd/cel/environment';
import { costErrorMessage, STATIC_ESTIMATED_COST_LIMIT } from '../../lib/registry/crd/cel/rule-cost';
import { structuralSchema } from '../../lib/registry/crd/structural';
import type { JsonObject } from '../../lib/kube/json';

beforeAll(loadCel);

/** The estimate of `expression` with `self` declared by `schema`. */
function estimate(expression: string, schema: JsonObject = { type: 'object' }) {
  const self = sizedType(structuralSchema(schema).root);
  return estimateCost(ruleEnvironment().env.parse(expression).ast, new Map([['self', self]]));
}

const tags = (maxItems: number | undefined, maxLength: number | undefined): JsonObject => ({
  type: 'array',
  ...(maxItems === undefined ? {} : { maxItems }),
  items: { type: 'string', ...(maxLength === undefined ? {} : { maxLength }) },
});

describe('static cost estimate', () => {
  it('sizes from the schema as kube declares them (schemas.go)', () => {
    // A string list without maxItems: (3,145,728 - 2) / (2 + 1) items of at least `""` and a comma.
    expect(maxArrayItems(2)).toBe(1_048_575);
    expect(sizedType(structuralSchema(tags(undefined, undefined)).root).maxElements).toBe(1_048_575);
    expect(sizedType(structuralSchema(tags(undefined, undefined)).root).elem?.maxElements).toBe(3_145_726);
    // maxLength 16 counts code points, up to 4 bytes each: 64.
    expect(sizedType(structuralSchema(tags(3, 16)).root).elem?.maxElements).toBe(64);
    // A rule under unbounded lists runs as often as its smallest JSON fits in a request: 3,145,728 / (2 + 1).
    expect(maxCardinality(2)).toBe(1_048_576);
  });

  it('costs literals, selections and comparisons', () => {
    // list literal 10 + size() 1 (its elements are constants: 0).
    expect(estimate('[1, 2, 3].size()')).toEqual({ min: 11, max: 11 });
    // map literal 30; its key and value constants 0.
    expect(estimate("{'a': 1}")).toEqual({ min: 30, max: 30 });
    // == on strings traverses the shorter: min(3, 3) × 0.1 rounded up = 1.
    expect(estimate("'abc' == 'abd'")).toEqual({ min: 1, max: 1 });
    // self 1 + .replicas 1; an integer field's declared size is 0, so == costs 0 (cel-go: min of the maxima).
    expect(estimate('self.replicas == 1', { type: 'object', properties: { replicas: { type: 'integer' } } })).toEqual({ min: 2, max: 2 });
    // has(): kube makes the presence test free, the operand `self` still costs 1.
    expect(estimate('has(self.a)', { type: 'object', properties: { a: { type: 'string' } } })).toEqual({ min: 1, max: 1 });
  });

  it('costs a regex by the string and pattern lengths, the string bounded by maxLength', () => {
    const name = (maxLength?: number): JsonObject => ({ type: 'object', properties: { name: { type: 'string', ...(maxLength ? { maxLength } : {}) } } });
    // self 1 + .name 1 + ceil((3,145,726 + 1) × 0.1) = 314,573 times ceil(8 × 0.25) = 2 → 629,148;
    // at least (an empty string) ceil(1 × 0.1) × 2 + 2 = 4.
    expect(estimate("self.name.matches('^[a-z]+$')", name())).toEqual({ min: 4, max: 629_148 });
    // maxLength 63 → 252 bytes: ceil(253 × 0.1) = 26 × 2 = 52, + 2 → 54; min with an empty string: ceil(1 × 0.1) × 2 + 2 = 4.
    expect(estimate("self.name.matches('^[a-z]+$')", name(63))).toEqual({ min: 4, max: 54 });
    // startsWith is charged its prefix's length (cel-go): ceil(2 × 0.1) = 1, + 2 → 3.
    expect(estimate("self.name.startsWith('ab')", name())).toEqual({ min: 3, max: 3 });
  });

  it('costs a macro as its fold: the body times the largest number of elements', () => {
    // all(): range self 1 + result 1; per element: condition 2 + step (__result__ 1 && x.contains('gpu')).
    // contains: ceil(64 × 0.1) = 7 × ceil(3 × 0.1) = 1 → 7, with x 1: the step is at most 1 + 8 = 9, the loop 11.
    // 909,090 × 11 + 2 = 9,999,992: the largest maxItems kube accepts with maxLength 16.
    expect(estimate("self.all(x, x.contains('gpu'))", tags(909_090, 16))).toEqual({ min: 2, max: 9_999_992 });
    // One more item: 909,091 × 11 + 2 = 10,000,003, past StaticEstimatedCostLimit.
    expect(estimate("self.all(x, x.contains('gpu'))", tags(909_091, 16)).max).toBe(10_000_003);
    expect(10_000_003).toBeGreaterThan(STATIC_ESTIMATED_COST_LIMIT);
    // exists(): range self.items 2 + result 1; per element: condition 3 + step (__result__ 1 || x == 'a').
    // x == 'a': x 1 + min(4, 1) × 0.1 → 1 = 2; loop at most 3 + 1 + 2 = 6 → 3 + 5 × 6 = 33; at least 3 (no element).
    const items = { type: 'object', properties: { items: tags(5, 1) } };
    expect(estimate("self.items.exists(x, x == 'a')", items)).toEqual({ min: 3, max: 33 });
    // filter(): range 2 + [] 10 + result 1; per element: n > 1 (n 1 + > 1 = 2) then keeps (1 + 1 + 10 + 1 = 13) or not (1).
    // 10 × (2 + 13) + 13 = 163; size() 1 → 164; == on two ints (size 1 each): ceil(0.1) = 1 → 165. At least 13 + 1 + 1 = 15.
    const nums = { type: 'object', properties: { nums: { type: 'array', maxItems: 10, items: { type: 'integer' } } } };
    expect(estimate('self.nums.filter(n, n > 1).size() == 0', nums)).toEqual({ min: 15, max: 165 });
  });

  it("costs cel-go's two-variable macros (ext/comprehensions.go) as their folds", () => {
    const labels = { type: 'object', properties: { labels: { type: 'object', maxProperties: 10, additionalProperties: { type: 'string', maxLength: 63 } } } };
    // all(k, v, …): range 2 + result 1; per entry: condition 2 + step (__result__ 1 && v.size() < 64: v 1 + size 1 + < 1 = 3).
    // 10 × 6 + 3 = 63; at least 3.
    expect(estimate('self.labels.all(k, v, v.size() < 64)', labels)).toEqual({ min: 3, max: 63 });
    // transformMap: range 2 + {} 30 + result 1; per entry cel.@mapInsert(__result__, k, f) 3 + f, where
    // f = v + 'x': v 1 + ceil((252 + 1) × 0.1) = 26 (at least ceil(1 × 0.1) = 1) → at most 30 per entry.
    // 10 × 30 + 33 = 333; at least 33.
    expect(estimate("self.labels.transformMap(k, v, v + 'x')", labels)).toEqual({ min: 33, max: 333 });
  });

  it("sizes a variable over a literal range as kube's estimator does: as self", () => {
    const name = { type: 'object', properties: { name: { type: 'string' } } };
    // cel-go gives x the path [@items], which kube's size estimator resolves to self (an object: size 0),
    // so self.name == x costs 0 of its own. Range [..] 10 + result 1; per element: condition 3 + step
    // (__result__ 1 || self.name == x: self 1 + .name 1 + x 1 + 0) → at most 7; 2 × 7 + 11 = 25.
    // At least: the literal holds exactly 2, each at least 3 + 1 (|| may stop after __result__): 11 + 8 = 19.
    expect(estimate("['ab', 'cd'].exists(x, self.name == x)", name)).toEqual({ min: 19, max: 25 });
    // With self a string of maxLength 50 (200 bytes), x is sized 200, not 1: == against 21 characters costs
    // ceil(min(200, 21) × 0.1) = 3, with x 1 → 4; per element 3 + 1 + 4 = 8; 2 × 8 + 11 = 27 (at least 19, as above).
    expect(estimate("['a', 'b'].exists(x, x == 'abcdefghijklmnopqrstu')", { type: 'string', maxLength: 50 })).toEqual({ min: 19, max: 27 });
  });

  it('makes a nested all() over an unbounded list cost far more than 100 times the limit, and a bounded one fit', () => {
    const spec = (list: JsonObject): JsonObject => ({ type: 'object', properties: { items: list } });
    const rule = 'self.items.all(x, self.items.all(y, x.matches(y)))';
    // 1,048,575 × 1,048,575 × (ceil(3,145,727 × 0.1) × ceil(3,145,726 × 0.25)): saturates.
    expect(estimate(rule, spec(tags(undefined, undefined))).max).toBeGreaterThan(100 * STATIC_ESTIMATED_COST_LIMIT);
    // 10 items of maxLength 10 (40 bytes): matches = ceil(41 × 0.1) × ceil(40 × 0.25) = 5 × 10 = 50, with x, y: 52.
    // Inner: 2 + 1 + 10 × (2 + 1 + 52) = 553. Outer: 2 + 1 + 10 × (2 + 1 + 553) = 5,563.
    expect(estimate(rule, spec(tags(10, 10)))).toEqual({ min: 3, max: 5_563 });
  });

  it("words the factor as validation.go's getCostErrorMessage does", () => {
    const tail = ' (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)';
    expect(costErrorMessage('estimated rule cost', 2_000_000_000, 10_000_000)).toBe(`estimated rule cost exceeds budget by factor of more than 100x${tail}`);
    // Between 1.5 and 100: one decimal (%.1f).
    expect(costErrorMessage('estimated rule cost', 56_623_104, 10_000_000)).toBe(`estimated rule cost exceeds budget by factor of 5.7x${tail}`);
    // Below 1.5: %f, six decimals.
    expect(costErrorMessage('estimated rule cost', 12_582_912, 10_000_000)).toBe(`estimated rule cost exceeds budget by factor of 1.258291x${tail}`);
  });
});
