import type { IncomingMessage, ServerResponse } from 'node:http';
import { getResponse, type RequestHandler } from 'msw';
import { listenTls } from '../net/loopback-server';
import type { KeyPair } from '../tls';

/** A real HTTPS server on a loopback port, answering from msw handlers. */
export interface LoopbackServer {
  /** `https://127.0.0.1:<port>`. */
  readonly origin: string;
  readonly port: number;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Sends a body of unknown length (a watch) chunk by chunk as it comes, headers first: an informer waits for
 * them before it reads an event. A client that goes away cancels the stream, which ends the watch.
 */
async function streamBody(body: ReadableStream<Uint8Array>, res: ServerResponse): Promise<void> {
  res.flushHeaders();
  const reader = body.getReader();
  res.on('close', () => void reader.cancel().catch(() => undefined));
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (value.length > 0) res.write(value);
  }
  res.end();
}

/**
 * Serves `handlers()` over TLS on 127.0.0.1, for clients msw cannot intercept: `@kubernetes/client-node` 2.x
 * (its own undici dispatcher) and other processes. Each request becomes a fetch Request for the handlers with the
 * server's own origin, whatever Host it was sent to, so the handlers match it as they match intercepted calls.
 * A handler's `Response.error()` destroys the socket, which the client sees as a network error.
 */
export async function serveLoopback(handlers: () => readonly RequestHandler[], serving: KeyPair): Promise<LoopbackServer> {
  let origin = '';
  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    void (async () => {
      const body = await readBody(req);
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, v);
      }
      const method = req.method ?? 'GET';
      const request = new Request(`${origin}${req.url ?? '/'}`, {
        method,
        headers,
        ...(body.length > 0 && method !== 'GET' && method !== 'HEAD' ? { body } : {}),
      });
      const response = await getResponse([...handlers()], request);
      if (!response || response.type === 'error') {
        req.socket.destroy();
        return;
      }
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (response.headers.has('content-length') || !response.body) res.end(Buffer.from(await response.arrayBuffer()));
      else await streamBody(response.body, res);
    })().catch(() => req.socket.destroy());
  };
  const server = await listenTls(listener, serving);
  origin = `https://127.0.0.1:${server.port}`;
  return { origin, port: server.port, close: server.close };
}
