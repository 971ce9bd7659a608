import type { MatcherContext, MatcherResult } from './context';
import { outcomeDetails } from './describe';
import { asSubject } from './subject';

export interface DenialExpectation {
  /** The HTTP code the client receives (the webhook's `status.code`, raised to 400 when lower). */
  code?: number;
  /** A substring of, or pattern for, the message the client receives. */
  message?: string | RegExp;
  /** The `status.reason` the webhook gave. */
  reason?: string;
}

/**
 * Passes when the webhook answered validly with `allowed: false` and the Status the client would
 * receive has the expected code, message and reason. A failed call is not a denial.
 */
export function toBeDenied(this: MatcherContext, received: unknown, expected: DenialExpectation = {}): MatcherResult {
  const subject = asSubject(received, 'toBeDenied');
  const denial = subject.denial;
  const mismatches: string[] = [];
  if (subject.error) mismatches.push(`the call failed instead of returning a denial:\n  ${subject.error.message}`);
  else if (!denial) mismatches.push('the webhook allowed the request');
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
  const hint = this.utils.matcherHint('toBeDenied', 'outcome', Object.keys(expected).length > 0 ? 'expected' : '', { isNot: this.isNot });
  return {
    pass,
    message: () =>
      pass
        ? `${hint}\n\nexpected the webhook not to deny the request, but it denied it:\n  ${denial?.code} ${denial?.message}\n\n${outcomeDetails(subject)}`
        : `${hint}\n\nexpected a denial${describeExpectation(expected)}, but ${mismatches.join('\n  and ')}\n\n${outcomeDetails(subject)}`,
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
