import { isIP } from 'node:net';
import path from 'node:path';
import { goQuote } from '../go/strconv';
import type { WebhookClientConfig } from '../kube/webhook-config';

/** Where one webhook call goes, as kube-apiserver names it and as the harness really connects. */
export interface Endpoint {
  /** The URL kube-apiserver requests (without `?timeout=`): the form its error messages print. */
  url: string;
  /** The request path, normalised as client-go does. */
  path: string;
  /** The Host header: `name.ns.svc:port` for services, the URL's host as written otherwise. */
  hostHeader: string;
  /** The identity the serving certificate is verified against (a DNS name or an IP). */
  verifyName: string;
  /** TLS SNI; absent for IP literals, which Go does not send either. */
  servername?: string;
  /** The socket address actually dialled. */
  address: { host: string; port: number };
}

/** Maps the host:port kube-apiserver would dial to the one the harness dials (its loopback targets). */
export type Route = (logical: { host: string; port: number }) => { host: string; port: number };

/** Thrown for client configurations kube-apiserver cannot build a REST client for. */
export class ClientConfigError extends Error {}

/** client-go's `path.Join("/", p)`: leading slash added, trailing slash and repeated slashes dropped. */
export function normalizePath(p: string | undefined): string {
  const joined = path.posix.normalize(`/${p ?? ''}`);
  return joined.length > 1 && joined.endsWith('/') ? joined.slice(0, -1) : joined;
}

// kube-apiserver caches a REST client per configuration; resolving once per clientConfig is the
// harness's equivalent and keeps URL parsing out of every call.
const endpoints = new WeakMap<WebhookClientConfig, Endpoint>();

/**
 * Resolves a webhook's clientConfig the way kube-apiserver's webhook client does (k8s.io/apiserver/pkg/util/webhook/client.go
 * `hookClientConfig`): its `address` is the host:port kube-apiserver dials, before any rerouting to a loopback target.
 */
export function resolveEndpoint(clientConfig: WebhookClientConfig): Endpoint {
  let endpoint = endpoints.get(clientConfig);
  if (!endpoint) {
    endpoint = resolve(clientConfig);
    endpoints.set(clientConfig, endpoint);
  }
  return endpoint;
}

function resolve(clientConfig: WebhookClientConfig): Endpoint {
  if (clientConfig.service) {
    const { name, namespace, port } = clientConfig.service;
    const host = `${name}.${namespace}.svc`;
    const logicalPort = port || 443;
    const requestPath = normalizePath(clientConfig.service.path);
    return {
      url: `https://${host}:${logicalPort}${requestPath}`,
      path: requestPath,
      hostHeader: `${host}:${logicalPort}`,
      verifyName: host,
      servername: host,
      address: { host, port: logicalPort },
    };
  }
  if (clientConfig.url !== undefined) {
    let parsed: URL;
    try {
      parsed = new URL(clientConfig.url);
    } catch (error) {
      throw new ClientConfigError(`Unparsable URL: parse ${goQuote(clientConfig.url)}: ${(error as Error).message}`);
    }
    const hostname = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
    const port = parsed.port ? Number(parsed.port) : 443;
    const requestPath = normalizePath(decodeURIComponent(parsed.pathname));
    return {
      url: `${parsed.protocol}//${parsed.host}${requestPath}`,
      path: requestPath,
      hostHeader: parsed.host,
      verifyName: hostname,
      ...(isIP(hostname) === 0 ? { servername: hostname } : {}),
      address: { host: hostname, port },
    };
  }
  throw new ClientConfigError('webhook configuration must have either service or URL');
}
