import type { Harness } from '../harness';
import type { LoadedFixture } from './fixture';
import { replayFixture } from './replay-fixture';
import type { ReplayOptions, ReplayResult } from './types';
import { answerToRecord, updateFixture } from './update';

export interface RunOptions extends ReplayOptions {
  /**
   * Record the answers, as `jest -u` records snapshots: a fixture without a response gets one, and a
   * fixture whose answer differs from its recording has it replaced. Call errors and follow-up
   * failures are not recordable and still fail.
   */
  update?: boolean;
}

/** A replay after the update (if asked for): `updated` when the fixture's response was (re)written. */
export interface FixtureReport extends Omit<ReplayResult, 'verdict'> {
  /** As ReplayResult's, plus `updated`: the answer differed from the recording (or there was none) and was recorded, and nothing else failed. */
  verdict: ReplayResult['verdict'] | 'updated';
  /** Whether the file was rewritten. */
  updated: boolean;
  /** Why an update was asked for but could not be made. */
  updateError?: string;
}

/** Replays one fixture and, when updating, records the answer where it is new or differs. */
export async function runFixture(harness: Harness, fixture: LoadedFixture, options: RunOptions = {}): Promise<FixtureReport> {
  const result = await replayFixture(harness, fixture, options);
  const stale = !result.compared || (result.chain ?? []).length > 0 || result.webhooks.some((w) => w.mismatches.length > 0);
  if (!options.update || !stale) return { ...result, updated: false };
  const answer = answerToRecord(result);
  if ('why' in answer) return { ...result, verdict: 'failed', updated: false, updateError: answer.why };
  updateFixture(fixture.file, fixture, answer);
  // What an update cannot fix: the follow-up checks judge the webhook, not the recording.
  const stillFailing = result.webhooks.some((w) => w.followUps.some((f) => !f.pass));
  return { ...result, verdict: stillFailing ? 'failed' : 'updated', updated: true };
}

export interface ReplayReport {
  seed: number;
  results: FixtureReport[];
  passed: number;
  failed: number;
  /** Not compared: no recorded response, and not updating. */
  new: number;
  updated: number;
}

/**
 * Replays every fixture in order, one at a time (an update rewrites a file that may hold several of
 * them), against one harness: for the CLI's `replay`, and for anyone replaying outside a test runner.
 */
export async function replayFixtures(harness: Harness, fixtures: readonly LoadedFixture[], options: RunOptions = {}): Promise<ReplayReport> {
  const results: FixtureReport[] = [];
  for (const fixture of fixtures) results.push(await runFixture(harness, fixture, options));
  const count = (verdict: FixtureReport['verdict']) => results.filter((r) => r.verdict === verdict).length;
  return { seed: harness.seed, results, passed: count('passed'), failed: count('failed'), new: count('new'), updated: count('updated') };
}
