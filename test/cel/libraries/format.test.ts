import type { Environment } from '@marcbachmann/cel-js';
import { loadCel } from '../../../lib/cel';
import { celGoIssue } from '../../../lib/cel/errors';
import { registerFormat } from '../../../lib/cel/libraries/format';
import { celGoFunctionNames } from '../../../lib/cel/libraries/namespace';
import { celModule } from '../../../lib/cel/runtime';

// The format library of k8s.io/apiserver/pkg/cel/library/format.go. Examples come from its godoc, the
// "CEL in Kubernetes" page (kubernetes.io/docs/reference/using-api/cel/) and format_test.go.

let env: Environment;

beforeAll(async () => {
  await loadCel();
  const { Environment } = celModule();
  env = new Environment({ enableOptionalTypes: true, homogeneousAggregateLiterals: true });
  registerFormat(env);
  // The page's examples are CRD validation rules, which read `self`.
  env.registerVariable('self', 'dyn').registerVariable('value', 'string');
});

const evaluate = (expression: string, context: Record<string, unknown> = {}): unknown => env.evaluate(expression, context);

/** `<format>.validate(value)` as a list: [] for optional.none, the messages otherwise. */
function messages(format: string, value: string): unknown {
  const result = env.evaluate(`format.${format}().validate(value)`, { value }) as { hasValue(): boolean; value(): unknown };
  return result.hasValue() ? result.value() : [];
}

function compileError(expression: string): string {
  const checked = env.check(expression);
  if (checked.valid || !checked.error) throw new Error(`${expression} compiled`);
  const functions = celGoFunctionNames(env);
  return celGoIssue(checked.error, expression, functions).split('\n')[0] ?? '';
}

const LABEL_MESSAGE =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const SUBDOMAIN_MESSAGE =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const DNS1035_MESSAGE =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const NAME_PART_MESSAGE =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE_MESSAGE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

describe('kubernetes.io "Kubernetes format library" examples', () => {
  it('a validation rule that a name is a DNS-1123 label', () => {
    const rule = '!format.dns1123Label().validate(self.metadata.name).hasValue()';
    expect(evaluate(rule, { self: { metadata: { name: 'my-name' } } })).toBe(true);
    expect(evaluate(rule, { self: { metadata: { name: 'My_Name' } } })).toBe(false);
  });

  it("a messageExpression listing the field's errors, empty when it is valid", () => {
    const messageExpression = 'format.dns1123Label().validate(self.metadata.name).orValue([]).join("\\\\n")';
    expect(evaluate(messageExpression, { self: { metadata: { name: 'my-name' } } })).toBe('');
    expect(evaluate(messageExpression, { self: { metadata: { name: 'My_Name' } } })).toBe(LABEL_MESSAGE);
    expect(evaluate(messageExpression, { self: { metadata: { name: `${'A'.repeat(64)}` } } })).toBe(`must be no more than 63 bytes\\n${LABEL_MESSAGE}`);
  });

  it('format.named returns the format of a listed name, optional.none otherwise', () => {
    for (const name of [
      'dns1123Label',
      'dns1123Subdomain',
      'dns1035Label',
      'qualifiedName',
      'dns1123LabelPrefix',
      'dns1123SubdomainPrefix',
      'dns1035LabelPrefix',
      'labelValue',
      'uri',
      'uuid',
      'byte',
      'date',
      'datetime',
    ]) {
      expect(evaluate(`format.named('${name}').hasValue() && format.named('${name}').value() == format.${name}()`)).toBe(true);
    }
    expect(evaluate("format.named('unknown').hasValue()")).toBe(false);
  });
});

describe('format.go godoc examples: valid values are optional.none', () => {
  it.each([
    ['dns1123Label', 'my-label-name'],
    ['dns1123Subdomain', 'apiextensions.k8s.io'],
    ['dns1035Label', 'my-label-name'],
    ['qualifiedName', 'apiextensions.k8s.io/v1beta1'],
    ['dns1123LabelPrefix', 'my-label-prefix-'],
    ['dns1123SubdomainPrefix', 'mysubdomain.prefix.-'],
    ['dns1035LabelPrefix', 'my-label-prefix-'],
    ['uri', 'http://example.com'],
    ['uuid', '123e4567-e89b-12d3-a456-426614174000'],
    ['byte', 'aGVsbG8='],
    ['date', '2021-01-01'],
    ['datetime', '2021-01-01T00:00:00Z'],
  ])('format.%s().validate(%j)', (format, value) => {
    expect(evaluate(`format.${format}().validate(${JSON.stringify(value)}).hasValue()`)).toBe(false);
  });

  // The godoc's opening example spells `format.dns1123label.validate(...)`, which no kube compiles.
  it('the misspelt format.dns1123label does not compile', () => {
    expect(env.check("format.dns1123label().validate('x')").valid).toBe(false);
  });
});

describe('format_test.go', () => {
  it.each([
    ['dns1123Label', 'contains a space', [LABEL_MESSAGE]],
    ['dns1123Subdomain', 'contains a space', [SUBDOMAIN_MESSAGE]],
    ['dns1035Label', 'contains a space', [DNS1035_MESSAGE]],
    ['qualifiedName', 'contains a space', [NAME_PART_MESSAGE]],
    ['dns1123LabelPrefix', 'contains a space-', [LABEL_MESSAGE]],
    ['dns1123SubdomainPrefix', 'contains a space-', [SUBDOMAIN_MESSAGE]],
    ['dns1035LabelPrefix', 'contains a space-', [DNS1035_MESSAGE]],
    ['dns1123Label', 'my-label-name', []],
    ['dns1123Subdomain', 'example.com', []],
    ['dns1035Label', 'my-label-name', []],
    ['qualifiedName', 'my.name', []],
    ['byte', 'aGVsbG8=', []],
    ['byte', 'aGVsbG8', ['invalid base64']],
    ['date', '2020-01-01', []],
    ['date', '2020-01-32', ['invalid date']],
    ['datetime', '2020-01-01T00:00:00Z', []],
    ['datetime', '2020-01-32T00:00:00Z', ['invalid datetime']],
    ['labelValue', 'my-cool-label-Value', []],
    ['labelValue', 'my-cool-label-Value!!\n\n!!!', [LABEL_VALUE_MESSAGE]],
  ])('format.%s().validate(%j) is %j', (format, value, expected) => {
    expect(messages(format, value)).toEqual(expected);
  });

  it('formats compare equal to themselves only (pkg/cel/format.go compares Name)', () => {
    const names = [
      'dns1123Label',
      'dns1123Subdomain',
      'dns1035Label',
      'qualifiedName',
      'dns1123LabelPrefix',
      'dns1123SubdomainPrefix',
      'dns1035LabelPrefix',
      'labelValue',
      'uri',
      'uuid',
      'byte',
      'date',
      'datetime',
    ];
    for (const a of names) {
      for (const b of names) expect(evaluate(`format.${a}() == format.${b}()`)).toBe(a === b);
    }
  });
});

describe('the apimachinery name checks behind the formats', () => {
  it.each([
    ['dns1123Label', 'a.b', ['must not contain dots']],
    ['dns1123Label', 'a'.repeat(64), ['must be no more than 63 bytes']],
    ['dns1123Label', '', [LABEL_MESSAGE]],
    ['dns1123Subdomain', `${'a'.repeat(250)}.com`, ['must be no more than 253 bytes']],
    ['dns1123Subdomain', 'Example.com', [SUBDOMAIN_MESSAGE]],
    ['dns1035Label', '1abc', [DNS1035_MESSAGE]],
    ['qualifiedName', 'example.com/MyName', []],
    ['qualifiedName', '/name', ['prefix part must be non-empty']],
    ['qualifiedName', 'Example.com/name', [`prefix part ${SUBDOMAIN_MESSAGE}`]],
    [
      'qualifiedName',
      'a/b/c',
      [
        "a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
      ],
    ],
    ['qualifiedName', 'example.com/', ['name part must be non-empty', NAME_PART_MESSAGE]],
    ['qualifiedName', 'a'.repeat(64), ['name part must be no more than 63 bytes']],
    ['labelValue', '', []],
    ['labelValue', 'a'.repeat(64), ['must be no more than 63 bytes']],
    ['labelValue', '-a', [LABEL_VALUE_MESSAGE]],
    // maskTrailingDash turns the last two bytes into "a" ("ab-" is checked as "aa")...
    ['dns1123LabelPrefix', 'ab-', []],
    ['dns1035LabelPrefix', '1-', []],
    ['dns1123LabelPrefix', 'a_-', []],
    // ...but leaves a one-byte name alone (apimachinery's `len(name) > 1`).
    ['dns1123LabelPrefix', '-', [LABEL_MESSAGE]],
    ['dns1123SubdomainPrefix', '-', [SUBDOMAIN_MESSAGE]],
    ['dns1035LabelPrefix', '-', [DNS1035_MESSAGE]],
  ])('format.%s().validate(%j) is %j', (format, value, expected) => {
    expect(messages(format, value)).toEqual(expected);
  });
});

describe('uri: url.ParseRequestURI and its error texts', () => {
  it.each([
    'http://example.com',
    'https://u:p@example.com:8443/a%20b?q=1',
    '/absolute/path',
    '*',
    'mailto:someone@example.com',
    'urn:isbn:0451450523',
    'http://[::1]:80/',
    'http://[fe80::1%25en0]/',
    'http://[fe80::1%25%20]/',
    'http://[::ffff:1.2.3.4]/',
    '//host/path',
    'http://example.com/#frag',
  ])('%j is a URI', (value) => {
    expect(messages('uri', value)).toEqual([]);
  });

  it.each([
    ['', 'parse "": empty url'],
    ['example.com', 'parse "example.com": invalid URI for request'],
    ['relative/path', 'parse "relative/path": invalid URI for request'],
    ['://x', 'parse "://x": missing protocol scheme'],
    ['http://a b.com/', 'parse "http://a b.com/": invalid character " " in host name'],
    ['http://a{b}/', 'parse "http://a{b}/": invalid character "{" in host name'],
    ['http://example.com:abc/', 'parse "http://example.com:abc/": invalid port ":abc" after host'],
    ['http://ü@example.com/', 'parse "http://ü@example.com/": net/url: invalid userinfo'],
    ['/path%zz', 'parse "/path%zz": invalid URL escape "%zz"'],
    ['/path%2', 'parse "/path%2": invalid URL escape "%2"'],
    // Escapes are cut by bytes, as %q prints them.
    ['https://example.com/%zé', 'parse "https://example.com/%zé": invalid URL escape "%z\\xc3"'],
    ['http://%41.com/', 'parse "http://%41.com/": invalid URL escape "%41"'],
    ['http://example.com/\u0001', 'parse "http://example.com/\\x01": net/url: invalid control character in URL'],
    ['http://[::1/', `parse "http://[::1/": missing ']' in host`],
    // Brackets hold IPv6 addresses only (Go 1.25.2+, CVE-2025-47912).
    ['http://[1.2.3.4]/', 'parse "http://[1.2.3.4]/": invalid IP-literal'],
    ['http://[v1.x]/', 'parse "http://[v1.x]/": invalid host: ParseAddr("v1.x"): unexpected character (at "v1.x")'],
    ['http://a[::1]/', 'parse "http://a[::1]/": invalid IP-literal'],
    // A zone may escape only what it may hold, and spaces.
    ['http://[fe80::1%25%2F]/', 'parse "http://[fe80::1%25%2F]/": invalid URL escape "%2F"'],
    ['http://[fe80::1%25]/', 'parse "http://[fe80::1%25]/": invalid host: ParseAddr("fe80::1%"): zone must be a non-empty string'],
  ])('%j is %j', (value, message) => {
    expect(messages('uri', value)).toEqual([message]);
  });
});

describe('uuid, byte, date and datetime (kube-openapi strfmt)', () => {
  it.each([
    ['uuid', '123E4567E89B12D3A456426614174000', []],
    ['uuid', '123e4567-e89b-12d3-a456-42661417400', ['does not match the UUID format']],
    ['uuid', '', ['does not match the UUID format']],
    ['byte', 'YWJj', []],
    ['byte', 'YQ==', []],
    ['byte', '', ['invalid base64']],
    ['byte', 'aGVsbG8=\n', ['invalid base64']],
    ['date', '2020-02-29', []],
    ['date', '2021-02-29', ['invalid date']],
    ['date', '2021-1-01', ['invalid date']],
    ['datetime', '2020-01-01t00:00:00.123+05:30', []],
    ['datetime', '2020-01-01T24:00:00Z', ['invalid datetime']],
    ['datetime', '2020-01-01T00:00:00', ['invalid datetime']],
    // strfmt.IsDateTime splits at every "t" and reads only the first two pieces.
    ['datetime', '2020-01-01T00:00:00ZtXYZ', []],
  ])('format.%s().validate(%j) is %j', (format, value, expected) => {
    expect(messages(format, value)).toEqual(expected);
  });

  // Go's time.Parse takes year 0 as the leap year it is (proleptic Gregorian).
  it('0000-02-29 is a date, as time.Parse reads it', () => {
    expect(messages('date', '0000-02-29')).toEqual([]);
    expect(messages('date', '0100-02-29')).toEqual(['invalid date']);
    expect(messages('date', '0004-02-29')).toEqual([]);
  });

  // DateTimePattern's unescaped `.` is Go's, which matches any character but a newline.
  it('a carriage return where DateTimePattern has its `.` is accepted, as Go accepts it', () => {
    expect(messages('datetime', '2020-01-01T00:00:00\r1Z')).toEqual([]);
    expect(messages('datetime', '2020-01-01T00:00:00\u20281Z')).toEqual([]);
    expect(messages('datetime', '2020-01-01T00:00:00\n1Z')).toEqual(['invalid datetime']);
  });
});

describe('types and compile errors', () => {
  it('validate returns optional<list<string>>, named optional<kubernetes.NamedFormat>', () => {
    expect(env.check("format.uuid().validate('x')")).toMatchObject({ valid: true, type: 'optional<list<string>>' });
    expect(env.check("format.named('uuid')")).toMatchObject({ valid: true, type: 'optional<kubernetes.NamedFormat>' });
  });

  it('validate takes a string', () => {
    expect(compileError('format.uuid().validate(1)')).toMatch(/found no matching overload for 'validate' applied to 'kubernetes\.NamedFormat\.\(int\)'/);
  });

  it('an unknown format name is not an error, optional.none', () => {
    expect(evaluate("format.named('nope').orValue(format.uuid()) == format.uuid()")).toBe(true);
    expect(evaluate("format.named('DNS1123Label').hasValue() || format.named('').hasValue()")).toBe(false);
  });

  // cel-js has no qualified function names, so `format` is a constant there (lib/cel/libraries/namespace.ts).
  it('a wrongly typed format.named call names the function as cel-go does', () => {
    expect(compileError('format.named(1)')).toBe("ERROR: <input>:1:13: found no matching overload for 'format.named' applied to '(int)'");
  });
});
