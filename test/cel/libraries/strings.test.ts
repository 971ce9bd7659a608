import { loadCel } from '../../../lib/cel';
import { compileError, evaluate, runtimeError } from './helpers';

beforeAll(loadCel);

// cel-go ext.Strings at StringsVersion(2), which kube enables from 1.29 (pkg/cel/environment/base.go).
describe('format: godoc examples of ext/strings.go', () => {
  it.each([
    [`"this is a string: %s\\nand an integer: %d".format(["str", 42])`, 'this is a string: str\nand an integer: 42'],
    [`"a double substituted with %%s: %s".format([64.2])`, 'a double substituted with %s: 64.2'],
    // The godoc says "string type: string", but type(string) is the type `type`; type("s") is string.
    [`"string type: %s".format([type(string)])`, 'string type: type'],
    [`"string type: %s".format([type("s")])`, 'string type: string'],
    [`"timestamp: %s".format([timestamp("2023-02-03T23:31:20+00:00")])`, 'timestamp: 2023-02-03T23:31:20Z'],
    [`"duration: %s".format([duration("1h45m47s")])`, 'duration: 6347s'],
    [`"%f".format([3.14])`, '3.140000'],
    [`"scientific notation: %e".format([2.71828])`, 'scientific notation: 2.718280\u202f×\u202f10⁰⁰'],
    // The godoc writes "5 in binary; 101".
    [`"5 in binary: %b".format([5])`, '5 in binary: 101'],
    [`"26 in hex: %x".format([26])`, '26 in hex: 1a'],
    [`"26 in hex (uppercase): %X".format([26])`, '26 in hex (uppercase): 1A'],
    [`"30 in octal: %o".format([30])`, '30 in octal: 36'],
    // The godoc shows "c":"d" for the "c": "z" entry.
    [`"a map inside a list: %s".format([[1, 2, 3, {"a": "x", "b": "y", "c": "z"}]])`, 'a map inside a list: [1, 2, 3, {"a":"x", "b":"y", "c":"z"}]'],
    [`"true bool: %s - false bool: %s\\nbinary bool: %b".format([true, false, true])`, 'true bool: true - false bool: false\nbinary bool: 1'],
  ])('%s → %j', (expression, expected) => {
    expect(evaluate(expression)).toBe(expected);
  });
});

describe('format: the version 1 formatter (ext/formatting.go), en_US', () => {
  it.each([
    ['"no substitution".format([])', 'no substitution'],
    ['"%% and also %%".format([])', '% and also %'],
    ['"%%%s%%".format(["text"])', '%text%'],
    ['"%d %d %d, %s %s %s".format([1, 2, 3, "A", "B", "C"])', '1 2 3, A B C'],
    ['"%.3f".format([1.2345])', '1.234'],
    ['"%.2f".format([0.125])', '0.12'],
    ['"%.2f".format([1234567.891])', '1,234,567.89'],
    ['"%.6e".format([1052.032911275])', '1.052033\u202f×\u202f10⁰³'],
    ['"%e".format([-0.00012])', '-1.200000\u202f×\u202f10⁻⁰⁴'],
    // The precision of %e becomes a width (cel-go builds "%<precision>e"): 6 digits, padded.
    ['"[%.20e]".format([1.5])', '[     1.500000\u202f×\u202f10⁰⁰]'],
    ['"%f %f %f".format(["NaN", "Infinity", "-Infinity"])', 'NaN ∞ -∞'],
    ['"%f".format([double("NaN")])', 'NaN'],
    ['"%b %b".format([-5, uint(64)])', '-101 1000000'],
    ['"%o %o".format([11, uint(65535)])', '13 177777'],
    ['"%x %X".format([-30, uint(6000)])', '-1e 1770'],
    ['"%x".format(["Hello world!"])', '48656c6c6f20776f726c6421'],
    ['"%X".format([b"byte string"])', '6279746520737472696E67'],
    ['"%d".format([uint(64)])', '64'],
    ['"null: %s".format([null])', 'null: null'],
    ['"some bytes: %s".format([b"xyz"])', 'some bytes: xyz'],
    ['"type is %s".format([type("test string")])', 'type is string'],
    ['"%s".format([duration("2ns")])', '0.000000002s'],
    ['"%s %s %s".format([1e6, 123456.0, 0.00001])', '1e+06 123456 1e-05'],
    ['"%s".format([999999999999])', '999999999999'],
    [
      '"%s".format([["abc", 3.14, null, [9, 8, 7, 6], timestamp("2023-02-03T23:31:20Z")]])',
      '["abc", 3.140000, null, [9, 8, 7, 6], timestamp("2023-02-03T23:31:20Z")]',
    ],
    [
      '"%s".format([{"key1": b"xyz", "key5": null, "key2": duration("2h"), "key4": true, "key3": 2.71828}])',
      '{"key1":b"xyz", "key2":duration("7200s"), "key3":2.718280, "key4":true, "key5":null}',
    ],
    [
      '"map with multiple key types: %s".format([{1: "value1", uint(2): "value2", true: double("NaN")}])',
      'map with multiple key types: {1:"value1", 2:"value2", true:"NaN"}',
    ],
    ['"%s".format([[double("NaN"), double("Infinity"), type(1)]])', '["NaN", "+Inf", int]'],
    ['"%s".format([{"b\\"q": 1, "a": [1.5]}])', '{"a":[1.500000], "b\\"q":1}'],
  ])('%s → %j', (expression, expected) => {
    expect(evaluate(expression)).toBe(expected);
  });

  it('formats JSON data', () => {
    const data = { name: 'web', replicas: 3, ratio: 0.75, labels: { app: 'web', tier: 'front' }, ports: [80, 443] };
    expect(
      evaluate(`"%s has %d replicas (%.1f), labels %s, ports %s".format([object.name, object.replicas, object.ratio, object.labels, object.ports])`, data),
    ).toBe('web has 3 replicas (0.8), labels {"app":"web", "tier":"front"}, ports [80, 443]');
  });

  it.each([
    [
      '"%s".format([dyn(quantity("1"))])',
      'error during formatting: string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given kubernetes.Quantity',
    ],
    ['"%s".format([[dyn(quantity("1"))]])', 'error during formatting: no formatting function for kubernetes.Quantity'],
    ['"%d %d %d".format(object.args)', 'index 2 out of range'],
    ['"%".format(object.args)', 'unexpected end of string'],
    ['"%a".format(object.args)', 'could not parse formatting clause: unrecognized formatting clause "a"'],
    ['"%E".format(object.args)', 'could not parse formatting clause: unrecognized formatting clause "E"'],
    ['"%é".format(object.args)', 'could not parse formatting clause: unrecognized formatting clause "Ã"'],
    [
      '"%.f".format(object.args)',
      'could not parse formatting clause: error while parsing precision: error while converting precision to integer: strconv.Atoi: parsing "": invalid syntax',
    ],
    ['"%.3".format(object.args)', 'could not parse formatting clause: error while parsing precision: could not find end of precision specifier'],
    ['"%b".format(object.strings)', 'error during formatting: only integers and bools can be formatted as binary, was given string'],
    ['"%o".format(object.strings)', 'error during formatting: octal clause can only be used on integers, was given string'],
    ['"%x".format([object.ratio])', 'error during formatting: only integers, byte buffers, and strings can be formatted as hex, was given double'],
    ['"%d".format([dyn(duration("30m2s"))])', 'error during formatting: decimal clause can only be used on integers, was given google.protobuf.Duration'],
    ['"%f".format([object.nothing])', 'error during formatting: fixed-point clause can only be used on doubles, was given null_type'],
    ['"%e".format([object.nothing])', 'error during formatting: scientific clause can only be used on doubles, was given null_type'],
    ['"%s".format([{object.ratio: 1}])', 'error during formatting: no formatting function for map key of type double'],
  ])('%s fails at runtime: %s', (expression, error) => {
    expect(runtimeError(expression, { args: [0, 1], strings: ['abc'], ratio: 0.5, nothing: null })).toBe(error);
  });
});

describe('format: compile-time validation of a literal format and list (stringFormatValidator)', () => {
  it.each([
    ['"%d %d %d".format([0, 1])', 'index 2 out of range'],
    ['"%".format([])', 'unexpected end of string'],
    ['"%a".format([1])', 'could not parse formatting clause: unrecognized formatting clause "a"'],
    ['"string is %b".format(["abc"])', 'error during formatting: only integers and bools can be formatted as binary, was given string'],
    ['"%d".format([duration("30m2s")])', 'error during formatting: decimal clause can only be used on integers, was given google.protobuf.Duration'],
    [
      '"%s".format([[1, quantity("1")]])',
      'error during formatting: string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given kubernetes.Quantity',
    ],
    ['"%f".format([null])', 'error during formatting: fixed-point clause can only be used on doubles, was given null_type'],
    ['"%s".format([1, 2])', 'too many arguments supplied to string.format (expected 1, got 2)'],
  ])('%s: %s', (expression, error) => {
    expect(compileError(`${expression} == ''`)).toContain(`: ${error}`);
  });

  it('dyn arguments are checked when the expression runs', () => {
    expect(compileError('"%d".format([object.x]) == ""')).toBeUndefined();
    expect(compileError('"%s %s".format(object.list) == ""')).toBeUndefined();
  });

  it('list literals inside a format call may mix types (HomogeneousAggregateLiteralExemptFunctions)', () => {
    expect(compileError('"%s %d".format(["a", 1]) == ""')).toBeUndefined();
    expect(compileError('["a", 1].size() == 2')).toContain("expected type 'string' but found 'int'");
  });

  it('format is a string method taking a list', () => {
    expect(compileError('1.format([1]) == ""')).toMatch(/found no matching overload for 'format'/);
    expect(compileError('"%s".format(1) == ""')).toMatch(/found no matching overload for 'format'/);
  });
});

describe('strings.quote (version 1)', () => {
  it.each([
    [`strings.quote('single-quote with "double quote"')`, '"single-quote with \\"double quote\\""'],
    [`strings.quote("two escape sequences \\a\\n")`, '"two escape sequences \\a\\n"'],
    [`strings.quote("tab\\there, back\\\\slash, bell\\a, vt\\v, ff\\f, cr\\r, bs\\b")`, '"tab\\there, back\\\\slash, bell\\a, vt\\v, ff\\f, cr\\r, bs\\b"'],
    // Other runes are kept, printable or not (cel-go's quote is not Go's %q).
    [`strings.quote("printable unicode😀, zero\\u200bwidth, nul\\x00")`, '"printable unicode😀, zero\u200bwidth, nul\u0000"'],
  ])('%s → %s', (expression, expected) => {
    expect(evaluate(expression)).toBe(expected);
  });

  it('takes a string', () => {
    expect(compileError('strings.quote(1) == ""')?.split('\n')[0]).toBe(
      "ERROR: <input>:1:14: found no matching overload for 'strings.quote' applied to '(int)'",
    );
  });
});

describe('the rest of ext.Strings version 2 (go-strings.ts and lib/cel/library.ts): godoc examples', () => {
  it.each([
    [`'hello'.charAt(4)`, 'o'],
    [`'hello'.charAt(5)`, ''],
    [`'hello mellow'.indexOf('')`, 0n],
    [`'hello mellow'.indexOf('ello')`, 1n],
    [`'hello mellow'.indexOf('jello')`, -1n],
    [`'hello mellow'.indexOf('', 2)`, 2n],
    [`'hello mellow'.indexOf('ello', 2)`, 7n],
    // cel-go's godoc since google/cel-go#1052 (0.22; Kubernetes 1.36 vendors 0.26): past the end is -1.
    [`'hello mellow'.indexOf('ello', 20)`, -1n],
    [`['hello', 'mellow'].join()`, 'hellomellow'],
    [`['hello', 'mellow'].join(' ')`, 'hello mellow'],
    [`[].join()`, ''],
    [`[].join('/')`, ''],
    [`'hello mellow'.lastIndexOf('')`, 12n],
    [`'hello mellow'.lastIndexOf('ello')`, 7n],
    [`'hello mellow'.lastIndexOf('jello')`, -1n],
    [`'hello mellow'.lastIndexOf('ello', 6)`, 1n],
    [`'hello mellow'.lastIndexOf('ello', 20)`, -1n],
    [`'TacoCat'.lowerAscii()`, 'tacocat'],
    [`'hello hello'.replace('he', 'we')`, 'wello wello'],
    [`'hello hello'.replace('he', 'we', -1)`, 'wello wello'],
    [`'hello hello'.replace('he', 'we', 1)`, 'wello hello'],
    [`'hello hello'.replace('he', 'we', 0)`, 'hello hello'],
    [`'hello hello'.replace('', '_')`, '_h_e_l_l_o_ _h_e_l_l_o_'],
    [`'hello hello'.replace('h', '')`, 'ello ello'],
    [`'hello hello hello'.split(' ')`, ['hello', 'hello', 'hello']],
    [`'hello hello hello'.split(' ', 0)`, []],
    [`'hello hello hello'.split(' ', 1)`, ['hello hello hello']],
    [`'hello hello hello'.split(' ', 2)`, ['hello', 'hello hello']],
    [`'hello hello hello'.split(' ', -1)`, ['hello', 'hello', 'hello']],
    [`'tacocat'.substring(4)`, 'cat'],
    [`'tacocat'.substring(0, 4)`, 'taco'],
    [`'  \\ttrim\\n    '.trim()`, 'trim'],
    [`'TacoCat'.upperAscii()`, 'TACOCAT'],
    [`'TacoCÆt Xii'.upperAscii()`, 'TACOCÆT XII'],
  ])('%s → %j', (expression, expected) => {
    expect(evaluate(expression)).toEqual(expected);
  });

  it.each([
    `'hello'.charAt(-1)`,
    `'hello mellow'.indexOf('ello', -1)`,
    `'hello mellow'.lastIndexOf('ello', -1)`,
    `'tacocat'.substring(-1)`,
    `'tacocat'.substring(2, 1)`,
  ])('%s is an error', (expression) => {
    expect(runtimeError(expression)).toBeDefined();
  });

  it('reverse of a string is strings version 3, which kube does not enable (ext.Lists declares it on lists only)', () => {
    expect(compileError(`'gums'.reverse() == 'smug'`)).toMatch(/found no matching overload for 'reverse' applied to 'string.\(\)'/);
  });
});

// cel-js has these functions built in, with JavaScript's semantics; each checked call runs cel-go's
// (ext/strings.go, lib/cel/libraries/go-strings.ts).
describe('ext.Strings as cel-go runs it, where JavaScript differs', () => {
  it("lowerAscii lowers ASCII letters only ('TacoCÆt Xii' → 'tacocÆt xii')", () => {
    expect(evaluate(`'TacoCÆt Xii'.lowerAscii()`)).toBe('tacocÆt xii');
    expect(evaluate(`'İSTANBUL'.lowerAscii()`)).toBe('İstanbul');
  });

  it("upperAscii raises ASCII letters only ('straße' → 'STRAßE')", () => {
    expect(evaluate(`'straße'.upperAscii()`)).toBe('STRAßE');
    expect(evaluate(`'ﬁx'.upperAscii()`)).toBe('ﬁX');
  });

  it('trim removes what Go calls space: U+0085 but not U+FEFF', () => {
    expect(evaluate(`'\\u0085x\\ufeff'.trim()`)).toBe('x\ufeff');
    expect(evaluate(`'\\u00a0\\u2003\\u3000 x \\u2028\\u205f'.trim()`)).toBe('x');
    // A zero-width space is no space to Go's unicode.IsSpace (the godoc's "does not include the zero-width spaces").
    expect(evaluate(`'\\u200bx'.trim()`)).toBe('\u200bx');
  });

  it('indexOf, lastIndexOf and substring count code points, not UTF-16 units', () => {
    expect(evaluate(`'😀a'.indexOf('a') == 1 && '😀a'.lastIndexOf('a') == 1 && '😀ab'.substring(1) == 'ab'`)).toBe(true);
    expect(evaluate(`'a😀b😀'.indexOf('😀', 2)`)).toBe(3n);
    expect(evaluate(`'a😀b😀'.lastIndexOf('😀', 2)`)).toBe(1n);
    expect(evaluate(`'😀😀😀'.substring(1, 2)`)).toBe('😀');
    expect(evaluate(`'😀😀'.substring(2)`)).toBe('');
  });

  it("split('') splits code points, and a limit keeps the rest whole", () => {
    expect(evaluate(`'😀a'.split('')`)).toEqual(['😀', 'a']);
    expect(evaluate(`'😀ab'.split('', 2)`)).toEqual(['😀', 'ab']);
    expect(evaluate(`''.split('')`)).toEqual([]);
    expect(evaluate(`''.split(',')`)).toEqual(['']);
  });

  it('an empty search string is found where the search starts, whatever the offset', () => {
    expect(evaluate(`'abc'.indexOf('', 30)`)).toBe(30n);
    expect(evaluate(`'abc'.lastIndexOf('', 1)`)).toBe(1n);
  });

  it('index errors read `index out of range: N`', () => {
    expect(runtimeError(`'hello mellow'.indexOf('ello', -1)`)).toBe('index out of range: -1');
    expect(runtimeError(`'hello mellow'.lastIndexOf('ello', -2)`)).toBe('index out of range: -2');
    expect(runtimeError(`'tacocat'.substring(-1)`)).toBe('index out of range: -1');
    expect(runtimeError(`'tacocat'.substring(8)`)).toBe('index out of range: 8');
    expect(runtimeError(`'tacocat'.substring(2, 9)`)).toBe('index out of range: 9');
  });

  it('a reversed substring range reads `invalid substring range. start: 2, end: 1`', () => {
    expect(runtimeError(`'tacocat'.substring(2, 1)`)).toBe('invalid substring range. start: 2, end: 1');
  });

  it('the same functions on other receivers keep their own meaning', () => {
    expect(evaluate(`[1, 2, 1].lastIndexOf(1)`)).toBe(2n);
    expect(evaluate(`object.s.indexOf('b')`, { s: 'abc' })).toBe(1n);
    expect(runtimeError(`object.n.substring(1)`, { n: 5 })).toMatch(/no such overload|found no matching overload/);
  });
});
