import type { MatcherContext, MatcherResult } from './context';
import { outcomeDetails } from '../lib/outcome/describe';
import { asCallOutcome } from '../lib/outcome/subject';

/** Passes when the response carries the request's uid, which kube-apiserver requires of v1 answers. */
export function toEchoUid(this: MatcherContext, received: unknown): MatcherResult {
  const subject = asCallOutcome(received, 'toEchoUid');
  const sent = subject.review.request?.uid;
  const got = subject.response?.uid;
  const pass = sent !== undefined && got === sent;
  const hint = this.utils.matcherHint('toEchoUid', 'outcome', '', { isNot: this.isNot });
  return {
    pass,
    message: () => {
      if (pass) return `${hint}\n\nexpected response.uid to differ from request.uid ${this.utils.printExpected(sent)}\n\n${outcomeDetails(subject)}`;
      const why = subject.response
        ? `expected response.uid ${this.utils.printExpected(sent)}, received ${this.utils.printReceived(got)}`
        : `expected response.uid ${this.utils.printExpected(sent)}, but no response was decoded${subject.error ? `: ${subject.error.message}` : ''}`;
      return `${hint}\n\n${why}\n\n${outcomeDetails(subject)}`;
    },
  };
}
