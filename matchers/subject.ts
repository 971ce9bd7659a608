import type { CallOutcome } from '../lib/call/call-webhook';
import type { AdmitResult } from '../lib/dispatch/result';
import type { Status } from '../lib/kube/admission';
import { admitDetails, outcomeDetails } from './describe';

/** One webhook call's outcome (`h.call()`), optionally with the seed that made it. */
export type CallSubject = CallOutcome & { seed?: number };

/** What the allow/deny matchers see of either an `h.call()` outcome or an `h.admit()` result. */
export interface Verdict {
  source: 'call' | 'admit';
  allowed: boolean;
  /** Call: the webhook's denial. Admit: the request's rejection, whatever caused it. */
  rejection?: Status;
  /** Call only: a failure subject to failurePolicy. */
  failure?: { message: string; hint: string };
  details(): string;
}

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

/** Narrows `received` to a call outcome, or says what was passed instead. */
export function asCallOutcome(received: unknown, matcher: string): CallSubject {
  if (isCallOutcome(received)) return received;
  throw new TypeError(`${matcher} expects the result of h.call(), got ${isAdmitResult(received) ? 'the result of h.admit()' : describeReceived(received)}`);
}

/** Reads an `h.call()` or `h.admit()` result as a verdict, or says what was passed instead. */
export function asVerdict(received: unknown, matcher: string): Verdict {
  if (isCallOutcome(received)) {
    return {
      source: 'call',
      allowed: received.allowed && !received.error,
      ...(received.denial ? { rejection: received.denial } : {}),
      ...(received.error ? { failure: { message: received.error.message, hint: received.error.hint } } : {}),
      details: () => outcomeDetails(received),
    };
  }
  if (isAdmitResult(received)) {
    return {
      source: 'admit',
      allowed: received.allowed,
      ...(received.status ? { rejection: received.status } : {}),
      details: () => admitDetails(received),
    };
  }
  throw new TypeError(`${matcher} expects the result of h.call() or h.admit(), got ${describeReceived(received)}`);
}
