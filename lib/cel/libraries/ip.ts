import type { Environment } from '@marcbachmann/cel-js';
import { goQuote } from '../../go/strconv';
import { CelFunctionError } from '../errors';
import { registerNamespace } from './namespace';

/*
 * The Kubernetes IP address library (k8s.io/apiserver/pkg/cel/library/ip.go, type net.IP of
 * pkg/cel/ip.go), enabled from 1.30 by pkg/cel/environment/base.go.
 *
 * Addresses are parsed by a port of Go's net/netip.ParseAddr (netip.go as of Go 1.22+), not by Node's
 * `net` module: kube's messages embed ParseAddr's error texts, and its acceptance rules are Go's.
 */

/** A netip.Addr: 4 bytes for IPv4, 16 for IPv6 (an IPv4-mapped IPv6 address stays 16 bytes). */
export class NetipAddr {
  constructor(
    readonly bytes: Uint8Array,
    readonly zone = '',
  ) {}

  is4(): boolean {
    return this.bytes.length === 4;
  }

  is6(): boolean {
    return this.bytes.length === 16;
  }

  /** Is4In6: ::ffff:0:0/96. */
  is4In6(): boolean {
    return this.is6() && this.bytes.subarray(0, 10).every((b) => b === 0) && this.bytes[10] === 0xff && this.bytes[11] === 0xff;
  }

  /** Unmap: an IPv4-mapped IPv6 address as the IPv4 address it wraps. */
  unmap(): NetipAddr {
    return this.is4In6() ? new NetipAddr(this.bytes.slice(12)) : this;
  }

  /** BitLen. */
  bitLen(): number {
    return this.bytes.length * 8;
  }

  /** The `==` of two netip.Addr values: same family, bits and zone. */
  equals(other: NetipAddr): boolean {
    return this.bytes.length === other.bytes.length && this.zone === other.zone && this.bytes.every((b, i) => b === other.bytes[i]);
  }

  /** Addr.String: dotted quad, RFC 5952 IPv6 (longest run of two or more zero fields elided, the first one on a tie). */
  toString(): string {
    if (this.is4()) return this.bytes.join('.');
    const zone = this.zone === '' ? '' : `%${this.zone}`;
    if (this.is4In6()) return `::ffff:${this.bytes.subarray(12).join('.')}${zone}`;
    const fields = Array.from({ length: 8 }, (_, i) => ((this.bytes[2 * i] ?? 0) << 8) | (this.bytes[2 * i + 1] ?? 0));
    let zeroStart = -1;
    let zeroEnd = -1;
    for (let i = 0; i < 8; i++) {
      let j = i;
      while (j < 8 && fields[j] === 0) j++;
      if (j - i >= 2 && j - i > zeroEnd - zeroStart) [zeroStart, zeroEnd] = [i, j];
    }
    let out = '';
    for (let i = 0; i < 8; i++) {
      if (i === zeroStart) {
        out += '::';
        i = zeroEnd;
        if (i >= 8) break;
      } else if (i > 0) {
        out += ':';
      }
      out += (fields[i] ?? 0).toString(16);
    }
    return out + zone;
  }

  isUnspecified(): boolean {
    return this.zone === '' && this.bytes.every((b) => b === 0);
  }

  isLoopback(): boolean {
    const ip = this.unmap();
    if (ip.is4()) return ip.bytes[0] === 127;
    return ip.bytes.subarray(0, 15).every((b) => b === 0) && ip.bytes[15] === 1;
  }

  isMulticast(): boolean {
    const ip = this.unmap();
    if (ip.is4()) return ((ip.bytes[0] ?? 0) & 0xf0) === 0xe0;
    return ip.bytes[0] === 0xff;
  }

  isLinkLocalMulticast(): boolean {
    const ip = this.unmap();
    if (ip.is4()) return ip.bytes[0] === 224 && ip.bytes[1] === 0 && ip.bytes[2] === 0;
    return ip.bytes[0] === 0xff && ((ip.bytes[1] ?? 0) & 0x0f) === 0x02;
  }

  isLinkLocalUnicast(): boolean {
    const ip = this.unmap();
    if (ip.is4()) return ip.bytes[0] === 169 && ip.bytes[1] === 254;
    return ip.bytes[0] === 0xfe && ((ip.bytes[1] ?? 0) & 0xc0) === 0x80;
  }

  /** IsGlobalUnicast: net's rule, so private IPv4 and unique-local IPv6 addresses count. */
  isGlobalUnicast(): boolean {
    const ip = this.unmap();
    if (ip.is4() && (ip.bytes.every((b) => b === 0) || ip.bytes.every((b) => b === 255))) return false;
    if (ip.is6() && ip.zone === '' && ip.bytes.every((b) => b === 0)) return false;
    return !ip.isLoopback() && !ip.isMulticast() && !ip.isLinkLocalUnicast();
  }
}

/** A ParseAddr failure: the text of Go's parseAddrError. */
export interface AddrParseFailure {
  readonly error: string;
}

export type AddrParseResult = NetipAddr | AddrParseFailure;

/** How ParseAddr quotes its input (`%q`); a caller holding Go bytes (one per char) passes a byte-wise one. */
export type GoQuoter = (s: string) => string;

const HEX_VALUE = (c: string | undefined): number => {
  if (c === undefined || c.length !== 1) return -1;
  const code = c.charCodeAt(0);
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (code >= 0x61 && code <= 0x66) return code - 0x61 + 10;
  if (code >= 0x41 && code <= 0x46) return code - 0x41 + 10;
  return -1;
};

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

/**
 * netip.ParseAddr. Every character it looks for is ASCII, so indexing UTF-16 units finds the same
 * places as Go's byte indexes, and the `at` remainders are the same text.
 */
export function parseAddr(s: string, quote: GoQuoter = goQuote): AddrParseResult {
  const fail = (msg: string, at = ''): AddrParseFailure => ({
    error: `ParseAddr(${quote(s)}): ${msg}${at === '' ? '' : ` (at ${quote(at)})`}`,
  });
  for (const c of s) {
    if (c === '.') return parseIPv4(s, fail);
    if (c === ':') return parseIPv6(s, fail);
    // A zone without an address.
    if (c === '%') return fail('missing IPv6 address');
  }
  return fail('unable to parse IP');
}

type Fail = (msg: string, at?: string) => AddrParseFailure;

/** parseIPv4Fields: decimal octets without leading zeros; `part` is the dotted text, errors name the whole input. */
function parseIPv4Fields(part: string, fail: Fail): number[] | AddrParseFailure {
  const fields: number[] = [];
  let val = 0;
  let digits = 0;
  for (let i = 0; i < part.length; i++) {
    const c = part[i];
    if (isDigit(c)) {
      if (digits === 1 && val === 0) return fail('IPv4 field has octet with leading zero');
      val = val * 10 + Number(c);
      digits++;
      if (val > 255) return fail('IPv4 field has value >255');
    } else if (c === '.') {
      if (i === 0 || i === part.length - 1 || part[i - 1] === '.') return fail('IPv4 field must have at least one digit', part.slice(i));
      if (fields.length === 3) return fail('IPv4 address too long');
      fields.push(val);
      val = 0;
      digits = 0;
    } else {
      return fail('unexpected character', part.slice(i));
    }
  }
  if (fields.length < 3) return fail('IPv4 address too short');
  fields.push(val);
  return fields;
}

function parseIPv4(s: string, fail: Fail): AddrParseResult {
  const fields = parseIPv4Fields(s, fail);
  return Array.isArray(fields) ? new NetipAddr(Uint8Array.from(fields)) : fields;
}

function parseIPv6(input: string, fail: Fail): AddrParseResult {
  let s = input;
  let zone = '';
  const percent = s.indexOf('%');
  if (percent !== -1) {
    zone = s.slice(percent + 1);
    s = s.slice(0, percent);
    if (zone === '') return fail('zone must be a non-empty string');
  }
  const ip = new Uint8Array(16);
  let ellipsis = -1;
  if (s.startsWith('::')) {
    ellipsis = 0;
    s = s.slice(2);
    if (s === '') return new NetipAddr(ip, zone);
  }
  let i = 0;
  while (i < 16) {
    let off = 0;
    let acc = 0;
    for (; off < s.length; off++) {
      const v = HEX_VALUE(s[off]);
      if (v < 0) break;
      acc = acc * 16 + v;
      if (off > 3) return fail('each group must have 4 or less digits', s);
      if (acc > 0xffff) return fail('IPv6 field has value >=2^16', s);
    }
    if (off === 0) return fail('each colon-separated field must have at least one digit', s);
    if (off < s.length && s[off] === '.') {
      if (ellipsis < 0 && i !== 12) return fail('embedded IPv4 address must replace the final 2 fields of the address', s);
      if (i + 4 > 16) return fail('too many hex fields to fit an embedded IPv4 at the end of the address', s);
      const fields = parseIPv4Fields(s, fail);
      if (!Array.isArray(fields)) return fields;
      ip.set(fields, i);
      s = '';
      i += 4;
      break;
    }
    ip[i] = acc >> 8;
    ip[i + 1] = acc & 0xff;
    i += 2;
    s = s.slice(off);
    if (s === '') break;
    if (s[0] !== ':') return fail('unexpected character, want colon', s);
    if (s.length === 1) return fail('colon must be followed by more characters', s);
    s = s.slice(1);
    if (s[0] === ':') {
      if (ellipsis >= 0) return fail('multiple :: in address', s);
      ellipsis = i;
      s = s.slice(1);
      if (s === '') break;
    }
  }
  if (s !== '') return fail('trailing garbage after address', s);
  if (i < 16) {
    if (ellipsis < 0) return fail('address string too short');
    const n = 16 - i;
    ip.copyWithin(ellipsis + n, ellipsis, i);
    ip.fill(0, ellipsis, ellipsis + n);
  } else if (ellipsis >= 0) {
    return fail('the :: must expand to at least one field of zeros');
  }
  return new NetipAddr(ip, zone);
}

export const isParseFailure = (result: AddrParseResult): result is AddrParseFailure => !(result instanceof NetipAddr);

/** ip.go `parseIPAddr`: ParseAddr, then no zone and no IPv4-mapped IPv6 address. */
function parseIPAddr(raw: string): NetipAddr | string {
  const addr = parseAddr(raw);
  if (isParseFailure(addr)) return `IP Address ${goQuote(raw)} parse error during conversion from string: ${addr.error}`;
  if (addr.zone !== '') return `IP address ${goQuote(raw)} with zone value is not allowed`;
  if (addr.is4In6()) return `IPv4-mapped IPv6 address ${goQuote(raw)} is not allowed`;
  return addr;
}

/** A CEL `net.IP` value (apiservercel.IP). */
export class IPValue {
  constructor(readonly addr: NetipAddr) {}
}

/** ip.go `stringToIP`: the value, or the error cel-go's function returns (a CelFunctionError when thrown). */
export function stringToIP(raw: string): IPValue | CelFunctionError {
  const addr = parseIPAddr(raw);
  return typeof addr === 'string' ? new CelFunctionError(addr) : new IPValue(addr);
}

export const IP_TYPE = 'net.IP';

// `ip.isCanonical` is a namespaced global function in cel-go; cel-js has none, so `ip` is a namespace
// constant with the function as a member (namespace.ts).

// `net.IP` and `net.CIDR` name their types in expressions (`type(x) == net.IP`): ip.go registers
// the type with cel.Types, cidr.go declares `net.CIDR` as a variable of type type(net.CIDR). cel-js
// has no qualified identifiers, so `net` is a constant whose fields hold the type values. kube enables
// both libraries together (base.go 1.30), so the constant has both fields; cidr.ts fills its own.
const NET_TYPES_TYPE = 'kubernetes.net.Types';
export class NetTypes {
  IP: unknown;
  CIDR: unknown;
}
const netTypes = new WeakMap<Environment, NetTypes>();

/** The `net` constant of an environment with the IP library, whose CIDR field cidr.ts fills. */
export function netTypesOf(env: Environment): NetTypes {
  const types = netTypes.get(env);
  if (!types) throw new Error('the CIDR library needs the IP library: call registerIp(env) before registerCidr(env)');
  return types;
}

/** Registers the net.IP type and the kubernetes.net.ip library functions of ip.go. */
export function registerIp(env: Environment): void {
  const sync = { async: false };
  const types = new NetTypes();
  registerNamespace(env, 'ip');
  env
    .registerType(IP_TYPE, { ctor: IPValue, fields: {} })
    .registerType(NET_TYPES_TYPE, { ctor: NetTypes, fields: { IP: 'type', CIDR: 'type' } })
    .registerConstant('net', NET_TYPES_TYPE, types)
    .registerFunction(
      `ip(string): ${IP_TYPE}`,
      (raw: string) => {
        const ip = stringToIP(raw);
        if (ip instanceof CelFunctionError) throw ip;
        return ip;
      },
      sync,
    )
    .registerFunction('isIP(string): bool', (raw: string) => typeof parseIPAddr(raw) !== 'string', sync)
    // Addr.String is the one canonical spelling, so a string is canonical when it prints back as itself.
    .registerFunction(
      'ip.isCanonical(string): bool',
      (_: unknown, raw: string) => {
        const addr = parseIPAddr(raw);
        if (typeof addr === 'string') throw new CelFunctionError(addr);
        return addr.toString() === raw;
      },
      sync,
    )
    // Every parsed address is IPv4 or IPv6, so ip.go's third case cannot happen.
    .registerFunction(`${IP_TYPE}.family(): int`, (ip: IPValue) => (ip.addr.is4() ? 4n : 6n), sync)
    .registerFunction(`${IP_TYPE}.isUnspecified(): bool`, (ip: IPValue) => ip.addr.isUnspecified(), sync)
    .registerFunction(`${IP_TYPE}.isLoopback(): bool`, (ip: IPValue) => ip.addr.isLoopback(), sync)
    .registerFunction(`${IP_TYPE}.isLinkLocalMulticast(): bool`, (ip: IPValue) => ip.addr.isLinkLocalMulticast(), sync)
    .registerFunction(`${IP_TYPE}.isLinkLocalUnicast(): bool`, (ip: IPValue) => ip.addr.isLinkLocalUnicast(), sync)
    .registerFunction(`${IP_TYPE}.isGlobalUnicast(): bool`, (ip: IPValue) => ip.addr.isGlobalUnicast(), sync)
    .registerFunction(`string(${IP_TYPE}): string`, (ip: IPValue) => ip.addr.toString(), sync)
    // pkg/cel/ip.go `Equal`: netip.Addr `==`.
    .registerOperator(`${IP_TYPE} == ${IP_TYPE}`, (a: IPValue, b: IPValue) => a.addr.equals(b.addr));
  types.IP = env.evaluate(`type(ip('0.0.0.0'))`);
  netTypes.set(env, types);
}
