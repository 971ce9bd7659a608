import type { Environment } from '@marcbachmann/cel-js';
import { goQuote } from '../../go/strconv';
import { CelFunctionError } from '../errors';
import { IP_TYPE, IPValue, NetipAddr, isParseFailure, netTypesOf, parseAddr, stringToIP } from './ip';

/*
 * The Kubernetes CIDR library (k8s.io/apiserver/pkg/cel/library/cidr.go, type net.CIDR of
 * pkg/cel/cidr.go), enabled with the IP library from 1.30 (pkg/cel/environment/base.go). Prefixes
 * are parsed as Go's netip.ParsePrefix parses them, by hand for its exact acceptance and texts.
 */

/** A netip.Prefix: an address (host bits kept, as ParsePrefix keeps them) and a prefix length. */
export class NetipPrefix {
  constructor(
    readonly addr: NetipAddr,
    readonly bits: number,
  ) {}

  /** Masked: the address with the bits after the prefix cleared. */
  masked(): NetipPrefix {
    return new NetipPrefix(maskAddr(this.addr, this.bits), this.bits);
  }

  /** Contains: same family, and the first `bits` bits agree. */
  contains(ip: NetipAddr): boolean {
    if (ip.zone !== '' || ip.bitLen() !== this.addr.bitLen()) return false;
    return maskAddr(ip, this.bits).equals(maskAddr(this.addr, this.bits));
  }

  /** The `==` of two netip.Prefix values. */
  equals(other: NetipPrefix): boolean {
    return this.bits === other.bits && this.addr.equals(other.addr);
  }

  toString(): string {
    return `${this.addr.toString()}/${this.bits}`;
  }
}

function maskAddr(addr: NetipAddr, bits: number): NetipAddr {
  const bytes = addr.bytes.slice();
  for (let i = 0; i < bytes.length; i++) {
    const keep = Math.max(0, Math.min(8, bits - 8 * i));
    bytes[i] = (bytes[i] ?? 0) & ((0xff << (8 - keep)) & 0xff);
  }
  return new NetipAddr(bytes);
}

const MAX_INT = 2n ** 63n - 1n;

/** netip.ParsePrefix: `<addr>/<bits>`, no zone, bits in decimal without sign or leading zero. */
export function parsePrefix(s: string): NetipPrefix | string {
  const fail = (msg: string): string => `netip.ParsePrefix(${goQuote(s)}): ${msg}`;
  const slash = s.lastIndexOf('/');
  if (slash < 0) return fail("no '/'");
  const addr = parseAddr(s.slice(0, slash));
  if (isParseFailure(addr)) return fail(addr.error);
  if (addr.is6() && addr.zone !== '') return fail('IPv6 zones cannot be present in a prefix');
  const bitsText = s.slice(slash + 1);
  const badBits = fail(`bad bits after slash: ${goQuote(bitsText)}`);
  // ParsePrefix refuses a sign or a leading zero before strconv.Atoi, which refuses anything else.
  if (bitsText.length > 1 && !(bitsText[0] !== undefined && bitsText[0] >= '1' && bitsText[0] <= '9')) return badBits;
  if (!/^[0-9]+$/.test(bitsText) || BigInt(bitsText) > MAX_INT) return badBits;
  const bits = Number(bitsText);
  if (bits > addr.bitLen()) return fail('prefix length out of range');
  return new NetipPrefix(addr, bits);
}

/** cidr.go `parseCIDR`; its own prefix is added once more by `stringToCIDR`, as in kube. */
function parseCIDR(raw: string): NetipPrefix | string {
  const prefix = parsePrefix(raw);
  if (typeof prefix === 'string') return `network address parse error during conversion from string: ${prefix}`;
  if (prefix.addr.is4In6()) return `IPv4-mapped IPv6 address ${goQuote(raw)} is not allowed`;
  return prefix;
}

/** A CEL `net.CIDR` value (apiservercel.CIDR). */
export class CIDRValue {
  constructor(readonly prefix: NetipPrefix) {}
}

function stringToCIDR(raw: string): CIDRValue {
  const prefix = parseCIDR(raw);
  if (typeof prefix === 'string') throw new CelFunctionError(`network address parse error during conversion from string: ${prefix}`);
  return new CIDRValue(prefix);
}

/**
 * containsCIDR as fixed by kubernetes#130450 (1.33): the other network, masked to this one's length,
 * must be this network, and no wider.
 */
function containsCIDR(cidr: CIDRValue, other: CIDRValue): boolean {
  const { prefix } = cidr;
  if (prefix.addr.bitLen() !== other.prefix.addr.bitLen()) return false;
  const equalMasked = prefix.masked().equals(new NetipPrefix(other.prefix.addr, prefix.bits).masked());
  return equalMasked && prefix.bits <= other.prefix.bits;
}

export const CIDR_TYPE = 'net.CIDR';

/** Registers the net.CIDR type and the net.cidr library functions of cidr.go. Needs registerIp first. */
export function registerCidr(env: Environment): void {
  const netTypes = netTypesOf(env);
  const sync = { async: false };
  env
    .registerType(CIDR_TYPE, { ctor: CIDRValue, fields: {} })
    .registerFunction(`cidr(string): ${CIDR_TYPE}`, stringToCIDR, sync)
    .registerFunction('isCIDR(string): bool', (raw: string) => typeof parseCIDR(raw) !== 'string', sync)
    .registerFunction(`${CIDR_TYPE}.containsIP(${IP_TYPE}): bool`, (cidr: CIDRValue, ip: IPValue) => cidr.prefix.contains(ip.addr), sync)
    // cidr.go hands the parse result to the IP overload, which answers anything but an IP, the parse
    // error included, with a new "no such overload": the parse error's text is lost.
    .registerFunction(
      `${CIDR_TYPE}.containsIP(string): bool`,
      (cidr: CIDRValue, raw: string) => {
        const ip = stringToIP(raw);
        if (ip instanceof CelFunctionError) throw new CelFunctionError('no such overload');
        return cidr.prefix.contains(ip.addr);
      },
      sync,
    )
    .registerFunction(`${CIDR_TYPE}.containsCIDR(${CIDR_TYPE}): bool`, containsCIDR, sync)
    // Here the CIDR overload passes the parse error on.
    .registerFunction(`${CIDR_TYPE}.containsCIDR(string): bool`, (cidr: CIDRValue, raw: string) => containsCIDR(cidr, stringToCIDR(raw)), sync)
    .registerFunction(`${CIDR_TYPE}.ip(): ${IP_TYPE}`, (cidr: CIDRValue) => new IPValue(cidr.prefix.addr), sync)
    .registerFunction(`${CIDR_TYPE}.masked(): ${CIDR_TYPE}`, (cidr: CIDRValue) => new CIDRValue(cidr.prefix.masked()), sync)
    .registerFunction(`${CIDR_TYPE}.prefixLength(): int`, (cidr: CIDRValue) => BigInt(cidr.prefix.bits), sync)
    .registerFunction(`string(${CIDR_TYPE}): string`, (cidr: CIDRValue) => cidr.prefix.toString(), sync)
    // pkg/cel/cidr.go `Equal`: netip.Prefix `==`, so the host bits count.
    .registerOperator(`${CIDR_TYPE} == ${CIDR_TYPE}`, (a: CIDRValue, b: CIDRValue) => a.prefix.equals(b.prefix));
  netTypes.CIDR = env.evaluate(`type(cidr('0.0.0.0/0'))`);
}
