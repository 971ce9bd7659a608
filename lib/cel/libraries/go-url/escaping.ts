/** url.go's percent-encoding: which bytes each URL part escapes, escape and unescape. */
import { goQuoteBytes } from '../go-format';
import { GoUrlError } from './url';

export type Mode = 'path' | 'pathSegment' | 'host' | 'zone' | 'userPassword' | 'queryComponent' | 'fragment';

const isAlnumByte = (c: number) => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39);

/** url.go shouldEscape (RFC 3986, with Go's deviations). */
function shouldEscape(c: number, mode: Mode): boolean {
  if (isAlnumByte(c)) return false;
  const ch = String.fromCharCode(c);
  if ((mode === 'host' || mode === 'zone') && `!$&'()*+,;=:[]<>"`.includes(ch)) return false;
  switch (ch) {
    case '-':
    case '_':
    case '.':
    case '~':
      return false;
    case '$':
    case '&':
    case '+':
    case ',':
    case '/':
    case ':':
    case ';':
    case '=':
    case '?':
    case '@':
      switch (mode) {
        case 'path':
          return ch === '?';
        case 'pathSegment':
          return ch === '/' || ch === ';' || ch === ',' || ch === '?';
        case 'userPassword':
          return ch === '@' || ch === '/' || ch === '?' || ch === ':';
        case 'queryComponent':
          return true;
        case 'fragment':
          return false;
      }
  }
  if (mode === 'fragment' && '!()*'.includes(ch)) return false;
  return true;
}

const isHex = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
const unhex = (c: number) => (c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x61 + 10);

function escapeError(s: string): GoUrlError {
  return new GoUrlError(`invalid URL escape ${goQuoteBytes(s)}`);
}

/** url.go unescape. */
export function unescape(s: string, mode: Mode): string {
  let n = 0;
  let hasPlus = false;
  for (let i = 0; i < s.length; ) {
    const c = s.charCodeAt(i);
    if (c === 0x25) {
      n++;
      if (i + 2 >= s.length || !isHex(s.charCodeAt(i + 1)) || !isHex(s.charCodeAt(i + 2))) {
        throw escapeError(s.slice(i, i + 3));
      }
      // In a host, %-encoding is only for non-ASCII bytes, and %25 (RFC 6874 zones).
      if (mode === 'host' && unhex(s.charCodeAt(i + 1)) < 8 && s.slice(i, i + 3) !== '%25') throw escapeError(s.slice(i, i + 3));
      if (mode === 'zone') {
        const v = (unhex(s.charCodeAt(i + 1)) << 4) | unhex(s.charCodeAt(i + 2));
        if (s.slice(i, i + 3) !== '%25' && v !== 0x20 && shouldEscape(v, 'host')) throw escapeError(s.slice(i, i + 3));
      }
      i += 3;
    } else if (c === 0x2b) {
      hasPlus = mode === 'queryComponent';
      i++;
    } else {
      if ((mode === 'host' || mode === 'zone') && c < 0x80 && shouldEscape(c, mode)) {
        throw new GoUrlError(`invalid character ${goQuoteBytes(s[i] ?? '')} in host name`);
      }
      i++;
    }
  }
  if (n === 0 && !hasPlus) return s;
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x25) {
      out += String.fromCharCode((unhex(s.charCodeAt(i + 1)) << 4) | unhex(s.charCodeAt(i + 2)));
      i += 2;
    } else if (c === 0x2b) out += mode === 'queryComponent' ? ' ' : '+';
    else out += s[i];
  }
  return out;
}

const UPPER_HEX = '0123456789ABCDEF';

/** url.go escape. */
export function escape(s: string, mode: Mode): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x20 && mode === 'queryComponent') out += '+';
    else if (shouldEscape(c, mode)) out += `%${UPPER_HEX[c >> 4]}${UPPER_HEX[c & 15]}`;
    else out += s[i];
  }
  return out;
}

/** validEncoded: whether s needs no escaping beyond what it has (sub-delims and brackets allowed). */
export function validEncoded(s: string, mode: Mode): boolean {
  for (let i = 0; i < s.length; i++) {
    const ch = s[i] ?? '';
    if ("!$&'()*+,;=:@[]%".includes(ch)) continue;
    if (shouldEscape(s.charCodeAt(i), mode)) return false;
  }
  return true;
}
