// Runtime cost, unit by unit, as cel-go's interpreter/runtimecost.go and k8s.io/apiserver
// pkg/cel/library/cost.go count it: each expected figure is worked out in the comment beside it from
// those rules (constants 0, a variable or selection 1, a call 1 unless its function says otherwise, a
// list literal 10, a map literal 30, and the hidden steps of the fold a macro expands to).
import { loadCel } from '../../lib/cel';
import { parseAndCheck } from '../../lib/cel/compile';
import { PER_CALL_LIMIT } from '../../lib/cel/cost/limits';
import { matchConditionsEnvironment, policyEnvironment } from '../../lib/cel/environment';
import { evaluateProgram } from '../../lib/cel/evaluate';

beforeAll(loadCel);

function costOf(expression: string, activation: Record<string, unknown> = {}, limit = Number.MAX_SAFE_INTEGER) {
  const checked = parseAndCheck(expression, matchConditionsEnvironment());
  if ('issue' in checked) throw new Error(checked.issue);
  return evaluateProgram(checked.program, activation, limit);
}

const object = (data: Record<string, string>) => ({ object: { data } });

describe('runtime cost of CEL expressions (cel-go interpreter/runtimecost.go)', () => {
  it.each([
    ["'a' + 'b' == 'ab'", 2], // _+_ on strings: ceil((1+1)×0.1) = 1; _==_: ceil(min(2,2)×0.1) = 1
    ["size('hello')", 1], // a call: 1
    ['2 in [1, 2, 3]', 13], // list literal 10; @in over a list: its size, 3
    ["{'a': 1}.a", 31], // map literal 30; a selection 1
    ['[1, 2, 3].all(x, x > 0)', 26], // list 10; 3 × (condition 2 + read 1 + x 1 + _>_ 1); result 1
    ['[1, 2, 3].exists(x, x == 2)', 26], // list 10; 2 × (condition 3 + read 1 + 2); one more condition 3; result 1
    ['[1, 2, 3].exists_one(x, x == 2)', 22], // list 10; 3 × (2 + read 1) + 1 add; result __result__ == 1: 2
    ['[1, 2, 3].map(x, x * 2)', 63], // list 10; init [] 10; 3 × (read 1 + [..] 10 + add 1 + x 1 + _*_ 1); result 1
    ['[1, 2, 3].filter(x, x > 1)', 54], // list 10; init 10; 3 × 2 for the predicate; 2 kept × 13; 1 dropped × 1; result 1
    ["'hello'.startsWith('he')", 1], // ceil(5 × 0.1)
    ["'abcdefghijklmnopqrstuvwxyz'.contains('xyz')", 3], // ceil(26 × 0.1) × ceil(3 × 0.1)
    ["'abc'.matches('b')", 1], // ceil((1+3) × 0.1) × ceil(1 × 0.25)
  ])('%s costs %d', (expression, expected) => {
    expect(costOf(expression)).toMatchObject({ cost: expected });
  });

  it('has() costs one per field selected, the last being the test', () => {
    expect(costOf('has(object.spec.x)', { object: { spec: {} } })).toEqual({ value: false, cost: 3 });
  });

  it('matches over a large string: the string (plus one) at 0.1 a character, times the pattern at 0.25', () => {
    const pattern = '^(a|b|c|d|e|f|g|h|i|j|k|l|m|n|o|p|q|r|s|t)+z$'; // 45 characters: ceil(45 × 0.25) = 12
    const expression = `object.data.all(k, !object.data[k].matches('${pattern}'))`;
    // One key: object.data 2; condition 2; read 1; object.data[k] 4; matches ceil(1001 × 0.1) × 12; _!_ 1; result 1.
    const small = costOf(expression, object({ big: 'a'.repeat(1000) }));
    expect(small).toEqual({ value: true, cost: 2 + 2 + 1 + 4 + 101 * 12 + 1 + 1 });
    // One million characters: 100 001 × 12 passes PerCallLimit, and the evaluation is cancelled.
    expect(costOf(expression, object({ big: 'a'.repeat(1_000_000) }), PER_CALL_LIMIT)).toMatchObject({
      error: 'operation cancelled: actual cost limit exceeded',
    });
  });

  it('a cancelled evaluation stays cancelled even where || would absorb an error', () => {
    const expression = "object.data.big.matches('^(a|b|c|d|e|f|g|h|i|j|k|l|m|n|o|p|q|r|s|t)+z$') || true";
    expect(costOf(expression, object({ big: 'a'.repeat(1_000_000) }), PER_CALL_LIMIT)).toMatchObject({
      error: 'operation cancelled: actual cost limit exceeded',
    });
  });

  it('Kubernetes library functions cost what library/cost.go says: check() 350 000, a quantity a traversal', () => {
    const env = policyEnvironment({ params: false, authorizer: false });
    const checked = parseAndCheck("quantity('100Mi').isGreaterThan(quantity('1Gi'))", env);
    if ('issue' in checked) throw new Error(checked.issue);
    // quantity(): ceil(5 × 0.1) = 1 and ceil(3 × 0.1) = 1; isGreaterThan: 1.
    expect(evaluateProgram(checked.program, {})).toEqual({ value: false, cost: 3 });
  });
});
