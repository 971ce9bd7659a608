import type { ApiStatus } from '../kube/status';

/*
 * Content negotiation as kube-apiserver does it (apimachinery:pkg/runtime/serializer, apiserver:pkg/endpoints/
 * handlers/negotiation/negotiate.go): which representation an Accept header asks for, the 406 answers when none
 * can be given, and the Content-Types a request body may come in.
 */

/** The media types the built-in API encodes objects in, in the order kube's 406 texts list them. */
export const SERVED_MEDIA_TYPES = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'] as const;
export const PROTOBUF = 'application/vnd.kubernetes.protobuf';

/** One media range of an Accept header. */
export interface MediaRange {
  type: string;
  subtype: string;
  params: Readonly<Record<string, string>>;
  q: number;
}

/** The media ranges of an Accept header, most wanted first (by q, then in the order given), as goautoneg ranks them. */
export function parseAccept(header: string | null): MediaRange[] {
  if (!header?.trim()) return [{ type: '*', subtype: '*', params: {}, q: 1 }];
  const ranges = header.split(',').flatMap((clause): MediaRange[] => {
    const [mediaType = '', ...parameters] = clause.split(';').map((part) => part.trim());
    const [type = '', subtype = ''] = mediaType.toLowerCase().split('/');
    if (!type || !subtype) return [];
    const params: Record<string, string> = {};
    let q = 1;
    for (const parameter of parameters) {
      const at = parameter.indexOf('=');
      if (at < 0) continue;
      const name = parameter.slice(0, at).trim().toLowerCase();
      const value = parameter.slice(at + 1).trim();
      if (name === 'q') q = Number(value);
      else params[name] = value;
    }
    return Number.isFinite(q) && q > 0 ? [{ type, subtype, params, q }] : [];
  });
  return ranges
    .map((range, index) => ({ range, index }))
    .sort((a, b) => b.range.q - a.range.q || a.index - b.index)
    .map(({ range }) => range);
}

const acceptsJson = (range: MediaRange): boolean =>
  (range.type === 'application' && (range.subtype === 'json' || range.subtype === '*')) || (range.type === '*' && range.subtype === '*');

/** What an Accept header asks of a discovery endpoint (`/api`, `/apis`): aggregated v2, the legacy document, or nothing served. */
export function discoveryRepresentation(accept: string | null): 'aggregated' | 'legacy' | undefined {
  for (const range of parseAccept(accept)) {
    const { as, g, v } = range.params;
    if (as !== undefined) {
      // apidiscovery.k8s.io/v2beta1 is no longer served (removed in 1.33): only v2 converts.
      if (as === 'APIGroupDiscoveryList' && g === 'apidiscovery.k8s.io' && v === 'v2' && acceptsJson(range)) return 'aggregated';
      continue;
    }
    if (acceptsJson(range)) return 'legacy';
  }
  return undefined;
}

/** Whether a legacy-only discovery document (a group, a group-version) can be given: some range takes plain JSON. */
export function acceptsLegacyDiscovery(accept: string | null): boolean {
  return parseAccept(accept).some((range) => range.params.as === undefined && acceptsJson(range));
}

/** What a resource endpoint answers in: JSON or YAML and, for a conversion, the meta.k8s.io kind and version asked for. */
export interface ResourceRendering {
  encoding: 'json' | 'yaml';
  table?: 'v1' | 'v1beta1';
  partial?: { kind: 'PartialObjectMetadata' | 'PartialObjectMetadataList'; version: 'v1' | 'v1beta1' };
}

const metaVersion = (range: MediaRange): 'v1' | 'v1beta1' | undefined =>
  range.params.g === 'meta.k8s.io' && (range.params.v === 'v1' || range.params.v === 'v1beta1') ? range.params.v : undefined;

/**
 * The representation an Accept header gets from a resource endpoint, or undefined (406), as
 * RequestScope.AllowsMediaTypeTransform lets a range through. A Table (`as=Table;g=meta.k8s.io;v=v1|v1beta1`) is
 * taken in JSON or YAML when `tables` says the endpoint can make one; PartialObjectMetadata and
 * PartialObjectMetadataList at either version by every endpoint (list or not: the conversion itself refuses the
 * wrong one), unless `transforms` is false, as when an error is written (negotiation.DefaultEndpointRestrictions).
 * Protobuf responses are not written, so those ranges are passed over for the next.
 */
export function negotiateResource(accept: string | null, tables: boolean, transforms = true): ResourceRendering | undefined {
  for (const range of parseAccept(accept)) {
    const encoding = acceptsJson(range) ? 'json' : range.type === 'application' && range.subtype === 'yaml' ? 'yaml' : undefined;
    if (!encoding) continue;
    const { as } = range.params;
    if (as === undefined) return { encoding };
    const version = transforms ? metaVersion(range) : undefined;
    if (!version) continue;
    if (tables && as === 'Table') return { encoding, table: version };
    if (as === 'PartialObjectMetadata' || as === 'PartialObjectMetadataList') return { encoding, partial: { kind: as, version } };
  }
  return undefined;
}

/**
 * The representation of a resource endpoint that makes no conversion — how an error is written: JSON or YAML, or
 * undefined when no range takes a plain object (responsewriters.WriteObjectNegotiated then writes raw JSON).
 */
export function resourceRepresentation(accept: string | null): 'json' | 'yaml' | undefined {
  return negotiateResource(accept, false, false)?.encoding;
}

const status406 = (message: string, details: boolean): ApiStatus => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message,
  reason: 'NotAcceptable',
  ...(details ? { details: {} } : {}),
  code: 406,
});

/** negotiation.NewNotAcceptableError, as a discovery endpoint answers an Accept it cannot serve. */
export function discoveryNotAcceptable(): ApiStatus {
  return status406(`only the following media types are accepted: ${SERVED_MEDIA_TYPES.join(', ')}`, false);
}

/**
 * The 406 of a conversion that cannot be made of the answer (apiserver handlers/response.go, errNotAcceptable):
 * its own message, and no details.
 */
export function transformNotAcceptable(message: string): ApiStatus {
  return status406(message, false);
}

/** The 406 a resource endpoint answers (errNotAcceptable through the REST handlers' error writer). */
export function resourceNotAcceptable(): ApiStatus {
  return status406(`406: Not Acceptable\n\nAvailable representations: ${SERVED_MEDIA_TYPES.join(', ')}`, true);
}

/**
 * go-restful's answer to a Content-Type a route does not consume (a built-in resource's PATCH consumes the four
 * patch types), given before any handler runs: `415: Unsupported Media Type`, as kube's Status.
 */
export function routeUnsupportedMediaType(): ApiStatus {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: '415: Unsupported Media Type',
    reason: 'UnsupportedMediaType',
    details: {},
    code: 415,
  };
}

/** The media type of a Content-Type header, without parameters, lower-cased. */
export function mediaTypeOf(contentType: string | null): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/**
 * responsewriters.WriteRawJSON: errors of negotiation itself and `/version` are written indented by two spaces,
 * with no trailing newline, whatever the client asked for.
 */
export function rawJson(value: unknown): string {
  return JSON.stringify(value, null, 2);
}
