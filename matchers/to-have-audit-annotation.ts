import type { AsymmetricMatcherLike, MatcherContext, MatcherResult } from './context';
import { report, subjectDetails } from '../lib/outcome/describe';
import { asCallOrAdmit } from '../lib/outcome/subject';

/**
 * Passes when the audit annotation `key` is present and, if `value` is given, equals it (a string or
 * an asymmetric matcher) or matches it (a RegExp). `h.call()`: the webhook's own keys. `h.admit()`:
 * the request's annotations, where kube-apiserver prefixes the webhook's keys as `<webhook>/<key>`.
 */
export function toHaveAuditAnnotation(this: MatcherContext, received: unknown, key: string, value?: string | RegExp | AsymmetricMatcherLike): MatcherResult {
  const subject = asCallOrAdmit(received, 'toHaveAuditAnnotation');
  const hint = this.utils.matcherHint('toHaveAuditAnnotation', subject.source === 'call' ? 'outcome' : 'result', value === undefined ? 'key' : 'key, value', {
    isNot: this.isNot,
  });
  const annotations = subject.source === 'call' ? subject.call.auditAnnotations : subject.admit.auditAnnotations;
  const actual = annotations[key];
  const valueMatches = (text: string): boolean => value === undefined || (value instanceof RegExp ? text.search(value) !== -1 : this.equals(text, value));
  const pass = actual !== undefined && valueMatches(actual);
  const wanted = `${JSON.stringify(key)}${value === undefined ? '' : ` = ${this.utils.printExpected(value)}`}`;
  return {
    pass,
    message: () => {
      if (pass)
        return report(
          hint,
          `expected no audit annotation ${wanted}, but found ${JSON.stringify(key)} = ${this.utils.printReceived(actual)}`,
          subjectDetails(subject),
        );
      const why =
        actual === undefined
          ? `${describeKeys(annotations)}${prefixHint(subject.source, key, annotations)}`
          : `its value is ${this.utils.printReceived(actual)}`;
      const dropped = subject.source === 'admit' ? subject.admit.dropped.auditAnnotations.filter((d) => d.key === key || d.key.endsWith(`/${key}`)) : [];
      const droppedNote =
        dropped.length > 0 ? `kube-apiserver dropped it:\n${dropped.map((d) => `  - ${d.key}=${JSON.stringify(d.value)}: ${d.why}`).join('\n')}` : undefined;
      return report(hint, `expected audit annotation ${wanted}, but ${why}`, droppedNote, subjectDetails(subject));
    },
  };
}

function describeKeys(annotations: Record<string, string>): string {
  const entries = Object.entries(annotations);
  if (entries.length === 0) return 'there are none';
  return `there are only:\n${entries.map(([k, v]) => `  - ${k}=${JSON.stringify(v)}`).join('\n')}`;
}

/** The usual slip on admission results: the webhook's bare key instead of `<webhook>/<key>`. */
function prefixHint(source: 'call' | 'admit', key: string, annotations: Record<string, string>): string {
  if (source !== 'admit' || key.includes('/')) return '';
  const prefixed = Object.keys(annotations).filter((k) => k.endsWith(`/${key}`));
  return prefixed.length > 0
    ? `\n  (on h.admit() results a webhook's keys carry its name: did you mean ${prefixed.map((k) => JSON.stringify(k)).join(' or ')}?)`
    : '';
}
