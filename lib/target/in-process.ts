import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { KeyPair } from '../tls';
import { toRequestListener, type InProcessApp } from './adapt';

/** An in-process webhook served on a loopback port. */
export interface ServedTarget {
  host: string;
  port: number;
  close(): Promise<void>;
}

export interface ServeOptions {
  /** Require and verify client certificates signed by this CA (PEM). */
  clientCa?: string;
}

/**
 * Serves `app` over TLS on 127.0.0.1 with an OS-chosen port, so parallel test workers never collide.
 * `close()` ends every connection, keep-alive ones included, so no handle outlives the harness.
 */
export async function serveInProcess(app: InProcessApp, serving: KeyPair, options: ServeOptions = {}): Promise<ServedTarget> {
  const listener = await toRequestListener(app);
  const server = https.createServer(
    {
      key: serving.key,
      cert: serving.cert,
      ...(options.clientCa ? { ca: options.clientCa, requestCert: true, rejectUnauthorized: true } : {}),
    },
    listener,
  );
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    host: '127.0.0.1',
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
