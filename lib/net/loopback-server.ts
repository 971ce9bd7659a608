import https from 'node:https';
import type { RequestListener } from 'node:http';
import net, { type AddressInfo, type Socket } from 'node:net';
import type { KeyPair } from '../tls';

/** A TLS server on 127.0.0.1 and an OS-chosen port. */
export interface LoopbackServer {
  host: string;
  port: number;
  /** Stops listening and ends every connection, kept-alive ones included. */
  close(): Promise<void>;
}

/** Starts `server` on 127.0.0.1 with an OS-chosen port, so parallel test workers never collide. */
export async function listenLoopback(server: net.Server): Promise<{ host: string; port: number }> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return { host: '127.0.0.1', port: (server.address() as AddressInfo).port };
}

/** A loopback port nothing listens on: taken from the OS, then released. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  const { port } = await listenLoopback(server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Keeps an idle kept-alive connection open until close(), as Go's net/http Server does when no
 * IdleTimeout is set (the webhook servers kube-apiserver calls, whose client keeps connections for
 * client-go's 90 s IdleConnTimeout). Node's own default closes a connection idle for 5 s: a caller
 * pausing longer (any test on a loaded machine) then either dials again or, when its request meets the
 * server's close, fails with ECONNRESET. With 0, Node also sends no `Keep-Alive: timeout=` header.
 */
export function keepIdleConnections(server: https.Server): void {
  server.keepAliveTimeout = 0;
}

/**
 * Serves `listener` over TLS on loopback, tracking sockets so that `close()` leaves no open handle
 * behind.
 */
export async function listenTls(listener: RequestListener, serving: KeyPair): Promise<LoopbackServer> {
  const server = https.createServer({ key: serving.key, cert: serving.cert }, listener);
  keepIdleConnections(server);
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const { host, port } = await listenLoopback(server);
  return {
    host,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
