/**
 * IP address properties Service validation checks (core validation ValidateNonSpecialIP, netutils
 * IsIPv6String, IsDualStackIPStrings), over Go's sloppy parser's accepted forms.
 */
import { isIP } from '../../kube/value-formats';

/** The 16 bytes of an IP netutils.ParseIPSloppy accepts (IPv4 as ::ffff:a.b.c.d), or undefined. */
export function ipBytes(value: string): number[] | undefined {
  if (!isIP(value)) return undefined;
  if (!value.includes(':')) return [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...value.split('.').map(Number)];
  let text = value;
  let tail: number[] = [];
  if (text.includes('.')) {
    const at = text.lastIndexOf(':');
    tail = text
      .slice(at + 1)
      .split('.')
      .map(Number);
    const [a = 0, b = 0, c = 0, d = 0] = tail;
    text = `${text.slice(0, at + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = rest === undefined || rest === '' ? [] : rest.split(':');
  const groups = rest === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.flatMap((group) => {
    const n = parseInt(group, 16);
    return [n >> 8, n & 0xff];
  });
}

/** Whether the address is IPv4 (including IPv4-mapped IPv6, as Go's To4 sees it). */
export function isIPv4(value: string): boolean {
  const bytes = ipBytes(value);
  if (bytes === undefined) return false;
  return bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
}

/** netutils.IsIPv6String. */
export function isIPv6String(value: string): boolean {
  return ipBytes(value) !== undefined && !isIPv4(value);
}

/** netutils.IsDualStackIPStrings: one address of each family. */
export function isDualStack(values: readonly string[]): boolean {
  const v4 = values.filter(isIPv4).length;
  const v6 = values.filter(isIPv6String).length;
  return v4 > 0 && v6 > 0;
}

/** ValidateNonSpecialIP's messages (after the address parsed). */
export function specialIPMessages(value: string): string[] {
  const bytes = ipBytes(value);
  if (!bytes) return ['must be a valid IP address'];
  const v4 = isIPv4(value);
  const b = v4 ? bytes.slice(12) : bytes;
  const messages: string[] = [];
  const unspecified = b.every((x) => x === 0);
  const loopback = v4 ? b[0] === 127 : b.slice(0, 15).every((x) => x === 0) && b[15] === 1;
  const linkLocalUnicast = v4 ? b[0] === 169 && b[1] === 254 : b[0] === 0xfe && ((b[1] ?? 0) & 0xc0) === 0x80;
  const linkLocalMulticast = v4 ? b[0] === 224 && b[1] === 0 && b[2] === 0 : b[0] === 0xff && ((b[1] ?? 0) & 0x0f) === 0x02;
  if (unspecified) messages.push(`may not be unspecified (${value})`);
  if (loopback) messages.push('may not be in the loopback range (127.0.0.0/8, ::1/128)');
  if (linkLocalUnicast) messages.push('may not be in the link-local range (169.254.0.0/16, fe80::/10)');
  if (linkLocalMulticast) messages.push('may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)');
  return messages;
}
