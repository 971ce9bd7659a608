import type { KeyPair } from '../tls';
import { toRequestListener, type InProcessApp } from './adapt';
import { listenTls, type LoopbackServer } from '../net/loopback-server';

/** An in-process webhook served on a loopback port. */
export type ServedTarget = LoopbackServer;

/** Serves an Express/Koa/Fastify app or a plain handler over TLS on loopback. */
export async function serveInProcess(app: InProcessApp, serving: KeyPair): Promise<ServedTarget> {
  return listenTls(await toRequestListener(app), serving);
}
