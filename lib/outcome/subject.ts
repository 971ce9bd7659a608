import type { WriteRecord } from '../mockapi/write-log';
import type { CallOutcome } from '../call/call-webhook';
import type { AdmitResult } from '../dispatch/result';
import type { Status } from '../kube/admission';
import type { PatchedOutcome, WebhookHandle } from '../harness';

/** One webhook call's outcome (`h.call()`), optionally with the seed that made it. */
export type CallSubject = CallOutcome & { seed?: number; writes?: WriteRecord[]; patched?: PatchedOutcome; rejection?: Status };

function isCallOutcome(received: unknown): received is CallSubject {
  const candidate = received as Partial<CallSubject> | null;
  return !!candidate && typeof candidate === 'object' && !!candidate.review && typeof candidate.allowed === 'boolean' && Array.isArray(candidate.warnings);
}

function isAdmitResult(received: unknown): received is AdmitResult {
  const candidate = received as Partial<AdmitResult> | null;
  return !!candidate && typeof candidate === 'object' && !!candidate.trace && typeof candidate.allowed === 'boolean';
}

function describeReceived(received: unknown): string {
  return received === null ? 'null' : typeof received;
}

/** Either kind of result, for the matchers that read both. */
export type CallOrAdmit = { source: 'call'; call: CallSubject } | { source: 'admit'; admit: AdmitResult };

/** Narrows `received` to a call outcome, or says what was passed instead. */
export function asCallOutcome(received: unknown, matcher: string): CallSubject {
  if (isCallOutcome(received)) return received;
  const why = isAdmitResult(received) ? 'the result of h.admit(), which has no single webhook answer to inspect' : describeReceived(received);
  throw new TypeError(`${matcher} expects the result of h.call(), got ${why}`);
}

/** Narrows `received` to an `h.call()` outcome or an `h.admit()` result. */
export function asCallOrAdmit(received: unknown, matcher: string): CallOrAdmit {
  if (isCallOutcome(received)) return { source: 'call', call: received };
  if (isAdmitResult(received)) return { source: 'admit', admit: received };
  throw new TypeError(`${matcher} expects the result of h.call() or h.admit(), got ${describeReceived(received)}`);
}

/** Narrows `received` to a handle from `h.webhook(name)`, which the matchers that call repeatedly need. */
export function asWebhookHandle(received: unknown, matcher: string): WebhookHandle {
  const candidate = received as Partial<WebhookHandle & { webhook: unknown }> | null;
  const looksCallable = !!candidate && typeof candidate === 'object' && typeof candidate.call === 'function';
  if (looksCallable && typeof candidate.name === 'string' && typeof candidate.timeoutSeconds === 'number' && typeof candidate.timeScale === 'number') {
    return candidate as WebhookHandle;
  }
  const why =
    looksCallable && typeof candidate.webhook === 'function'
      ? 'the harness itself; pass h.webhook(name)'
      : isCallOutcome(received)
        ? 'a call outcome; pass h.webhook(name), which it calls itself'
        : describeReceived(received);
  throw new TypeError(`${matcher} expects a webhook handle from h.webhook(name), got ${why}`);
}
