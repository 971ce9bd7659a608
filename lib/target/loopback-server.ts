import https from 'node:https';
import type { RequestListener } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { KeyPair } from '../tls';

/** A TLS server on 127.0.0.1 and an OS-chosen port. */
export interface LoopbackServer {
  host: string;
  port: number;
  /** Stops listening and ends every connection, kept-alive ones included. */
  close(): Promise<void>;
}

/**
 * Serves `listener` over TLS on loopback with an OS-chosen port, so parallel test workers never
 * collide, tracking sockets so that `close()` leaves no open handle behind.
 */
export async function listenTls(listener: RequestListener, serving: KeyPair, tlsOptions: https.ServerOptions = {}): Promise<LoopbackServer> {
  const server = https.createServer({ key: serving.key, cert: serving.cert, ...tlsOptions }, listener);
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
