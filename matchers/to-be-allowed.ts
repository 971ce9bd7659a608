import type { MatcherContext, MatcherResult } from './context';
import { outcomeDetails } from './describe';
import { asSubject } from './subject';

/** Passes when the webhook answered validly and allowed the request. */
export function toBeAllowed(this: MatcherContext, received: unknown): MatcherResult {
  const subject = asSubject(received, 'toBeAllowed');
  const pass = subject.allowed && !subject.error;
  const hint = this.utils.matcherHint('toBeAllowed', 'outcome', '', { isNot: this.isNot });
  return {
    pass,
    message: () => {
      let why: string;
      if (pass) why = 'expected the webhook not to allow the request, but it allowed it';
      else if (subject.error) why = `expected the webhook to allow the request, but the call failed:\n  ${subject.error.message}`;
      else why = `expected the webhook to allow the request, but it denied it:\n  ${subject.denial?.message ?? ''}`;
      return `${hint}\n\n${why}\n\n${outcomeDetails(subject)}`;
    },
  };
}
