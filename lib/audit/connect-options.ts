import type { GroupVersionKind, KubeObject } from '../kube/admission';
import { joinApiVersion } from '../kube/api-version';
import { shape } from '../registry/shape';
import { queryBool, queryString, subpathOf, type RequestUri } from './request-uri';
import { CONNECT_OPTIONS_FIELD_ORDER as FIELD_ORDER } from '../kube/connect-options';

/**
 * Ports as the parameter codec reads them for port forwarding: repeated `ports=` parameters, each of which
 * may be a comma-separated list (apimachinery's Convert_Slice_string_To_Slice_int32).
 */
function ports(query: URLSearchParams): number[] | undefined {
  const values = query.getAll('ports');
  if (values.length === 0) return undefined;
  const parsed = values
    .flatMap((value) => value.split(','))
    .map((p) => p.trim())
    .filter((p) => /^\d+$/.test(p))
    .map(Number);
  return parsed.length > 0 ? parsed : undefined;
}

function members(kind: string, uri: RequestUri, target: { resource: string; name: string; subresource: string }): Record<string, unknown> {
  const { query } = uri;
  switch (kind) {
    case 'PodExecOptions':
    case 'PodAttachOptions': {
      const command = query.getAll('command');
      return {
        stdin: queryBool(query, 'stdin'),
        stdout: queryBool(query, 'stdout'),
        stderr: queryBool(query, 'stderr'),
        tty: queryBool(query, 'tty'),
        container: queryString(query, 'container') || undefined,
        ...(kind === 'PodExecOptions' && command.length > 0 ? { command } : {}),
      };
    }
    case 'PodPortForwardOptions':
      return { ports: ports(query) };
    default:
      // The proxies' path is the URL's rest after the subresource, as the captures show it: with a leading "/".
      return { path: `/${subpathOf(uri, target.resource, target.name, target.subresource)}` };
  }
}

/**
 * The options object a CONNECT is admitted with (`request.object`): endpoints/handlers/rest.go
 * ConnectResource decodes it from the query (and a proxy's subpath) into the subresource's options kind;
 * the audit logs no request object for it, so it is rebuilt from the requestURI.
 */
export function connectOptionsObject(kind: GroupVersionKind, uri: RequestUri, target: { resource: string; name: string; subresource: string }): KubeObject {
  const present = Object.fromEntries(Object.entries(members(kind.kind, uri, target)).filter(([, value]) => value !== undefined && value !== false));
  return { kind: kind.kind, apiVersion: joinApiVersion(kind), ...shape(present, FIELD_ORDER[kind.kind] ?? []) };
}
