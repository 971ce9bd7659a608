import { formatChanges, preview } from '../diff/json-diff';
import { outcomeDetails } from '../outcome/describe';
import type { Mismatch } from './compare';
import type { ReplayResult, WebhookReplay } from './types';
import type { FixtureReport, ReplayReport } from './run';

/** `pods-create-1.yaml · CREATE pods shop/web-1`: which fixture, and which request. */
export function fixtureTitle(result: Pick<ReplayResult, 'fixture'>): string {
  return `${result.fixture.name} · ${result.fixture.review.summary()}`;
}

/**
 * One fixture's replay for a reader: the verdict, then per webhook what differs from the recording
 * (the patch as the object diff, recorded → replayed), the failed follow-up checks, and for a failing
 * webhook the call as sent and answered (with the seed to replay it).
 */
export function formatResult(result: ReplayResult | FixtureReport): string {
  const report = result as Partial<FixtureReport>;
  const admission = result.unit === 'admission';
  const lines = [`${fixtureTitle(result)}: ${result.verdict}`];
  if (result.unmatched) lines.push(`  ${result.unmatched}`);
  if (!result.compared && !report.updated)
    lines.push(
      admission
        ? '  no answers are recorded: the admission was not compared (update to record them)'
        : '  no response is recorded: the answer was not compared (update to record it)',
    );
  if (report.updated)
    lines.push(
      `  the ${admission ? 'answers were' : 'response was'} ${result.compared ? `rewritten with the new ${admission ? 'ones' : 'answer'}` : 'recorded'} in ${result.fixture.file}`,
    );
  if (report.updateError) lines.push(`  could not update: ${report.updateError}`);
  // After an update these are what changed in the recording, not failures.
  if (result.chain)
    lines.push(...(report.updated ? ['  the chain changed from the recording:', ...result.chain.map((l) => `    ${l}`)] : result.chain.map((l) => `  ${l}`)));
  for (const webhook of result.webhooks) lines.push(...webhookLines(webhook, report.updated === true));
  if (result.trace && result.verdict === 'failed') lines.push('  the admission as replayed:', ...result.trace.split('\n').map((l) => `    ${l}`));
  return lines.join('\n');
}

function webhookLines(replay: WebhookReplay, updated: boolean): string[] {
  const failedFollowUps = replay.followUps.filter((f) => !f.pass);
  // After an update the mismatches are what changed in the recording, not failures.
  const differences = replay.mismatches.flatMap((m) => mismatchLines(m).map((l) => `    ${l}`));
  const failing = replay.callError !== undefined || failedFollowUps.length > 0 || (!updated && differences.length > 0);
  if (!failing && differences.length === 0) return [];
  const lines = [`  ${replay.webhook}:`];
  if (replay.callError !== undefined) lines.push(`    the call failed: ${replay.callError}`);
  if (differences.length > 0) lines.push(...(updated ? ['    changed from the recording:', ...differences.map((l) => `  ${l}`)] : differences));
  for (const check of failedFollowUps) lines.push(`    follow-up ${check.id}: ${check.detail ?? 'failed'}`);
  if (failing)
    lines.push(
      ...outcomeDetails(replay.outcome)
        .split('\n')
        .map((l) => `    ${l}`),
    );
  return lines;
}

/** `status.code: recorded 403, replayed 400`; the patch as its object diff. */
export function mismatchLines(mismatch: Mismatch): string[] {
  if (mismatch.field !== 'patch') return [`${mismatch.field}: recorded ${preview(mismatch.recorded)}, replayed ${preview(mismatch.replayed)}`];
  if (mismatch.detail !== undefined && (mismatch.changes ?? []).length === 0) return [`patch: ${mismatch.detail}`];
  return [
    'patch: the object after the replayed patch differs from the object after the recorded one (recorded → replayed):',
    ...formatChanges(mismatch.changes ?? [], '  ').split('\n'),
  ];
}

/** Every fixture that did not pass, then `12 fixtures: 10 passed, 1 failed, 1 new, 0 updated · seed 42`. */
export function formatReport(report: ReplayReport): string {
  const shown = report.results.filter((r) => r.verdict !== 'passed').map(formatResult);
  const summary = `${report.results.length} fixture${report.results.length === 1 ? '' : 's'}: ${report.passed} passed, ${report.failed} failed, ${report.new} new, ${report.updated} updated · seed ${report.seed}`;
  return [...shown, summary].join('\n\n');
}
