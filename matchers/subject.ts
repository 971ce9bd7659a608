import type { CallOutcome } from '../lib/call/call-webhook';

/** What the matchers accept: one webhook call's outcome, optionally with the seed that made it. */
export type MatcherSubject = CallOutcome & { seed?: number };

/** Narrows `received` to a call outcome, or says what was passed instead. */
export function asSubject(received: unknown, matcher: string): MatcherSubject {
  const candidate = received as Partial<MatcherSubject> | null;
  if (candidate && typeof candidate === 'object' && candidate.review && typeof candidate.allowed === 'boolean' && Array.isArray(candidate.warnings)) {
    return candidate as MatcherSubject;
  }
  throw new TypeError(`${matcher} expects the result of h.call(), got ${received === null ? 'null' : typeof received}`);
}
