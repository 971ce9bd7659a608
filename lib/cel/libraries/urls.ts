import type { Environment } from '@marcbachmann/cel-js';
import { CelFunctionError } from '../errors';
import { fromBytes, goEscapedPath, goHostname, goParseRequestURI, goParseURL, goPort, goQuery, goUrlString, GoUrlError, toBytes, type GoURL } from './go-url';

/*
 * Kubernetes URL library (k8s.io/apiserver/pkg/cel/library/urls.go) and its `kubernetes.URL` type
 * (k8s.io/apiserver/pkg/cel/url.go), on top of go-url/'s port of Go's net/url.
 */

/** A `kubernetes.URL` value: a parsed net/url URL. */
export class CelUrl {
  constructor(readonly url: GoURL) {
    Object.freeze(this);
  }

  /** URL.String(), which url.go's Equal compares. */
  toString(): string {
    return fromBytes(goUrlString(this.url));
  }

  /** url.go Equal: two URLs are equal when their String() forms are. */
  equals(other: CelUrl): boolean {
    return goUrlString(this.url) === goUrlString(other.url);
  }
}

export const URL_TYPE = 'kubernetes.URL';

export function registerUrls(env: Environment): void {
  const sync = { async: false };
  env
    // An opaque type: no fields, so selecting one fails when the expression is compiled, as in cel-go.
    .registerType(URL_TYPE, { ctor: CelUrl, fields: {} })
    .registerOperator(`${URL_TYPE} == ${URL_TYPE}`, (a: CelUrl, b: CelUrl) => a.equals(b))
    .registerFunction(`url(string): ${URL_TYPE}`, stringToUrl, sync)
    .registerFunction('isURL(string): bool', isUrl, sync)
    .registerFunction(`${URL_TYPE}.getScheme(): string`, (u: CelUrl) => fromBytes(u.url.scheme), sync)
    .registerFunction(`${URL_TYPE}.getHost(): string`, (u: CelUrl) => fromBytes(u.url.host), sync)
    .registerFunction(`${URL_TYPE}.getHostname(): string`, (u: CelUrl) => fromBytes(goHostname(u.url)), sync)
    .registerFunction(`${URL_TYPE}.getPort(): string`, (u: CelUrl) => fromBytes(goPort(u.url)), sync)
    .registerFunction(`${URL_TYPE}.getEscapedPath(): string`, (u: CelUrl) => fromBytes(goEscapedPath(u.url)), sync)
    .registerFunction(`${URL_TYPE}.getQuery(): map<string, list<string>>`, getQuery, sync);
}

// urls.go stringToUrl: ParseRequestURI validates (absolute URI or absolute path), then Parse builds the
// value, since ParseRequestURI would fold a #fragment into the path or query.
function stringToUrl(s: string): CelUrl {
  const bytes = toBytes(s);
  try {
    goParseRequestURI(bytes);
    return new CelUrl(goParseURL(bytes));
  } catch (error) {
    if (error instanceof GoUrlError) throw new CelFunctionError(`URL parse error during conversion from string: ${fromBytes(error.message)}`);
    throw error;
  }
}

function isUrl(s: string): boolean {
  try {
    goParseRequestURI(toBytes(s));
    return true;
  } catch (error) {
    if (error instanceof GoUrlError) return false;
    throw error;
  }
}

// Keys and values unescaped; a repeated key keeps every value in order.
function getQuery(u: CelUrl): Record<string, string[]> {
  return Object.fromEntries([...goQuery(u.url)].map(([key, values]) => [fromBytes(key), values.map(fromBytes)]));
}
