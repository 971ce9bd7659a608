import { goQuoteBytes } from './go-format';

/*
 * The parts of Go's net/url that kube's URL library (k8s.io/apiserver/pkg/cel/library/urls.go) uses:
 * Parse, ParseRequestURI, URL.String, EscapedPath, Hostname, Port and Query, following net/url/url.go
 * as of the Go releases kube 1.36 is built with (including the CVE-2025-47912 and CVE-2026-25679 host
 * checks and the http/https colon rule of go.dev/issue/75223).
 *
 * Go strings are bytes and net/url works on bytes, percent-decoding included, so everything here runs on
 * "binary strings": one char per UTF-8 byte. Conversions to and from JS strings happen at the edges.
 */

export class GoUrlError extends Error {
  override readonly name = 'GoUrlError';
}

export interface GoUserinfo {
  readonly username: string;
  readonly password: string;
  readonly passwordSet: boolean;
}

/** net/url.URL, with every string field holding Go bytes. */
export interface GoURL {
  scheme: string;
  opaque: string;
  user: GoUserinfo | undefined;
  host: string;
  path: string;
  rawPath: string;
  omitHost: boolean;
  forceQuery: boolean;
  rawQuery: string;
  fragment: string;
  rawFragment: string;
}

export function toBytes(s: string): string {
  return Buffer.from(s, 'utf8').toString('latin1');
}

export function fromBytes(bytes: string): string {
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

type Mode = 'path' | 'pathSegment' | 'host' | 'zone' | 'userPassword' | 'queryComponent' | 'fragment';

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
function unescape(s: string, mode: Mode): string {
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
function escape(s: string, mode: Mode): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x20 && mode === 'queryComponent') out += '+';
    else if (shouldEscape(c, mode)) out += `%${UPPER_HEX[c >> 4]}${UPPER_HEX[c & 15]}`;
    else out += s[i];
  }
  return out;
}

/** url.go getScheme: `scheme:rest`, or no scheme. */
function getScheme(raw: string): [string, string] {
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a)) continue;
    if ((c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e) {
      if (i === 0) return ['', raw];
      continue;
    }
    if (c === 0x3a) {
      if (i === 0) throw new GoUrlError('missing protocol scheme');
      return [raw.slice(0, i), raw.slice(i + 1)];
    }
    return ['', raw];
  }
  return ['', raw];
}

function newURL(): GoURL {
  return {
    scheme: '',
    opaque: '',
    user: undefined,
    host: '',
    path: '',
    rawPath: '',
    omitHost: false,
    forceQuery: false,
    rawQuery: '',
    fragment: '',
    rawFragment: '',
  };
}

/** url.go parse(rawURL, viaRequest). */
function parse(raw: string, viaRequest: boolean): GoURL {
  if (/[\x00-\x1f\x7f]/.test(raw)) throw new GoUrlError('net/url: invalid control character in URL');
  if (raw === '' && viaRequest) throw new GoUrlError('empty url');
  const url = newURL();
  if (raw === '*') {
    url.path = '*';
    return url;
  }
  let rest: string;
  [url.scheme, rest] = getScheme(raw);
  url.scheme = url.scheme.toLowerCase();
  if (rest.endsWith('?') && rest.indexOf('?') === rest.length - 1) {
    url.forceQuery = true;
    rest = rest.slice(0, -1);
  } else {
    const q = rest.indexOf('?');
    if (q >= 0) {
      url.rawQuery = rest.slice(q + 1);
      rest = rest.slice(0, q);
    }
  }
  if (!rest.startsWith('/')) {
    if (url.scheme !== '') {
      // Rootless paths are opaque (RFC 3986).
      url.opaque = rest;
      return url;
    }
    if (viaRequest) throw new GoUrlError('invalid URI for request');
    const slash = rest.indexOf('/');
    if ((slash < 0 ? rest : rest.slice(0, slash)).includes(':')) throw new GoUrlError('first path segment in URL cannot contain colon');
  }
  if ((url.scheme !== '' || (!viaRequest && !rest.startsWith('///'))) && rest.startsWith('//')) {
    let authority = rest.slice(2);
    rest = '';
    const slash = authority.indexOf('/');
    if (slash >= 0) {
      rest = authority.slice(slash);
      authority = authority.slice(0, slash);
    }
    [url.user, url.host] = parseAuthority(url.scheme, authority);
  } else if (url.scheme !== '' && rest.startsWith('/')) {
    url.omitHost = true;
  }
  setPath(url, rest);
  return url;
}

function parseAuthority(scheme: string, authority: string): [GoUserinfo | undefined, string] {
  const at = authority.lastIndexOf('@');
  const host = parseHost(scheme, at < 0 ? authority : authority.slice(at + 1));
  if (at < 0) return [undefined, host];
  const userinfo = authority.slice(0, at);
  if (!/^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/.test(userinfo)) throw new GoUrlError('net/url: invalid userinfo');
  const colon = userinfo.indexOf(':');
  if (colon < 0) return [{ username: unescape(userinfo, 'userPassword'), password: '', passwordSet: false }, host];
  const username = unescape(userinfo.slice(0, colon), 'userPassword');
  const password = unescape(userinfo.slice(colon + 1), 'userPassword');
  return [{ username, password, passwordSet: true }, host];
}

function validOptionalPort(port: string): boolean {
  return port === '' || /^:[0-9]*$/.test(port);
}

function invalidPort(colonPort: string): GoUrlError {
  return new GoUrlError(`invalid port ${goQuoteBytes(colonPort)} after host`);
}

/** url.go parseHost: `host[:port]`, an IP literal in brackets being an IPv6 address. */
function parseHost(scheme: string, host: string): string {
  const open = host.lastIndexOf('[');
  if (open > 0) throw new GoUrlError('invalid IP-literal');
  if (open === 0) {
    const close = host.lastIndexOf(']');
    if (close < 0) throw new GoUrlError("missing ']' in host");
    const colonPort = host.slice(close + 1);
    if (!validOptionalPort(colonPort)) throw invalidPort(colonPort);
    const port = unescape(colonPort, 'host');
    const hostname = host.slice(1, close);
    const zone = hostname.indexOf('%25');
    const unescaped = zone >= 0 ? unescape(hostname.slice(0, zone), 'host') + unescape(hostname.slice(zone), 'zone') : unescape(hostname, 'host');
    // Only an IPv6 address may be enclosed in brackets (RFC 3986); IPv4-mapped ones included.
    const addr = parseAddr(unescaped);
    if (addr === 4) throw new GoUrlError('invalid IP-literal');
    return `[${unescaped}]${port}`;
  }
  let colon = host.indexOf(':');
  if (colon >= 0) {
    // Colons in a host are rejected for http and https only (go.dev/issue/75223, go.dev/issue/78077).
    const last = host.lastIndexOf(':');
    if (last !== colon && scheme !== 'http' && scheme !== 'https') colon = last;
    const colonPort = host.slice(colon);
    if (!validOptionalPort(colonPort)) throw invalidPort(colonPort);
  }
  return unescape(host, 'host');
}

/** url.go setPath: Path, and RawPath when the input is not the default encoding of Path. */
function setPath(url: GoURL, p: string): void {
  url.path = unescape(p, 'path');
  url.rawPath = escape(url.path, 'path') === p ? '' : p;
}

function setFragment(url: GoURL, f: string): void {
  url.fragment = unescape(f, 'fragment');
  url.rawFragment = escape(url.fragment, 'fragment') === f ? '' : f;
}

function urlError(input: string, cause: unknown): GoUrlError {
  if (!(cause instanceof GoUrlError)) throw cause;
  return new GoUrlError(`parse ${goQuoteBytes(input)}: ${cause.message}`);
}

/** url.Parse (of Go bytes): the URL may be relative; `#fragment` is split off first. */
export function goParseURL(raw: string): GoURL {
  const hash = raw.indexOf('#');
  const u = hash < 0 ? raw : raw.slice(0, hash);
  let url: GoURL;
  try {
    url = parse(u, false);
  } catch (error) {
    throw urlError(u, error);
  }
  const fragment = hash < 0 ? '' : raw.slice(hash + 1);
  if (fragment === '') return url;
  try {
    setFragment(url, fragment);
  } catch (error) {
    throw urlError(raw, error);
  }
  return url;
}

/** url.ParseRequestURI (of Go bytes): an absolute URI or an absolute path, no fragment handling. */
export function goParseRequestURI(raw: string): GoURL {
  try {
    return parse(raw, true);
  } catch (error) {
    throw urlError(raw, error);
  }
}

/** validEncoded: whether s needs no escaping beyond what it has (sub-delims and brackets allowed). */
function validEncoded(s: string, mode: Mode): boolean {
  for (let i = 0; i < s.length; i++) {
    const ch = s[i] ?? '';
    if ("!$&'()*+,;=:@[]%".includes(ch)) continue;
    if (shouldEscape(s.charCodeAt(i), mode)) return false;
  }
  return true;
}

/** URL.EscapedPath. */
export function goEscapedPath(url: GoURL): string {
  if (url.rawPath !== '' && validEncoded(url.rawPath, 'path')) {
    try {
      if (unescape(url.rawPath, 'path') === url.path) return url.rawPath;
    } catch (error) {
      if (!(error instanceof GoUrlError)) throw error;
    }
  }
  if (url.path === '*') return '*';
  return escape(url.path, 'path');
}

function escapedFragment(url: GoURL): string {
  if (url.rawFragment !== '' && validEncoded(url.rawFragment, 'fragment')) {
    try {
      if (unescape(url.rawFragment, 'fragment') === url.fragment) return url.rawFragment;
    } catch (error) {
      if (!(error instanceof GoUrlError)) throw error;
    }
  }
  return escape(url.fragment, 'fragment');
}

/** URL.String: the reassembled URL. */
export function goUrlString(url: GoURL): string {
  let out = '';
  if (url.scheme !== '') out += `${url.scheme}:`;
  if (url.opaque !== '') out += url.opaque;
  else {
    if (url.scheme !== '' || url.host !== '' || url.user) {
      if (!(url.omitHost && url.host === '' && !url.user)) {
        if (url.host !== '' || url.path !== '' || url.user) out += '//';
        if (url.user) {
          out += escape(url.user.username, 'userPassword');
          if (url.user.passwordSet) out += `:${escape(url.user.password, 'userPassword')}`;
          out += '@';
        }
        if (url.host !== '') out += escape(url.host, 'host');
      }
    }
    const path = goEscapedPath(url);
    if (path !== '' && path[0] !== '/' && url.host !== '') out += '/';
    if (out === '') {
      // A first segment with a colon would read as a scheme.
      const slash = path.indexOf('/');
      if ((slash < 0 ? path : path.slice(0, slash)).includes(':')) out += './';
    }
    out += path;
  }
  if (url.forceQuery || url.rawQuery !== '') out += `?${url.rawQuery}`;
  if (url.fragment !== '') out += `#${escapedFragment(url)}`;
  return out;
}

/** splitHostPort: the port only when it is numeric; brackets removed from the host. */
function splitHostPort(hostPort: string): [string, string] {
  let host = hostPort;
  let port = '';
  const colon = host.lastIndexOf(':');
  if (colon >= 0 && validOptionalPort(host.slice(colon))) {
    port = host.slice(colon + 1);
    host = host.slice(0, colon);
  }
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  return [host, port];
}

export function goHostname(url: GoURL): string {
  return splitHostPort(url.host)[0];
}

export function goPort(url: GoURL): string {
  return splitHostPort(url.host)[1];
}

/** URL.Query: url.ParseQuery of RawQuery with its errors dropped (malformed pairs are skipped). */
export function goQuery(url: GoURL): Map<string, string[]> {
  const values = new Map<string, string[]>();
  for (const setting of url.rawQuery.split('&')) {
    if (setting.includes(';') || setting === '') continue;
    const eq = setting.indexOf('=');
    let key: string;
    let value: string;
    try {
      key = unescape(eq < 0 ? setting : setting.slice(0, eq), 'queryComponent');
      value = unescape(eq < 0 ? '' : setting.slice(eq + 1), 'queryComponent');
    } catch (error) {
      if (error instanceof GoUrlError) continue;
      throw error;
    }
    values.set(key, [...(values.get(key) ?? []), value]);
  }
  return values;
}

// --- netip.ParseAddr, for the bracketed host check ---

function addrError(input: string, message: string, at?: string): GoUrlError {
  const text = `ParseAddr(${goQuoteBytes(input)}): ${message}${at ? ` (at ${goQuoteBytes(at)})` : ''}`;
  return new GoUrlError(`invalid host: ${text}`);
}

/** netip.ParseAddr: 4 or 6 for a valid address; throws `invalid host: ParseAddr(...)` otherwise. */
function parseAddr(s: string): 4 | 6 {
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
