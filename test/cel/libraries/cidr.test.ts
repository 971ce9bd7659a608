import { compileErrorLine, errorOf, evaluate } from './helpers';
import { loadCel } from '../../../lib/cel';
import { registerCidr } from '../../../lib/cel/libraries/cidr';
import { celModule } from '../../../lib/cel/runtime';

beforeAll(loadCel);

// The CIDR library of k8s.io/apiserver/pkg/cel/library/cidr.go. Examples come from its godoc, the
// "CEL in Kubernetes" page (kubernetes.io/docs/reference/using-api/cel/) and cidr_test.go.

const compileError = compileErrorLine;

// cidr.go wraps ParsePrefix's error in its prefix twice (parseCIDR, then stringToCIDR).
const parseError = (message: string) =>
  `network address parse error during conversion from string: network address parse error during conversion from string: ${message}`;

describe('kubernetes.io "Kubernetes CIDR library" examples', () => {
  it.each([
    ["cidr('192.168.0.0/24').containsIP(ip('192.168.0.1'))", true],
    ["cidr('192.168.0.0/24').containsIP(ip('192.168.1.1'))", false],
    ["cidr('192.168.0.0/24').containsIP('192.168.0.1')", true],
    ["cidr('192.168.0.0/24').containsIP('192.168.1.1')", false],
    // True since kubernetes#130450 (1.33) masks the other network before comparing.
    ["cidr('192.168.0.0/16').containsCIDR(cidr('192.168.10.0/24'))", true],
    ["cidr('192.168.1.0/24').containsCIDR(cidr('192.168.2.0/24'))", false],
    ["cidr('192.168.0.0/16').containsCIDR('192.168.10.0/24')", true],
    ["cidr('192.168.1.0/24').containsCIDR('192.168.2.0/24')", false],
    ["cidr('192.168.0.1/24').ip() == ip('192.168.0.1')", true],
    ["cidr('192.168.0.1/24').ip().family()", 4n],
    ["cidr('::1/128').ip() == ip('::1')", true],
    ["cidr('::1/128').ip().family()", 6n],
    ["cidr('192.168.0.0/24').masked() == cidr('192.168.0.0/24')", true],
    ["cidr('192.168.0.1/24').masked() == cidr('192.168.0.0/24')", true],
    ["cidr('192.168.0.0/24') == cidr('192.168.0.0/24').masked()", true],
    ["cidr('192.168.0.1/24') == cidr('192.168.0.1/24').masked()", false],
    ["cidr('192.168.0.0/16').prefixLength()", 16n],
    ["cidr('::1/128').prefixLength()", 128n],
  ])('%s is %s', (expression, result) => {
    expect(evaluate(expression)).toBe(result);
  });
});

describe('cidr and isCIDR (cidr.go godoc)', () => {
  it.each([
    ["cidr('192.168.0.0/16')", '192.168.0.0/16'],
    ["cidr('::1/128')", '::1/128'],
  ])('%s returns a network', (expression, text) => {
    expect(evaluate(`string(${expression})`)).toBe(text);
  });

  it.each([
    ["isCIDR('192.168.0.0/16')", true],
    ["isCIDR('::1/128')", true],
    ["isCIDR('192.168.0.0/33')", false],
    ["isCIDR('::1/129')", false],
  ])('%s is %s', (expression, result) => {
    expect(evaluate(expression)).toBe(result);
  });

  it.each([
    ["cidr('192.168.0.0/33')", parseError('netip.ParsePrefix("192.168.0.0/33"): prefix length out of range')],
    ["cidr('::1/129')", parseError('netip.ParsePrefix("::1/129"): prefix length out of range')],
  ])('%s is an error', (expression, message) => {
    expect(errorOf(expression)).toBe(message);
  });

  // The godoc says `cidr('192.168.0.1/16')` is an error "because there are non-0 bits after the
  // prefix", but parseCIDR never checks that: kube keeps the host bits, as its own examples of ip()
  // and masked() show.
  it('host bits after the prefix are kept, not refused', () => {
    expect(evaluate("string(cidr('192.168.0.1/16'))")).toBe('192.168.0.1/16');
    expect(evaluate("isCIDR('192.168.0.1/16')")).toBe(true);
  });
});

describe("kube's parsing rules (netip.ParsePrefix, then no IPv4-mapped IPv6)", () => {
  it.each([
    // cidr_test.go
    ['192.168.0.0/', 'netip.ParsePrefix("192.168.0.0/"): bad bits after slash: ""'],
    ['2001:db8::/', 'netip.ParsePrefix("2001:db8::/"): bad bits after slash: ""'],
    ['192.168.0.0', `netip.ParsePrefix("192.168.0.0"): no '/'`],
    ['10.0.0.0/08', 'netip.ParsePrefix("10.0.0.0/08"): bad bits after slash: "08"'],
    ['10.0.0.0/+8', 'netip.ParsePrefix("10.0.0.0/+8"): bad bits after slash: "+8"'],
    ['10.0.0.0/-1', 'netip.ParsePrefix("10.0.0.0/-1"): bad bits after slash: "-1"'],
    ['10.0.0.0/99999999999999999999', 'netip.ParsePrefix("10.0.0.0/99999999999999999999"): bad bits after slash: "99999999999999999999"'],
    ['010.0.0.0/8', 'netip.ParsePrefix("010.0.0.0/8"): ParseAddr("010.0.0.0"): IPv4 field has octet with leading zero'],
    ['fe80::1%eth0/64', 'netip.ParsePrefix("fe80::1%eth0/64"): IPv6 zones cannot be present in a prefix'],
    ['1.2.3.4/24/8', 'netip.ParsePrefix("1.2.3.4/24/8"): ParseAddr("1.2.3.4/24"): unexpected character (at "/24")'],
  ])("cidr(%j) fails with ParsePrefix's text", (raw, message) => {
    expect(errorOf(`cidr(${JSON.stringify(raw)})`)).toBe(parseError(message));
    expect(evaluate(`isCIDR(${JSON.stringify(raw)})`)).toBe(false);
  });

  it('an IPv4-mapped IPv6 network is refused, with the prefix added once', () => {
    expect(errorOf("cidr('::ffff:1.2.3.4/120')")).toBe(
      'network address parse error during conversion from string: IPv4-mapped IPv6 address "::ffff:1.2.3.4/120" is not allowed',
    );
    expect(evaluate("isCIDR('::ffff:1.2.3.4/120')")).toBe(false);
  });

  it('the address prints canonically, the length in decimal', () => {
    expect(evaluate("string(cidr('2001:DB8:0:0::/32'))")).toBe('2001:db8::/32');
    expect(evaluate("string(cidr('10.0.0.0/0'))")).toBe('10.0.0.0/0');
  });
});

describe('cidr_test.go', () => {
  it.each([
    ['cidr("192.168.0.0/24").containsIP(ip("192.168.0.1"))', true],
    ['cidr("192.168.0.0/24").containsIP(ip("192.168.1.1"))', false],
    ['cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.0/25"))', true],
    ['cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.0/23"))', false],
    ['cidr("192.168.0.0/24").containsCIDR("192.168.0.0/25")', true],
    ['cidr("192.168.0.0/24").containsCIDR("192.168.0.0/23")', false],
    ['cidr("192.168.0.0/24").ip() == ip("192.168.0.0")', true],
    ['cidr("192.168.0.1/24").masked() == cidr("192.168.0.0/24")', true],
    ['cidr("192.168.0.0/24").prefixLength()', 24n],
    ['cidr(dyn("192.168.0.0/24")) == cidr("192.168.0.0/24")', true],
    ['cidr("2001:db8::/32").containsIP(ip("2001:db8::1"))', true],
    ['cidr("2001:db8::/32").containsIP(ip("2001:dc8::1"))', false],
    ['cidr("2001:db8::/32").containsIP("2001:db8::1")', true],
    ['cidr("2001:db8::/32").containsIP("2001:dc8::1")', false],
    ['cidr("2001:db8::/32").containsCIDR(cidr("2001:db8::/33"))', true],
    ['cidr("2001:db8::/32").containsCIDR(cidr("2001:db8::/31"))', false],
    ['cidr("2001:db8::/32").containsCIDR("2001:db8::/33")', true],
    ['cidr("2001:db8::/32").containsCIDR("2001:db8::/31")', false],
    ['cidr("2001:db8::/32").ip() == ip("2001:db8::")', true],
    ['cidr("2001:db8::/32").masked() == cidr("2001:db8::/32")', true],
    ['cidr("2001:db8:1::/32").masked() == cidr("2001:db8::/32")', true],
    ['cidr("2001:db8::/32").prefixLength()', 32n],
    ['string(cidr("192.168.0.0/24"))', '192.168.0.0/24'],
    ['type(cidr("192.168.0.0/24")) == net.CIDR', true],
  ])('%s is %s', (expression, result) => {
    expect(evaluate(expression)).toEqual(result);
  });

  it('cidr takes only a string, and isIP no network (compile errors)', () => {
    expect(compileError('cidr(192168)')).toBe("ERROR: <input>:1:5: found no matching overload for 'cidr' applied to '(int)'");
    expect(compileError('isIP(cidr("192.168.0.0/24"))')).toBe("ERROR: <input>:1:5: found no matching overload for 'isIP' applied to '(net.CIDR)'");
  });
});

describe('containment across families and from strings', () => {
  it.each([
    ["cidr('0.0.0.0/0').containsIP(ip('::1'))", false],
    ["cidr('::/0').containsIP(ip('10.0.0.1'))", false],
    ["cidr('::/0').containsCIDR(cidr('10.0.0.0/8'))", false],
    ["cidr('10.0.0.0/8').containsCIDR(cidr('::/0'))", false],
    ["cidr('10.0.0.0/8').containsCIDR('10.1.0.0/16')", true],
    ["cidr('10.0.0.0/8').containsCIDR('10.0.0.0/8')", true],
    ["cidr('10.1.2.3/8').containsIP('10.200.0.1')", true],
    ["cidr('10.0.0.0/0').containsIP('192.168.0.1')", true],
  ])('%s is %s', (expression, result) => {
    expect(evaluate(expression)).toBe(result);
  });

  // cidr.go passes the failed parse to the net.IP overload, which answers a non-IP argument with a
  // new "no such overload": the parse error's text does not reach the user.
  it("containsIP with an invalid string is cel-go's no such overload", () => {
    expect(errorOf("cidr('10.0.0.0/8').containsIP('10.0.0.256')")).toBe('no such overload');
  });

  // The CIDR overload passes the parse error on.
  it('containsCIDR with an invalid string is the parse error', () => {
    expect(errorOf("cidr('10.0.0.0/8').containsCIDR('10.0.0.0/33')")).toBe(parseError('netip.ParsePrefix("10.0.0.0/33"): prefix length out of range'));
  });
});

describe('registration', () => {
  it('the CIDR library needs the IP library first, as its functions take and return net.IP', () => {
    const { Environment } = celModule();
    const alone = new Environment({ enableOptionalTypes: true, homogeneousAggregateLiterals: true });
    expect(() => registerCidr(alone)).toThrow(/registerIp\(env\) before registerCidr\(env\)/);
  });
});
