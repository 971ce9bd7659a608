import { loadCel } from '../../../lib/cel';
import { CelUrl } from '../../../lib/cel/libraries';
import { compileError, evaluate, runtimeError } from './helpers';

beforeAll(loadCel);

const parseError = (input: string, cause: string) => `URL parse error during conversion from string: parse ${JSON.stringify(input)}: ${cause}`;

// k8s.io/apiserver/pkg/cel/library/urls.go on Go's net/url.
describe('URL library: examples of "CEL in Kubernetes"', () => {
  it.each([
    [`url('https://example.com:80/').getHost()`, 'example.com:80'],
    [`url('https://example.com/path with spaces/').getEscapedPath()`, '/path%20with%20spaces/'],
  ])('%s → %j', (expression, expected) => {
    expect(evaluate(expression)).toEqual(expected);
  });
});

describe('URL library: godoc examples of urls.go', () => {
  it('url() returns a kubernetes.URL for an absolute URI or an absolute path', () => {
    const full = evaluate(`url('https://user:pass@example.com:80/path?query=val#fragment')`);
    expect(full).toBeInstanceOf(CelUrl);
    expect(String(full)).toBe('https://user:pass@example.com:80/path?query=val#fragment');
    expect(String(evaluate(`url('/absolute-path')`))).toBe('/absolute-path');
    expect(evaluate(`type(url('/absolute-path')) == type(url('https://example.com'))`)).toBe(true);
  });

  it.each([
    // Go 1.26 takes the port after the first colon for http and https (go.dev/issue/75223); Go releases
    // before that reported `invalid port ":c" after host`.
    [`url('https://a:b:c/')`, parseError('https://a:b:c/', 'invalid port ":b:c" after host')],
    [`url('../relative-path')`, parseError('../relative-path', 'invalid URI for request')],
  ])('%s is an error', (expression, error) => {
    expect(runtimeError(expression)).toBe(error);
  });

  it.each([
    [`isURL('https://user:pass@example.com:80/path?query=val#fragment')`, true],
    [`isURL('/absolute-path')`, true],
    [`isURL('https://a:b:c/')`, false],
    [`isURL('../relative-path')`, false],
    [`url('/path').getScheme()`, ''],
    [`url('https://example.com/').getScheme()`, 'https'],
    [`url('https://example.com:80/').getHost()`, 'example.com:80'],
    [`url('https://example.com/').getHost()`, 'example.com'],
    [`url('https://[::1]:80/').getHost()`, '[::1]:80'],
    [`url('https://[::1]/').getHost()`, '[::1]'],
    [`url('/path').getHost()`, ''],
    [`url('https://example.com:80/').getHostname()`, 'example.com'],
    [`url('https://127.0.0.1:80/').getHostname()`, '127.0.0.1'],
    [`url('https://[::1]:80/').getHostname()`, '::1'],
    [`url('/path').getHostname()`, ''],
    [`url('https://example.com:80/').getPort()`, '80'],
    [`url('https://example.com/').getPort()`, ''],
    [`url('/path').getPort()`, ''],
    [`url('https://example.com/path').getEscapedPath()`, '/path'],
    [`url('https://example.com/path with spaces/').getEscapedPath()`, '/path%20with%20spaces/'],
    [`url('https://example.com').getEscapedPath()`, ''],
    [`url('https://example.com/path?k1=a&k2=b&k2=c').getQuery()`, { k1: ['a'], k2: ['b', 'c'] }],
    [`url('https://example.com/path?key with spaces=value with spaces').getQuery()`, { 'key with spaces': ['value with spaces'] }],
    [`url('https://example.com/path?').getQuery()`, {}],
    [`url('https://example.com/path').getQuery()`, {}],
  ])('%s → %j', (expression, expected) => {
    expect(evaluate(expression)).toEqual(expected);
  });
});

describe("net/url's parsing", () => {
  it.each([
    // The scheme is lower-cased; the fragment is not part of the path or query.
    [`url('HTTPS://Example.com/a#b?c').getScheme()`, 'https'],
    [`url('https://example.com/a#b?c').getEscapedPath()`, '/a'],
    [`url('https://example.com/a?x=1#frag').getQuery()`, { x: ['1'] }],
    // Percent-encoding: the path keeps the client's encoding when it is a valid one.
    [`url('https://example.com/a%2fb').getEscapedPath()`, '/a%2fb'],
    [`url('https://example.com/caf%C3%A9').getEscapedPath()`, '/caf%C3%A9'],
    [`url('https://example.com/café').getEscapedPath()`, '/caf%C3%A9'],
    // Query values are unescaped, + is a space; a pair with a semicolon is dropped.
    [`url('https://e.com/?q=a%20b+c&empty&=x').getQuery()`, { q: ['a b c'], empty: [''], '': ['x'] }],
    [`url('https://e.com/?a=1;b=2&c=3').getQuery()`, { c: ['3'] }],
    [`url('https://e.com/?a=%zz&b=1').getQuery()`, { b: ['1'] }],
    // Userinfo is not part of the host; IPv6 zones are kept.
    [`url('https://user:p@ss@example.com/').getHost()`, 'example.com'],
    [`url('http://[fe80::1%25en0]:8080/').getHostname()`, 'fe80::1%en0'],
    [`url('http://[::ffff:1.2.3.4]/').getHostname()`, '::ffff:1.2.3.4'],
    // A non-numeric port is part of the hostname for other schemes than http(s).
    [`url('mongodb://a:1,b:2/db').getHost()`, 'a:1,b:2'],
    [`url('mongodb://a:1,b:2/db').getPort()`, '2'],
    // An opaque URL: a scheme and no leading slash.
    [`url('mailto:someone@example.com').getScheme()`, 'mailto'],
    [`url('mailto:someone@example.com').getHost()`, ''],
    [`url('*').getEscapedPath()`, '*'],
    [`url('https:///path').getHost()`, ''],
  ])('%s → %j', (expression, expected) => {
    expect(evaluate(expression)).toEqual(expected);
  });

  it.each([
    ['', 'empty url'],
    ['example.com', 'invalid URI for request'],
    ['://example.com', 'missing protocol scheme'],
    ['https://exa mple.com/', 'invalid character " " in host name'],
    ['https://example.com:http/', 'invalid port ":http" after host'],
    ['https://[::1/', "missing ']' in host"],
    ['https://[1.2.3.4]/', 'invalid IP-literal'],
    ['https://x[::1]/', 'invalid IP-literal'],
    ['https://[abc]/', 'invalid host: ParseAddr("abc"): unable to parse IP'],
    ['https://[example.com]/', 'invalid host: ParseAddr("example.com"): unexpected character (at "example.com")'],
    ['https://[1.2.3]/', 'invalid host: ParseAddr("1.2.3"): IPv4 address too short'],
    ['https://[::1::2]/', 'invalid host: ParseAddr("::1::2"): multiple :: in address (at ":2")'],
    ['https://[12345::]/', 'invalid host: ParseAddr("12345::"): IPv6 field has value >=2^16 (at "12345::")'],
    ['https://example.com/%zz', 'invalid URL escape "%zz"'],
    ['https://example.com/%e', 'invalid URL escape "%e"'],
    ['https://ex%41mple.com/', 'invalid URL escape "%41"'],
    ['https://us er@example.com/', 'net/url: invalid userinfo'],
  ])('url(%j) is an error: %s', (input, cause) => {
    expect(runtimeError('url(object.u)', { u: input })).toBe(parseError(input, cause));
    expect(evaluate('isURL(object.u)', { u: input })).toBe(false);
  });

  it('quotes the input as Go does (%q)', () => {
    expect(runtimeError('url(object.u)', { u: 'https://é x/' })).toBe(
      'URL parse error during conversion from string: parse "https://é x/": invalid character " " in host name',
    );
    expect(runtimeError('url(object.u)', { u: 'https://x/\n' })).toBe(
      'URL parse error during conversion from string: parse "https://x/\\n": net/url: invalid control character in URL',
    );
    expect(runtimeError('url(object.u)', { u: 'https://x/\u0007\u0085' })).toBe(
      'URL parse error during conversion from string: parse "https://x/\\a\\u0085": net/url: invalid control character in URL',
    );
  });
});

describe('kubernetes.URL values', () => {
  it('are equal when their String() forms are (url.go Equal)', () => {
    expect(evaluate(`url('https://example.com/a?b=c') == url('https://example.com/a?b=c')`)).toBe(true);
    expect(evaluate(`url('https://example.com/a') != url('https://example.com/b')`)).toBe(true);
    expect(evaluate(`url('https://example.com/a b') == url('https://example.com/a%20b')`)).toBe(true);
  });

  it('have only the accessors of urls.go', () => {
    expect(compileError(`url('/a').getFragment() == ''`)).toMatch(/undeclared reference to 'getFragment'/);
    expect(compileError(`url('/a').path == '/a'`)).toMatch(/undefined field 'path'/);
    expect(compileError(`url(1) == url('/a')`)).toMatch(/found no matching overload for 'url' applied to '\(int\)'/);
    expect(compileError(`url('/a') == '/a'`)).toMatch(/found no matching overload for '_==_' applied to '\(kubernetes.URL, string\)'/);
  });
});
