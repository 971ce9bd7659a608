import https from 'node:https';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { HarnessError } from '../errors';
import type { AdmissionResponse } from '../kube/admission';
import { isRecord } from '../kube/json';
import { upstreamTimeoutMs } from './request-timeout';

/** The real webhook a recorder stands in front of. */
export interface UpstreamOptions {
  /**
   * Its base URL (https). Each request goes to the same path and query it came with, after this URL's
   * own path when it has one (`https://hooks:8443/base` + `/validate?timeout=10s`).
   */
  url: string;
  /** PEM CA certificate(s) its serving certificate must chain to; the system roots when omitted. */
  ca?: string;
}

/** The upstream's answer, to pass on unchanged. */
export interface UpstreamReply {
  status: number;
  statusMessage: string;
  /** Its end-to-end headers, names as it spelled them; hop-by-hop ones and Content-Length left to the proxy's own connection. */
  headers: [string, string | string[]][];
  /** The body as received (still gzip-encoded when the upstream encoded it). */
  body: Buffer;
}

/** Why no answer came: `timeout` once kube-apiserver's own deadline passed. */
export class UpstreamError extends Error {
  constructor(
    message: string,
    readonly kind: 'timeout' | 'failed',
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

// RFC 9110 §7.6.1: meaningful for one connection only, so never passed along by a proxy. Host is the
// upstream's own; Content-Length is set again for the body as sent.
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'trailers',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
]);

/** End-to-end headers from Node's raw list, names in their original case, repeated ones as arrays. */
function endToEnd(raw: readonly string[], connectionHeader: IncomingHttpHeaders['connection']): [string, string | string[]][] {
  // Headers the Connection header names are hop-by-hop as well.
  const named = new Set(
    String(connectionHeader ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean),
  );
  const byName = new Map<string, [string, string | string[]]>();
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] as string;
    const value = raw[i + 1] as string;
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || named.has(lower)) continue;
    const seen = byName.get(lower);
    if (!seen) byName.set(lower, [name, value]);
    else seen[1] = [...(Array.isArray(seen[1]) ? seen[1] : [seen[1]]), value];
  }
  return [...byName.values()];
}

/**
 * A pass-through client for the upstream webhook: the request's bytes and end-to-end headers out,
 * over TLS verified against the given CA (never unverified), the answer back as received.
 */
export class Upstream {
  readonly url: URL;
  private readonly agent: https.Agent;
  private readonly pending = new Set<{ abort(): void }>();

  constructor(options: UpstreamOptions) {
    let url: URL;
    try {
      url = new URL(options.url);
    } catch {
      throw new HarnessError('USAGE', `upstream ${JSON.stringify(options.url)} is not a URL`, "give the webhook's base URL, e.g. https://webhook.example:8443");
    }
    if (url.protocol !== 'https:')
      throw new HarnessError(
        'USAGE',
        `upstream ${JSON.stringify(options.url)} is not an https URL`,
        'admission webhooks serve HTTPS; give its https:// URL and --upstream-ca',
      );
    if (url.username || url.password || url.search || url.hash)
      throw new HarnessError(
        'USAGE',
        `upstream ${JSON.stringify(options.url)} may not carry credentials, a query or a fragment`,
        'the query of each request is forwarded as it came',
      );
    this.url = url;
    // Keep-alive, as kube-apiserver's own client to a webhook. `ca` unset means Node's roots.
    this.agent = new https.Agent({ keepAlive: true, ...(options.ca ? { ca: options.ca } : {}) });
  }

  /** The path the upstream is asked for: its base path, then the request's path and query. */
  target(requestTarget: string): string {
    const base = this.url.pathname.replace(/\/+$/, '');
    return `${base}${requestTarget.startsWith('/') ? '' : '/'}${requestTarget}`;
  }

  /** Forwards one request; rejects with an UpstreamError when no answer came. */
  forward(req: IncomingMessage, body: Buffer): Promise<UpstreamReply> {
    const requestTarget = req.url ?? '/';
    const timeoutMs = upstreamTimeoutMs(requestTarget);
    return new Promise<UpstreamReply>((resolve, reject) => {
      let settled = false;
      const settle = (fn: () => void): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.pending.delete(handle);
        fn();
      };
      const outgoing = https.request(
        {
          method: req.method,
          protocol: 'https:',
          hostname: this.url.hostname.replace(/^\[(.*)\]$/, '$1'),
          port: this.url.port || 443,
          path: this.target(requestTarget),
          headers: Object.fromEntries([...endToEnd(req.rawHeaders, req.headers.connection), ['Content-Length', String(body.length)]]),
          agent: this.agent,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', (error) => settle(() => reject(new UpstreamError(error.message, 'failed', { cause: error }))));
          res.on('end', () =>
            settle(() =>
              resolve({
                status: res.statusCode ?? 502,
                statusMessage: res.statusMessage ?? '',
                headers: endToEnd(res.rawHeaders, res.headers.connection),
                body: Buffer.concat(chunks),
              }),
            ),
          );
        },
      );
      const handle = {
        abort: () =>
          settle(() => {
            const error = new UpstreamError('the recorder was closed', 'failed');
            outgoing.destroy(error);
            reject(error);
          }),
      };
      this.pending.add(handle);
      const timer = setTimeout(() => {
        const error = new UpstreamError(`no answer within ${timeoutMs} ms (the request's timeout)`, 'timeout');
        settle(() => reject(error));
        outgoing.destroy(error);
      }, timeoutMs);
      outgoing.on('error', (error) =>
        settle(() => reject(error instanceof UpstreamError ? error : new UpstreamError(error.message, 'failed', { cause: error }))),
      );
      outgoing.end(body);
    });
  }

  /** Aborts what is in flight and closes the kept-alive connections: nothing left open. */
  destroy(): void {
    for (const handle of [...this.pending]) handle.abort();
    this.agent.destroy();
  }
}

/**
 * The AdmissionResponse in an upstream answer, or why there is none (for the fixture's limits): only
 * a 2xx JSON AdmissionReview with a `response` object has one, as kube-apiserver would read it.
 */
export function responseOf(reply: UpstreamReply): { response: AdmissionResponse } | { missing: string } {
  if (reply.status < 200 || reply.status > 206) return { missing: `the upstream answered HTTP ${reply.status}: no response recorded` };
  let body = reply.body;
  const encoding = reply.headers.find(([name]) => name.toLowerCase() === 'content-encoding')?.[1];
  if (String(encoding ?? '').toLowerCase() === 'gzip') {
    try {
      body = gunzipSync(body);
    } catch {
      return { missing: 'the upstream answered with a body marked gzip that is not: no response recorded' };
    }
  }
  let review: unknown;
  try {
    review = JSON.parse(body.toString('utf8'));
  } catch {
    return { missing: 'the upstream answered with a body that is not JSON: no response recorded' };
  }
  if (!isRecord(review) || !isRecord(review.response)) return { missing: 'the upstream answered without an AdmissionReview response: no response recorded' };
  return { response: review.response as unknown as AdmissionResponse };
}
