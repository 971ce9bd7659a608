import type { Endpoint } from './endpoint';
import { post, TransportError, type HttpReply, type TransportOptions } from './transport';

/**
 * POSTs `payload` as kube-apiserver's webhook REST client does for every kind of webhook (admission,
 * conversion): client-go's retry rule (`checkWait`) re-sends a 429 or 5xx that carries an integer
 * Retry-After after that many seconds, at most 10 times, within the call's deadline. `deadline` is on
 * `performance.now()`'s clock; waits are scaled by `timeScale` as the deadline is.
 */
export async function postWithRetries(endpoint: Endpoint, payload: string, options: TransportOptions, deadline: number, timeScale: number): Promise<HttpReply> {
  for (let retries = 0; ; retries++) {
    // Set in place: the call path stays free of object copies (see emptyOutcome).
    options.deadlineMs = Math.max(0, deadline - performance.now());
    const reply = await post(endpoint, payload, options);
    const waitMs = retryAfterMs(reply, retries) * timeScale;
    if (waitMs < 0) return reply;
    if (performance.now() + waitMs >= deadline)
      throw new TransportError(
        'context deadline exceeded',
        'deadline',
        `the webhook asked to retry after ${waitMs / timeScale / 1000} s, past the call's deadline`,
      );
    await new Promise((resolve) => setTimeout(resolve, waitMs));
  }
}

/** client-go's `checkWait`: how long to wait before retrying `reply`, or -1 when it is final. */
function retryAfterMs(reply: HttpReply, retries: number): number {
  if (retries >= 10 || (reply.status !== 429 && reply.status < 500)) return -1;
  const header = reply.headers['retry-after'];
  const text = Array.isArray(header) ? header[0] : header;
  if (text === undefined || !/^\d+$/.test(text.trim())) return -1;
  return Number(text) * 1000;
}
