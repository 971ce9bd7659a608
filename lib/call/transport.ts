import https from 'node:https';
import { gunzipSync } from 'node:zlib';
import { answeredInPlainHttp } from '../net/tls-handshake';
import type { AgentPool } from './agents';
import { callDeadlines } from './deadlines';
import type { Endpoint } from './endpoint';

export interface TransportOptions {
  /** PEM CA certificates the serving certificate must chain to (the webhook's caBundle); system roots when empty. */
  ca: string;
  /** Client certificate for mTLS, as an admission kubeconfig's client-certificate would give it. */
  clientCertificate?: { key: string; cert: string };
  bearerToken?: string;
  /** Keep-alive connections, one agent per verified name. */
  agents: AgentPool;
  /** Milliseconds until the call's deadline. */
  deadlineMs: number;
  /** The `?timeout=` value (already rounded as kube-apiserver rounds it). */
  timeoutParam: string;
  /** The body's length in UTF-8 bytes, when the caller knows it already (a body of cached pieces). */
  contentLength?: number | undefined;
  /**
   * The User-Agent: kube-apiserver's admission webhook client names itself; the generic webhook client
   * of ImagePolicyWebhook (k8s.io/apiserver pkg/util/webhook) sends Go's default.
   */
  userAgent?: string;
}

export interface HttpReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/**
 * Why Go's x509 verification refused the serving certificate: it does not chain to the caBundle, it is
 * outside its validity period, or it does not carry the name verified. Carried as a field so readers
 * (the battery's TLS checks) never parse the text.
 */
export type CertificateFailure = 'unknown-authority' | 'expired' | 'name';

/**
 * A transport failure, its text as Go's net/http would print it inside kube-apiserver's
 * `failed to call webhook: Post "<url>": <text>`.
 */
export class TransportError extends Error {
  /** For a certificate the verification refused: why. */
  readonly certificate?: CertificateFailure;

  constructor(
    readonly goText: string,
    readonly kind: 'deadline' | 'refused' | 'tls' | 'closed' | 'plain-http' | 'other',
    readonly hint: string,
    options?: { cause?: unknown; certificate?: CertificateFailure },
  ) {
    super(goText, options);
    if (options?.certificate) this.certificate = options.certificate;
  }
}

/**
 * POSTs an AdmissionReview exactly as kube-apiserver's REST client does (k8s.io/client-go/rest/request.go). The body is
 * a string: Node then sends request head and body in one write rather than two.
 */
export function post(endpoint: Endpoint, body: string, options: TransportOptions): Promise<HttpReply> {
  const headers: Record<string, string> = {
    Host: endpoint.hostHeader,
    'User-Agent': options.userAgent ?? 'kube-apiserver-admission',
    'Content-Length': String(options.contentLength ?? Buffer.byteLength(body)),
    Accept: 'application/json, */*',
    'Content-Type': 'application/json',
    'Accept-Encoding': 'gzip',
  };
  if (options.bearerToken) headers.Authorization = `Bearer ${options.bearerToken}`;
  const pathWithQuery = `${encodeURI(endpoint.path)}?timeout=${options.timeoutParam}`;

  return new Promise<HttpReply>((resolve, reject) => {
    let settled = false;
    const finish = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      callDeadlines.cancel(deadline);
      fn();
    };
    const req = https.request(
      {
        method: 'POST',
        host: endpoint.address.host,
        port: endpoint.address.port,
        path: pathWithQuery,
        headers,
        agent: options.agents.get(endpoint.verifyName),
        // Unset members mean Node's defaults: system roots, SNI from the Host header, no client certificate.
        ca: options.ca || undefined,
        servername: endpoint.servername || undefined,
        key: options.clientCertificate?.key,
        cert: options.clientCertificate?.cert,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', (error) => finish(() => reject(translate(error))));
        res.on('end', () => {
          let raw = Buffer.concat(chunks);
          if (res.headers['content-encoding'] === 'gzip') {
            try {
              raw = gunzipSync(raw);
            } catch (error) {
              finish(() =>
                reject(new TransportError('gzip: invalid header', 'other', 'the body says Content-Encoding: gzip but is not gzip', { cause: error })),
              );
              return;
            }
          }
          // Node hands the kept-alive socket back to its agent in a nextTick queued before this 'end'
          // handler runs, and ticks run before promise continuations: the caller's next call reuses
          // the connection, as Go's client does once a body is read.
          finish(() => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: raw }));
        });
      },
    );
    const deadline = callDeadlines.watch(options.deadlineMs, () => {
      const error = new TransportError(
        'context deadline exceeded',
        'deadline',
        `the webhook did not answer within its deadline (timeout=${options.timeoutParam}); answer faster or raise timeoutSeconds`,
      );
      finish(() => reject(error));
      req.destroy(error);
    });
    // Go's client sends no Connection header (HTTP/1.1 keeps alive by default); Node would add one.
    req.removeHeader('Connection');
    req.on('error', (error) => finish(() => reject(translate(error))));
    req.end(body);
  });
}

const UNKNOWN_AUTHORITY_CODES = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_SIGNATURE_FAILURE',
]);

function translate(error: unknown): TransportError {
  if (error instanceof TransportError) return error;
  const e = error as NodeJS.ErrnoException & { address?: string; port?: number };
  const code = e.code ?? '';
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    return new TransportError(
      `tls: failed to verify certificate: ${e.message}`,
      'tls',
      'the serving certificate must carry the name kube-apiserver verifies (for a service: name.namespace.svc) as a subjectAltName',
      { cause: e, certificate: 'name' },
    );
  }
  if (UNKNOWN_AUTHORITY_CODES.has(code)) {
    return new TransportError(
      'tls: failed to verify certificate: x509: certificate signed by unknown authority',
      'tls',
      "the serving certificate does not chain to the webhook's caBundle; serve a certificate issued by that CA",
      { cause: e, certificate: 'unknown-authority' },
    );
  }
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') {
    return new TransportError('tls: failed to verify certificate: x509: certificate has expired or is not yet valid', 'tls', 'renew the serving certificate', {
      cause: e,
      certificate: 'expired',
    });
  }
  if (code === 'ECONNREFUSED') {
    return new TransportError(
      `dial tcp ${e.address ?? ''}:${e.port ?? ''}: connect: connection refused`,
      'refused',
      'nothing is listening at the webhook address; is the server started?',
      { cause: e },
    );
  }
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'HPE_INVALID_EOF_STATE') {
    return new TransportError('EOF', 'closed', 'the webhook closed the connection without an HTTP response', { cause: e });
  }
  if (code.startsWith('HPE_')) {
    return new TransportError(
      `net/http: HTTP/1.x transport connection broken: malformed HTTP response`,
      'other',
      'the webhook answered with bytes that are not HTTP/1.1',
      { cause: e },
    );
  }
  if (answeredInPlainHttp(e)) {
    // Go's transport recognises an "HTTP/" record header and says so (net/http ErrSchemeMismatch).
    return new TransportError('http: server gave HTTP response to HTTPS client', 'plain-http', 'the server answered in plain HTTP; webhooks must serve HTTPS', {
      cause: e,
    });
  }
  if (code.startsWith('ERR_SSL') || /SSL|TLS/.test(e.message)) {
    return new TransportError(`remote error: tls: ${e.message}`, 'tls', 'the TLS handshake failed', { cause: e });
  }
  return new TransportError(e.message, 'other', 'the HTTP call failed', { cause: e });
}
