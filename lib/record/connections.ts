import type { ServerResponse } from 'node:http';
import type { Server } from 'node:net';
import type { Socket } from 'node:net';

/**
 * The recorder's connections and the requests in flight on them, so it can stop in two ways: at
 * once (every socket destroyed: `close()`), or gracefully (`--max`, `--duration`: the requests already
 * received are answered first, each with `Connection: close`, then whatever is left is destroyed).
 */
export class Connections {
  private readonly sockets = new Set<Socket>();
  private inFlight = 0;
  private waiters: (() => void)[] = [];

  constructor(server: Server) {
    // The raw TCP socket: destroying it also ends a TLS handshake that never completed, which
    // an HTTP-level list of connections would not see.
    server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  /** Counts a request until its response is finished or abandoned. */
  track(res: ServerResponse): void {
    this.inFlight++;
    res.once('close', () => {
      this.inFlight--;
      if (this.inFlight === 0) {
        const waiters = this.waiters;
        this.waiters = [];
        for (const wake of waiters) wake();
      }
    });
  }

  /** Resolves once no request is in flight. */
  drained(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  destroyAll(): void {
    for (const socket of this.sockets) socket.destroy();
  }
}
