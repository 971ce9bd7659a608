import { ApiException, Observable, type ConfigurationOptions, type ObservableMiddleware } from '@kubernetes/client-node';

/**
 * Per-call options that abort the call when `signal` fires. client-node (1.x and 2.x) passes a request
 * context's signal to its fetch, and middleware is the one place to set it.
 */
export function abortWith(signal: AbortSignal): ConfigurationOptions<ObservableMiddleware> {
  return {
    middleware: [
      {
        pre: (context) => {
          context.setSignal(signal);
          return new Observable(Promise.resolve(context));
        },
        post: (context) => new Observable(Promise.resolve(context)),
      },
    ],
    middlewareMergeStrategy: 'append',
  };
}

/** An API call given up on; client-node 1.x and 2.x report an abort differently, so it is told apart here. */
export class DeadlineExceeded extends Error {}

/** Runs `call` with a deadline of `ms` (none when not finite), so a slow API cannot hold up the answer. */
export async function withDeadline<T>(ms: number, call: (options: ConfigurationOptions<ObservableMiddleware>) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const timer = Number.isFinite(ms) ? setTimeout(() => controller.abort(), ms) : undefined;
  try {
    return await call(abortWith(controller.signal));
  } catch (error) {
    if (controller.signal.aborted) throw new DeadlineExceeded(`the API did not answer within ${ms}ms`);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** A short reason for a failed API call, for denial messages. */
export function apiFailure(error: unknown): string {
  if (error instanceof ApiException) return `the API answered HTTP ${error.code}`;
  return error instanceof Error ? error.message : String(error);
}
