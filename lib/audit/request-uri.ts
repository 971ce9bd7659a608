/**
 * What an event's requestURI tells beyond objectRef: the query (dryRun, fieldManager, fieldValidation,
 * DeleteOptions, connect options) and the path after a subresource (a proxy's path). The audit records
 * the URI as the client sent it (`req.URL.RequestURI()`, staging/src/k8s.io/apiserver/pkg/audit/request.go).
 */
export interface RequestUri {
  /** The path's segments, percent-decoded, without empty ones (RequestInfo trims the slashes around the path). */
  segments: string[];
  query: URLSearchParams;
}

export function parseRequestUri(requestURI: string): RequestUri {
  // Any base does: the URI is absolute-path form, and only its path and query are read.
  const url = new URL(requestURI, 'https://kube-apiserver.invalid');
  const segments = url.pathname
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    });
  return { segments, query: url.searchParams };
}

/**
 * The part of the path after `<resource>/<name>/<subresource>`, joined by "/": what a connecter's
 * subpath option is filled from (endpoints/handlers/rest.go getRequestOptions takes RequestInfo.Parts
 * from the fourth on). "" when there is none.
 */
export function subpathOf(uri: RequestUri, resource: string, name: string, subresource: string): string {
  const { segments } = uri;
  for (let i = 0; i + 2 < segments.length; i++) {
    if (segments[i] === resource && segments[i + 1] === name && segments[i + 2] === subresource) return segments.slice(i + 3).join('/');
  }
  return '';
}

/** Whether the query asks for a dry run: `dryRun=All`, the only value the API accepts. */
export function isDryRun(query: URLSearchParams): boolean {
  return query.getAll('dryRun').includes('All');
}

/**
 * A query boolean as the parameter codec reads it (apimachinery's Convert_Slice_string_To_bool): absent,
 * "false" (any case) and "0" are false, anything else, even an empty value, is true.
 */
export function queryBool(query: URLSearchParams, name: string): boolean | undefined {
  const values = query.getAll(name);
  if (values.length === 0) return undefined;
  const first = values[0] as string;
  return !(first === '0' || first.toLowerCase() === 'false');
}

/** A query integer, or undefined when absent or not a number (the API would have answered 400). */
export function queryInt(query: URLSearchParams, name: string): number | undefined {
  const value = query.get(name);
  if (value === null || !/^-?\d+$/.test(value)) return undefined;
  return Number(value);
}

/** The first value of a query string parameter, or undefined. */
export function queryString(query: URLSearchParams, name: string): string | undefined {
  return query.get(name) ?? undefined;
}
