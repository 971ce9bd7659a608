import type { WriteRecord } from '../lib/mockapi/write-log';
import type { MatcherContext, MatcherResult } from './context';
import { report, subjectDetails } from '../lib/outcome/describe';
import { asCallOrAdmit } from '../lib/outcome/subject';

/**
 * Passes when the webhook changed nothing in the mock API while handling the request: writes made
 * with `?dryRun=All` do not count. The proof a sideEffects None/NoneOnDryRun webhook keeps its word
 * on dryRun requests. Needs a harness created with `mockApi`.
 */
export function toCauseNoWrites(this: MatcherContext, received: unknown): MatcherResult {
  const subject = asCallOrAdmit(received, 'toCauseNoWrites');
  const writes = subject.source === 'call' ? subject.call.writes : subject.admit.writes;
  if (!writes) throw new TypeError('toCauseNoWrites needs the mock API: create the harness with createHarness({ mockApi: true, … })');
  const effects = writes.filter((w) => !w.dryRun);
  const hint = this.utils.matcherHint('toCauseNoWrites', subject.source === 'call' ? 'outcome' : 'result', '', { isNot: this.isNot });
  return {
    pass: effects.length === 0,
    message: () =>
      effects.length === 0
        ? report(
            hint,
            `expected the webhook to write to the API, but it made ${writes.length === 0 ? 'no call' : 'only dryRun calls'}:\n${list(writes)}`,
            subjectDetails(subject),
          )
        : report(
            hint,
            `expected no writes, but the webhook changed the cluster ${effects.length} time${effects.length === 1 ? '' : 's'}:\n${list(effects)}`,
            subjectDetails(subject),
          ),
  };
}

function list(writes: readonly WriteRecord[]): string {
  if (writes.length === 0) return '  (none)';
  return writes
    .map((w) => {
      const during = w.admission
        .map(
          (a) =>
            `${a.operation} ${a.resource} ${[a.namespace, a.name].filter(Boolean).join('/')}${a.dryRun ? ' (dryRun)' : ''}${a.seed !== undefined ? ` · seed ${a.seed}` : ''}`,
        )
        .join('; ');
      return `  - ${w.method} ${w.path} → ${w.code ?? 'network error'}${w.dryRun ? ' (dryRun)' : ''}${during ? `, during ${during}` : ''}`;
    })
    .join('\n');
}
