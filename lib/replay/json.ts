import type { Change } from '../diff/json-diff';
import type { FollowUpResult } from './follow-ups';
import type { FixtureReport, ReplayReport } from './run';

/** A replay report as plain JSON (`replay --json`): the call outcomes reduced to what was compared. */
export interface ReplayReportJson {
  seed: number;
  passed: number;
  failed: number;
  new: number;
  updated: number;
  fixtures: {
    file: string;
    document: number;
    name: string;
    request: string;
    /** `call`: a RecordedReview, one webhook's answer; `admission`: a RecordedAdmission, the whole chain. */
    unit: 'call' | 'admission';
    verdict: FixtureReport['verdict'];
    compared: boolean;
    updated: boolean;
    updateError?: string;
    unmatched?: string;
    disagreement?: string;
    chain?: string[];
    webhooks: {
      webhook: string;
      type: 'mutating' | 'validating';
      callError?: string;
      mismatches: { field: string; recorded: unknown; replayed: unknown; changes?: Change[]; detail?: string }[];
      followUps: FollowUpResult[];
    }[];
  }[];
}

export function replayReportJson(report: ReplayReport): ReplayReportJson {
  return {
    seed: report.seed,
    passed: report.passed,
    failed: report.failed,
    new: report.new,
    updated: report.updated,
    fixtures: report.results.map((r) => ({
      file: r.fixture.file,
      document: r.fixture.document,
      name: r.fixture.name,
      request: r.fixture.review.summary(),
      unit: r.unit,
      verdict: r.verdict,
      compared: r.compared,
      updated: r.updated,
      ...(r.updateError ? { updateError: r.updateError } : {}),
      ...(r.unmatched ? { unmatched: r.unmatched } : {}),
      ...(r.disagreement ? { disagreement: r.disagreement } : {}),
      ...(r.chain ? { chain: r.chain } : {}),
      webhooks: r.webhooks.map((w) => ({
        webhook: w.reference,
        type: w.type,
        ...(w.callError !== undefined ? { callError: w.callError } : {}),
        mismatches: w.mismatches,
        followUps: w.followUps,
      })),
    })),
  };
}
