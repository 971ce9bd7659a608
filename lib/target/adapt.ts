import type { IncomingMessage, ServerResponse } from 'node:http';
import { HarnessError } from '../errors';

/** A plain Node request listener; Express and Connect apps are ones too. */
export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/** A Koa application (anything with `callback()` returning a request listener). */
export interface KoaLike {
  callback(): RequestListener;
}

/** A Fastify instance (anything with `ready()` and `routing(req, res)`). */
export interface FastifyLike {
  ready(): PromiseLike<unknown>;
  routing(req: IncomingMessage, res: ServerResponse): void;
}

/** Any in-process webhook the harness can serve over TLS. */
export type InProcessApp = RequestListener | KoaLike | FastifyLike;

/** Whether `value` is something toRequestListener can serve: a handler, or a Koa or Fastify app. */
export function isInProcessApp(value: unknown): value is InProcessApp {
  if (typeof value === 'function') return true;
  if (typeof value !== 'object' || value === null) return false;
  const app = value as Partial<Record<'routing' | 'ready' | 'callback', unknown>>;
  return (typeof app.routing === 'function' && typeof app.ready === 'function') || typeof app.callback === 'function';
}

/** Turns an Express/Koa/Fastify app or a plain handler into one request listener. */
export async function toRequestListener(app: InProcessApp): Promise<RequestListener> {
  if (typeof app === 'function') return app;
  if (app && typeof (app as FastifyLike).routing === 'function' && typeof (app as FastifyLike).ready === 'function') {
    const fastify = app as FastifyLike;
    await fastify.ready();
    return (req, res) => fastify.routing(req, res);
  }
  if (app && typeof (app as KoaLike).callback === 'function') return (app as KoaLike).callback();
  throw new HarnessError(
    'TARGET_INVALID',
    'target is not a request handler, Express, Koa or Fastify app',
    'pass `target: app` (Express/Koa/Fastify or (req, res) => …), or `target: { url, ca }` for a running server',
  );
}
