import type { MatcherContext, MatcherResult } from './context';
import { asVerdict } from '../lib/outcome/verdict';

/** Passes when the webhook answered validly and allowed the request (`h.call()`), or the chain admitted it (`h.admit()`). */
export function toBeAllowed(this: MatcherContext, received: unknown): MatcherResult {
  const verdict = asVerdict(received, 'toBeAllowed');
  const what = verdict.source === 'call' ? 'the webhook' : 'the admission chain';
  const hint = this.utils.matcherHint('toBeAllowed', verdict.source === 'call' ? 'outcome' : 'result', '', { isNot: this.isNot });
  return {
    pass: verdict.allowed,
    message: () => {
      let why: string;
      if (verdict.allowed) why = `expected ${what} not to allow the request, but it allowed it`;
      else if (verdict.failure) why = `expected ${what} to allow the request, but the call failed:\n  ${verdict.failure.message}`;
      else
        why = `expected ${what} to allow the request, but it ${verdict.source === 'call' ? 'denied' : 'rejected'} it:\n  ${verdict.rejection?.message ?? ''}`;
      return `${hint}\n\n${why}\n\n${verdict.details()}`;
    },
  };
}
