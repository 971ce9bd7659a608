import type { MatcherContext, MatcherResult } from './context';
import { report, subjectDetails } from '../lib/outcome/describe';
import { asCallOrAdmit } from '../lib/outcome/subject';

/**
 * Passes when a warning contains `expected` (a string) or matches it (a RegExp). `h.call()`: the
 * webhook's own `response.warnings`. `h.admit()`: the warnings the client receives, after kube-apiserver
 * has sanitised, truncated and deduplicated them.
 */
export function toHaveWarning(this: MatcherContext, received: unknown, expected: string | RegExp): MatcherResult {
  const subject = asCallOrAdmit(received, 'toHaveWarning');
  const hint = this.utils.matcherHint('toHaveWarning', subject.source === 'call' ? 'outcome' : 'result', 'warning', { isNot: this.isNot });
  const matches = (text: string): boolean => (typeof expected === 'string' ? text.includes(expected) : text.search(expected) !== -1);
  const warnings = subject.source === 'call' ? subject.call.warnings : subject.admit.warnings;
  const found = warnings.filter(matches);
  const pass = found.length > 0;
  const wanted = `${typeof expected === 'string' ? 'containing' : 'matching'} ${this.utils.printExpected(expected)}`;
  const whose = subject.source === 'call' ? 'the webhook sent' : 'the client received';
  return {
    pass,
    message: () => {
      if (pass) return report(hint, `expected no warning ${wanted}, but ${whose}:\n${list(found)}`, subjectDetails(subject));
      const seen = warnings.length === 0 ? `${whose} none` : `${whose} only:\n${list(warnings)}`;
      const dropped = subject.source === 'admit' ? subject.admit.dropped.warnings.filter((d) => matches(d.text)) : [];
      const droppedNote =
        dropped.length > 0
          ? `kube-apiserver dropped a matching warning:\n${dropped.map((d) => `  - ${JSON.stringify(d.text)}: ${d.why}`).join('\n')}`
          : undefined;
      return report(hint, `expected a warning ${wanted}, but ${seen}`, droppedNote, subjectDetails(subject));
    },
  };
}

function list(texts: readonly string[]): string {
  return texts.map((t) => `  - ${JSON.stringify(t)}`).join('\n');
}
