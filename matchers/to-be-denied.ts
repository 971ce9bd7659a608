import type { MatcherContext, MatcherResult } from './context';
import { asVerdict } from '../lib/outcome/verdict';

export interface DenialExpectation {
  /** The HTTP code the client receives (the webhook's `status.code`, raised to 400 when lower). */
  code?: number;
  /** A substring of, or pattern for, the message the client receives. */
  message?: string | RegExp;
  /** The `status.reason` the webhook gave. */
  reason?: string;
}

/**
 * `h.call()`: passes when the webhook answered validly with `allowed: false` (a failed call is not a
 * denial). `h.admit()`: passes when the request was rejected. Either way the Status the client would
 * receive must have the expected code, message and reason.
 */
export function toBeDenied(this: MatcherContext, received: unknown, expected: DenialExpectation = {}): MatcherResult {
  const verdict = asVerdict(received, 'toBeDenied');
  const denial = verdict.rejection;
  const mismatches: string[] = [];
  if (verdict.failure) mismatches.push(`the call failed instead of returning a denial:\n  ${verdict.failure.message}`);
  else if (!denial) mismatches.push(verdict.source === 'call' ? 'the webhook allowed the request' : 'the admission chain admitted the request');
  else {
    if (expected.code !== undefined && denial.code !== expected.code) {
      mismatches.push(`code: expected ${this.utils.printExpected(expected.code)}, received ${this.utils.printReceived(denial.code)}`);
    }
    const message = denial.message ?? '';
    if (expected.message !== undefined && !(typeof expected.message === 'string' ? message.includes(expected.message) : expected.message.test(message))) {
      mismatches.push(`message: expected ${this.utils.printExpected(expected.message)}, received ${this.utils.printReceived(message)}`);
    }
    if (expected.reason !== undefined && denial.reason !== expected.reason) {
      mismatches.push(`reason: expected ${this.utils.printExpected(expected.reason)}, received ${this.utils.printReceived(denial.reason)}`);
    }
  }
  const pass = mismatches.length === 0;
  const hint = this.utils.matcherHint('toBeDenied', verdict.source === 'call' ? 'outcome' : 'result', Object.keys(expected).length > 0 ? 'expected' : '', {
    isNot: this.isNot,
  });
  return {
    pass,
    message: () =>
      pass
        ? `${hint}\n\nexpected the request not to be denied, but it was:\n  ${denial?.code} ${denial?.message}\n\n${verdict.details()}`
        : `${hint}\n\nexpected a denial${describeExpectation(expected)}, but ${mismatches.join('\n  and ')}\n\n${verdict.details()}`,
  };
}

function describeExpectation(expected: DenialExpectation): string {
  const parts = [
    expected.code !== undefined ? `code ${expected.code}` : '',
    expected.message !== undefined ? `message ${String(expected.message)}` : '',
    expected.reason !== undefined ? `reason ${expected.reason}` : '',
  ].filter(Boolean);
  return parts.length > 0 ? ` with ${parts.join(', ')}` : '';
}
