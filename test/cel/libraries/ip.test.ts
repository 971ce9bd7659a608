import { check, compileError as compileErrorOf, compileErrorLine, errorOf, evaluate } from './helpers';
import { loadCel } from '../../../lib/cel';

beforeAll(loadCel);

// The IP library of k8s.io/apiserver/pkg/cel/library/ip.go. Examples come from its godoc, the
// "CEL in Kubernetes" page (kubernetes.io/docs/reference/using-api/cel/) and ip_test.go.

const compileError = compileErrorLine;

describe('kubernetes.io "Kubernetes IP address library" examples', () => {
  it.each([
    ["isIP('127.0.0.1')", true],
    ["ip('127.0.0.1').family() == 4", true],
    ["ip('::1').isLoopback()", true],
    ["ip('192.168.0.1').isGlobalUnicast()", true],
  ])('%s is %s', (expression, result) => {
    expect(evaluate(expression)).toBe(result);
  });

  // The page writes `ip('2001:db8::abcd').isCanonical()`, but ip.go declares only the global
  // `ip.isCanonical(string)`: kube rejects the member form when compiling, and so do we.
  it.each(["ip('2001:db8::abcd').isCanonical()", "ip('2001:DB8::ABCD').isCanonical()"])('%s does not compile, as in kube', (expression) => {
    expect(check(expression).valid).toBe(false);
  });

  // cel-go knows only `ip.isCanonical`, so a member `isCanonical` is undeclared, reported at the call's
  // `(` (parser.go VisitMemberCall locates a member call at its open parenthesis).
  it("the member form's compile error has cel-go's text", () => {
    expect(compileError("ip('2001:db8::abcd').isCanonical()")).toBe("ERROR: <input>:1:33: undeclared reference to 'isCanonical' (in container '')");
  });
});

describe('ip and isIP (ip.go godoc)', () => {
  it.each([
    ["ip('127.0.0.1')", '127.0.0.1'],
    ["ip('::1')", '::1'],
  ])('%s returns an address', (expression, text) => {
    expect(evaluate(`string(${expression})`)).toBe(text);
    expect(evaluate(`type(${expression}) == net.IP`)).toBe(true);
  });

  it.each([
    ["isIP('127.0.0.1')", true],
    ["isIP('::1')", true],
    ["isIP('127.0.0.256')", false],
    ["isIP(':::1')", false],
  ])('%s is %s', (expression, result) => {
    expect(evaluate(expression)).toBe(result);
  });

  it.each([
    ["ip('127.0.0.256')", 'IP Address "127.0.0.256" parse error during conversion from string: ParseAddr("127.0.0.256"): IPv4 field has value >255'],
    [
      "ip(':::1')",
      'IP Address ":::1" parse error during conversion from string: ParseAddr(":::1"): each colon-separated field must have at least one digit (at ":1")',
    ],
    // ip_test.go
    ["ip('192.168.0.1.0')", 'IP Address "192.168.0.1.0" parse error during conversion from string: ParseAddr("192.168.0.1.0"): IPv4 address too long'],
    [
      "ip('2001:db8:::68')",
      'IP Address "2001:db8:::68" parse error during conversion from string: ParseAddr("2001:db8:::68"): each colon-separated field must have at least one digit (at ":68")',
    ],
  ])('%s is an error', (expression, message) => {
    expect(errorOf(expression)).toBe(message);
  });
});

describe("kube's parsing rules (netip.ParseAddr, then no zone and no IPv4-mapped IPv6)", () => {
  it.each([
    ['01.2.3.4', 'ParseAddr("01.2.3.4"): IPv4 field has octet with leading zero'],
    ['1.2.3', 'ParseAddr("1.2.3"): IPv4 address too short'],
    ['1..2.3', 'ParseAddr("1..2.3"): IPv4 field must have at least one digit (at ".2.3")'],
    ['1.2.3.4 ', 'ParseAddr("1.2.3.4 "): unexpected character (at " ")'],
    ['', 'ParseAddr(""): unable to parse IP'],
    ['localhost', 'ParseAddr("localhost"): unable to parse IP'],
    ['%eth0', 'ParseAddr("%eth0"): missing IPv6 address'],
    ['fe80::1%', 'ParseAddr("fe80::1%"): zone must be a non-empty string'],
    ['12345::', 'ParseAddr("12345::"): each group must have 4 or less digits (at "12345::")'],
    ['1:2:3:4:5:6:7:8:9', 'ParseAddr("1:2:3:4:5:6:7:8:9"): trailing garbage after address (at "9")'],
    ['1:2:3:4:5:6:7', 'ParseAddr("1:2:3:4:5:6:7"): address string too short'],
    ['1::2::3', 'ParseAddr("1::2::3"): multiple :: in address (at ":3")'],
    ['1:2:3:4::5:6:7:8', 'ParseAddr("1:2:3:4::5:6:7:8"): the :: must expand to at least one field of zeros'],
    ['1:2:', 'ParseAddr("1:2:"): colon must be followed by more characters (at ":")'],
    ['1:2x', 'ParseAddr("1:2x"): unexpected character, want colon (at "x")'],
    ['1:2:3:4:5:1.2.3.4', 'ParseAddr("1:2:3:4:5:1.2.3.4"): embedded IPv4 address must replace the final 2 fields of the address (at "1.2.3.4")'],
    // An embedded IPv4 is checked as Go 1.22+ checks it: the message names the whole input.
    ['::1.2.3.256', 'ParseAddr("::1.2.3.256"): IPv4 field has value >255'],
    ['::1.2.3.04', 'ParseAddr("::1.2.3.04"): IPv4 field has octet with leading zero'],
  ])("ip(%j) fails with ParseAddr's text", (raw, parseError) => {
    expect(errorOf(`ip(${JSON.stringify(raw)})`)).toBe(`IP Address ${JSON.stringify(raw)} parse error during conversion from string: ${parseError}`);
    expect(evaluate(`isIP(${JSON.stringify(raw)})`)).toBe(false);
  });

  it('an IPv6 zone is refused', () => {
    expect(errorOf("ip('fe80::1%eth0')")).toBe('IP address "fe80::1%eth0" with zone value is not allowed');
    expect(evaluate("isIP('fe80::1%eth0')")).toBe(false);
  });

  it('an IPv4-mapped IPv6 address is refused', () => {
    expect(errorOf("ip('::ffff:1.2.3.4')")).toBe('IPv4-mapped IPv6 address "::ffff:1.2.3.4" is not allowed');
    expect(evaluate("isIP('::ffff:c0a8:1')")).toBe(false);
  });

  it('other IPv6 spellings are accepted and printed canonically', () => {
    expect(evaluate("string(ip('2001:DB8:0:0:0:0:0:ABCD'))")).toBe('2001:db8::abcd');
    expect(evaluate("string(ip('::1.2.3.4'))")).toBe('::102:304');
    expect(evaluate("string(ip('1:0:0:1:0:0:0:1'))")).toBe('1:0:0:1::1');
    expect(evaluate("string(ip('1:0:0:0:1:0:0:1'))")).toBe('1::1:0:0:1');
    expect(evaluate("string(ip('0001:0:0:1:0:0:0:0'))")).toBe('1:0:0:1::');
    expect(evaluate("string(ip('1:2:3:4:5:6:7:0'))")).toBe('1:2:3:4:5:6:7:0');
  });
});

describe('ip.isCanonical (ip.go godoc)', () => {
  it.each([
    ["ip.isCanonical('127.0.0.1')", true],
    ["ip.isCanonical('2001:db8::abcd')", true],
    ["ip.isCanonical('2001:DB8::ABCD')", false],
    ["ip.isCanonical('2001:db8::0:0:0:abcd')", false],
    // ip_test.go
    ["ip.isCanonical('2001:db8::68')", true],
    ["ip.isCanonical('2001:DB8::68')", false],
  ])('%s is %s', (expression, result) => {
    expect(evaluate(expression)).toBe(result);
  });

  it('an invalid address is an error, not false', () => {
    expect(errorOf("ip.isCanonical('127.0.0.1.0')")).toBe(
      'IP Address "127.0.0.1.0" parse error during conversion from string: ParseAddr("127.0.0.1.0"): IPv4 address too long',
    );
    expect(errorOf("ip.isCanonical('2001:db8:::68')")).toBe(
      'IP Address "2001:db8:::68" parse error during conversion from string: ParseAddr("2001:db8:::68"): each colon-separated field must have at least one digit (at ":68")',
    );
  });
});

describe('family and the address classes (ip.go godoc)', () => {
  it.each([
    ["ip('127.0.0.1').family()", 4n],
    ["ip('::1').family()", 6n],
    ["ip('127.0.0.1').family() == 4", true],
    ["ip('::1').family() == 6", true],
    ["ip('0.0.0.0').isUnspecified()", true],
    ["ip('127.0.0.1').isUnspecified()", false],
    ["ip('::').isUnspecified()", true],
    ["ip('::1').isUnspecified()", false],
    ["ip('127.0.0.1').isLoopback()", true],
    ["ip('192.168.0.1').isLoopback()", false],
    ["ip('::1').isLoopback()", true],
    ["ip('2001:db8::abcd').isLoopback()", false],
    ["ip('224.0.0.1').isLinkLocalMulticast()", true],
    ["ip('224.0.1.1').isLinkLocalMulticast()", false],
    ["ip('ff02::1').isLinkLocalMulticast()", true],
    ["ip('fd00::1').isLinkLocalMulticast()", false],
    ["ip('169.254.169.254').isLinkLocalUnicast()", true],
    ["ip('192.168.0.1').isLinkLocalUnicast()", false],
    ["ip('fe80::1').isLinkLocalUnicast()", true],
    ["ip('fd80::1').isLinkLocalUnicast()", false],
    ["ip('192.168.0.1').isGlobalUnicast()", true],
    ["ip('255.255.255.255').isGlobalUnicast()", false],
    ["ip('2001:db8::abcd').isGlobalUnicast()", true],
    ["ip('ff00::1').isGlobalUnicast()", false],
    // ip_test.go, and Go's netip rules at their edges.
    ["ip('1.2.3.4').isLoopback()", false],
    ["ip('127.255.255.254').isLoopback()", true],
    ["ip('ff12::1').isLinkLocalMulticast()", true],
    ["ip('ff03::1').isLinkLocalMulticast()", false],
    ["ip('febf::1').isLinkLocalUnicast()", true],
    ["ip('fec0::1').isLinkLocalUnicast()", false],
    ["ip('0.0.0.0').isGlobalUnicast()", false],
    ["ip('10.0.0.1').isGlobalUnicast()", true],
    ["ip('224.0.0.1').isGlobalUnicast()", false],
    ["ip('169.254.1.1').isGlobalUnicast()", false],
    ["ip('::').isGlobalUnicast()", false],
    ["ip('fe80::1').isGlobalUnicast()", false],
    ["ip('fd00::1').isGlobalUnicast()", true],
  ])('%s is %s', (expression, result) => {
    expect(evaluate(expression)).toBe(result);
  });
});

describe('string, equality and the type (pkg/cel/ip.go)', () => {
  it('string(ip) is the canonical form (ip_test.go)', () => {
    expect(evaluate("string(ip('192.168.0.1'))")).toBe('192.168.0.1');
  });

  it('type(ip) is net.IP (ip_test.go)', () => {
    expect(evaluate("type(ip('192.168.0.1')) == net.IP")).toBe(true);
    expect(evaluate("type(ip('192.168.0.1')) == string")).toBe(false);
  });

  it.each([
    ["ip('::1') == ip('0:0:0:0:0:0:0:1')", true],
    ["ip('127.0.0.1') == ip('127.0.0.1')", true],
    ["ip('127.0.0.1') != ip('127.0.0.2')", true],
    ["ip('::1') == ip('::2')", false],
    ["[ip('10.0.0.1')] == [ip('10.0.0.1')]", true],
    ["ip('10.0.0.1') in [ip('10.0.0.2'), ip('10.0.0.1')]", true],
  ])('%s is %s', (expression, result) => {
    expect(evaluate(expression)).toBe(result);
  });

  it('functions take only their declared types (ip_test.go shows the same for net.CIDR)', () => {
    expect(compileError('isIP(1)')).toBe("ERROR: <input>:1:5: found no matching overload for 'isIP' applied to '(int)'");
    expect(compileError("ip('::1').family(1)")).toMatch(/found no matching overload for 'family'/);
  });

  // cel-js has no qualified function names, so `ip` is a constant there (lib/cel/libraries/namespace.ts);
  // to cel-go's checker (checker.go `checkCall`, `checkSelect`) it is no identifier.
  it('`ip` alone is an undeclared reference, as in cel-go', () => {
    expect(compileError('ip == ip')).toBe("ERROR: <input>:1:1: undeclared reference to 'ip' (in container '')");
    expect(compileErrorOf('ip == ip')?.split('\n')[3]).toBe("ERROR: <input>:1:7: undeclared reference to 'ip' (in container '')");
    // Where cel-js would accept it, the expression is still refused, as kube refuses it.
    expect(compileError('[ip].size() == 1')).toBe("ERROR: <input>:1:2: undeclared reference to 'ip' (in container '')");
    expect(compileError('ip.family() == 4')).toBe("ERROR: <input>:1:1: undeclared reference to 'ip' (in container '')");
    expect(
      compileErrorOf("ip.nope('x')")
        ?.split('\n')
        .filter((line) => line.startsWith('ERROR')),
    ).toEqual(["ERROR: <input>:1:1: undeclared reference to 'ip' (in container '')", "ERROR: <input>:1:8: undeclared reference to 'nope' (in container '')"]);
    // An iteration variable of that name is a variable like any other.
    expect(evaluate('[4, 6].all(ip, ip % 2 == 0)')).toBe(true);
  });

  it('a wrongly typed ip.isCanonical call names the function as cel-go does', () => {
    expect(compileError('ip.isCanonical(1)')).toBe("ERROR: <input>:1:15: found no matching overload for 'ip.isCanonical' applied to '(int)'");
    expect(compileError("ip.isCanonical('::1', 1)")).toBe("ERROR: <input>:1:15: found no matching overload for 'ip.isCanonical' applied to '(string, int)'");
  });
});
