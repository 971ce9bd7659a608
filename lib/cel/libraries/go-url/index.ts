/*
 * The parts of Go's net/url that kube's URL library (k8s.io/apiserver/pkg/cel/library/urls.go) uses:
 * Parse, ParseRequestURI, URL.String, EscapedPath, Hostname, Port and Query, following net/url/url.go
 * as of the Go releases kube 1.36 is built with (including the CVE-2025-47912 and CVE-2026-25679 host
 * checks and the http/https colon rule of go.dev/issue/75223).
 *
 * Go strings are bytes and net/url works on bytes, percent-decoding included, so everything here runs on
 * "binary strings": one char per UTF-8 byte. Conversions to and from JS strings happen at the edges.
 */
import { escape, unescape, validEncoded } from './escaping';
import { validOptionalPort } from './parse';
import { type GoURL, GoUrlError } from './url';

export { goParseRequestURI, goParseURL } from './parse';
export { fromBytes, type GoURL, GoUrlError, type GoUserinfo, toBytes } from './url';

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
