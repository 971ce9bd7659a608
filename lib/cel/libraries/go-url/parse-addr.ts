/** netip.ParseAddr, for url.go's check that a bracketed host is an IPv6 address. */
import { goQuoteBytes } from '../go-format';
import { GoUrlError } from './url';

function addrError(input: string, message: string, at?: string): GoUrlError {
  const text = `ParseAddr(${goQuoteBytes(input)}): ${message}${at ? ` (at ${goQuoteBytes(at)})` : ''}`;
  return new GoUrlError(`invalid host: ${text}`);
}

/** netip.ParseAddr: 4 or 6 for a valid address; throws `invalid host: ParseAddr(...)` otherwise. */
export function parseAddr(s: string): 4 | 6 {
  for (const ch of s) {
    if (ch === '.') {
      parseIPv4(s, s);
      return 4;
    }
    if (ch === ':') {
      parseIPv6(s);
      return 6;
    }
    if (ch === '%') throw addrError(s, 'missing IPv6 address');
  }
  throw addrError(s, 'unable to parse IP');
}

/** netip parseIPv4; `input` is the string handed to ParseAddr (an IPv6 address with an embedded IPv4). */
function parseIPv4(s: string, input: string): void {
  let val = 0;
  let pos = 0;
  let digits = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i] ?? '';
    if (c >= '0' && c <= '9') {
      if (digits === 1 && val === 0) throw addrError(input, 'IPv4 field has octet with leading zero');
      val = val * 10 + Number(c);
      digits++;
      if (val > 255) throw addrError(input, 'IPv4 field has value >255');
    } else if (c === '.') {
      if (i === 0 || i === s.length - 1 || s[i - 1] === '.') throw addrError(input, 'IPv4 field must have at least one digit', s.slice(i));
      if (pos === 3) throw addrError(input, 'IPv4 address too long');
      pos++;
      val = 0;
      digits = 0;
    } else {
      throw addrError(input, 'unexpected character', s.slice(i));
    }
  }
  if (pos < 3) throw addrError(input, 'IPv4 address too short');
}

/** netip parseIPv6. */
function parseIPv6(input: string): void {
  let s = input;
  const percent = s.indexOf('%');
  if (percent >= 0) {
    if (percent === s.length - 1) throw addrError(input, 'zone must be a non-empty string');
    s = s.slice(0, percent);
  }
  let ellipsis = -1;
  if (s.startsWith('::')) {
    ellipsis = 0;
    s = s.slice(2);
    if (s === '') return;
  }
  let i = 0;
  while (i < 16) {
    let off = 0;
    let acc = 0;
    while (off < s.length && /[0-9a-fA-F]/.test(s[off] ?? '')) {
      acc = acc * 16 + parseInt(s[off] ?? '0', 16);
      off++;
      if (acc > 0xffff) throw addrError(input, 'IPv6 field has value >=2^16', s);
    }
    if (off === 0) throw addrError(input, 'each colon-separated field must have at least one digit', s);
    if (s[off] === '.') {
      if (ellipsis < 0 && i !== 12) throw addrError(input, 'embedded IPv4 address must replace the final 2 fields of the address', s);
      if (i + 4 > 16) throw addrError(input, 'too many hex fields to fit an embedded IPv4 at the end of the address', s);
      try {
        parseIPv4(s, s);
      } catch (error) {
        if (!(error instanceof GoUrlError)) throw error;
        // netip wraps the IPv4 error text (itself a ParseAddr error) as the message.
        throw addrError(input, error.message.replace(/^invalid host: /, ''), s);
      }
      s = '';
      i += 4;
      break;
    }
    i += 2;
    s = s.slice(off);
    if (s === '') break;
    if (s[0] !== ':') throw addrError(input, 'unexpected character, want colon', s);
    if (s.length === 1) throw addrError(input, 'colon must be followed by more characters', s);
    s = s.slice(1);
    if (s[0] === ':') {
      if (ellipsis >= 0) throw addrError(input, 'multiple :: in address', s);
      ellipsis = i;
      s = s.slice(1);
      if (s === '') break;
    }
  }
  if (s !== '') throw addrError(input, 'trailing garbage after address', s);
  if (i < 16 && ellipsis < 0) throw addrError(input, 'address string too short');
  if (i >= 16 && ellipsis >= 0) throw addrError(input, 'the :: must expand to at least one field of zeros');
}
