import type { KeyPair } from '../tls';
import { toRequestListener, type InProcessApp } from './adapt';
import { listenTls, type LoopbackServer } from './loopback-server';

/** An in-process webhook served on a loopback port. */
export type ServedTarget = LoopbackServer;

export interface ServeOptions {
  /** Require and verify client certificates signed by this CA (PEM). */
  clientCa?: string;
}

/** Serves an Express/Koa/Fastify app or a plain handler over TLS on loopback. */
export async function serveInProcess(app: InProcessApp, serving: KeyPair, options: ServeOptions = {}): Promise<ServedTarget> {
  const listener = await toRequestListener(app);
  return listenTls(listener, serving, options.clientCa ? { ca: options.clientCa, requestCert: true, rejectUnauthorized: true } : {});
}
