/** url.Parse and url.ParseRequestURI (url.go parse, parseAuthority, parseHost). */
import { goQuoteBytes } from '../go-format';
import { escape, unescape } from './escaping';
import { parseAddr } from './parse-addr';
import { type GoURL, GoUrlError, type GoUserinfo } from './url';

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

export function validOptionalPort(port: string): boolean {
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
