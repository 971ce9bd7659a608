import tls from 'node:tls';

/** What one TLS handshake with a server found. */
export type HandshakeResult =
  | { ok: true }
  | {
      ok: false;
      /**
       * `refused`: nothing listens; `plain-http`: an HTTP server answered the ClientHello in clear text;
       * `verify`: a TLS server answered, with a certificate that did not verify; `timeout`, `closed`,
       * `tls`: no handshake for another reason.
       */
      reason: 'refused' | 'plain-http' | 'verify' | 'timeout' | 'closed' | 'tls';
      message: string;
    };

export interface HandshakeOptions {
  host: string;
  port: number;
  /** SNI and the name the certificate is verified for; without it, the certificate is verified for `host`. */
  servername?: string | undefined;
  /** PEM CA the certificate must chain to; the system roots when omitted. */
  ca?: string;
  timeoutMs: number;
}

// OpenSSL's words for a server that answered the ClientHello with bytes that are no TLS record (a
// plain HTTP server's "HTTP/1.1 400 Bad Request"); https.request reports them as EPROTO with the text.
const NOT_TLS = new Set(['ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_PACKET_LENGTH_TOO_LONG', 'ERR_SSL_HTTP_REQUEST']);

/** Whether a TLS client error means the server speaks plain HTTP. */
export function answeredInPlainHttp(error: NodeJS.ErrnoException): boolean {
  return NOT_TLS.has(error.code ?? '') || (error.code === 'EPROTO' && /wrong version number|packet length too long|http request/.test(error.message));
}

/**
 * One verified TLS handshake, and nothing after it: no request is sent, so a webhook that chokes on
 * anything but an AdmissionReview is never fed one. The connection is closed as soon as it is known.
 */
export function tlsHandshake(options: HandshakeOptions): Promise<HandshakeResult> {
  return new Promise((resolve) => {
    let settled = false;
    const socket = tls.connect({ host: options.host, port: options.port, servername: options.servername, ca: options.ca, ALPNProtocols: ['http/1.1'] });
    const done = (result: HandshakeResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => done({ ok: false, reason: 'timeout', message: `no TLS handshake within ${options.timeoutMs} ms` }), options.timeoutMs);
    socket.once('secureConnect', () => done({ ok: true }));
    socket.once('close', () => done({ ok: false, reason: 'closed', message: 'the server closed the connection during the TLS handshake' }));
    socket.once('error', (error: NodeJS.ErrnoException) => {
      const code = error.code ?? '';
      if (code === 'ECONNREFUSED') done({ ok: false, reason: 'refused', message: 'connection refused' });
      else if (answeredInPlainHttp(error)) done({ ok: false, reason: 'plain-http', message: 'the server answered in plain HTTP; webhooks must serve HTTPS' });
      else if (/CERT|ALTNAME|SELF_SIGNED|UNABLE_TO/.test(code)) done({ ok: false, reason: 'verify', message: error.message });
      else if (code === 'ECONNRESET' || code === 'EPIPE')
        done({ ok: false, reason: 'closed', message: 'the server closed the connection during the TLS handshake' });
      else done({ ok: false, reason: 'tls', message: error.message });
    });
  });
}
