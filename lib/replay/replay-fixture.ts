import type { Harness, HarnessCallOutcome } from '../harness';
import type { WebhookType } from '../kube/webhook-config';
import { answerOfOutcome, answerOfResponse, compareAnswers, type Answered, type Mismatch } from './compare';
import type { LoadedFixture } from './fixture';
import { runFollowUps, type FollowUpResult } from './follow-ups';
import { referenceOf, selectWebhooks } from './select';

export interface ReplayOptions {
  /** Send every fixture to this webhook (a name, or `configuration/name`) instead of those its rules match. */
  webhook?: string;
  /** Run the follow-up checks (object validity, idempotence) on each answer; true by default. */
  followUps?: boolean;
}

/** One webhook's answer to a replayed request, against the recording. */
export interface WebhookReplay {
  webhook: string;
  /** `configuration/name`, as the call addressed it. */
  reference: string;
  type: WebhookType;
  outcome: HarnessCallOutcome;
  /** The call failed (no valid answer): kube-apiserver's text. Nothing was compared. */
  callError?: string;
  /** How the answer differs from the recorded response; empty for a fixture without one. */
  mismatches: Mismatch[];
  followUps: FollowUpResult[];
}

export interface ReplayResult {
  fixture: LoadedFixture;
  /**
   * `passed`: every webhook answered as recorded and passed the follow-up checks; `new`: no response was
   * recorded, so nothing was compared (the calls and the follow-up checks passed); `failed` otherwise.
   */
  verdict: 'passed' | 'failed' | 'new';
  /** Whether a recorded response was compared. */
  compared: boolean;
  webhooks: WebhookReplay[];
  /** Why no webhook got the request. */
  unmatched?: string;
  /** Several webhooks got the request and answered differently from each other: no one answer can be recorded. */
  disagreement?: string;
}

/**
 * Sends the fixture's request, as kube-apiserver would (a fresh uid per call, the harness's checks), to
 * the webhook named or to every webhook of the harness's manifests whose rules match it, and compares
 * each answer with the recorded response (lib/replay/compare.ts: allowed, the denial's code and message,
 * warnings, the patch by its effect). Then runs the follow-up checks. Never throws for what a webhook
 * does; a webhook name the manifests lack throws (HarnessError WEBHOOK_NOT_FOUND).
 */
export async function replayFixture(harness: Harness, fixture: LoadedFixture, options: ReplayOptions = {}): Promise<ReplayResult> {
  const compared = fixture.recorded.response !== undefined;
  const selection = selectWebhooks(harness, fixture.review, options.webhook);
  if ('none' in selection) return { fixture, verdict: 'failed', compared, webhooks: [], unmatched: selection.none };
  // Decoding and defaults need the registry's engines, loaded once per process.
  await harness.registry.ready();
  const webhooks = await Promise.all(
    selection.webhooks.map(async (entry): Promise<WebhookReplay> => {
      const reference = referenceOf(entry);
      const outcome = await harness.call(reference, fixture.review);
      const replay: WebhookReplay = { webhook: entry.spec.name, reference, type: entry.type, outcome, mismatches: [], followUps: [] };
      if (outcome.error) return { ...replay, callError: outcome.error.message };
      const recorded = fixture.recorded.response;
      if (recorded) replay.mismatches = compareAnswers(harness.registry, answeredBy(replay, fixture), answerOfResponse(recorded, fixture.recordedPatch), answerOfOutcome(outcome));
      if (options.followUps !== false) replay.followUps = await runFollowUps(harness, reference, fixture.review, outcome);
      return replay;
    }),
  );
  const disagreement = disagreementOf(harness, fixture, webhooks);
  const failed = webhooks.some((w) => w.callError !== undefined || w.mismatches.length > 0 || w.followUps.some((f) => !f.pass));
  return { fixture, verdict: failed ? 'failed' : compared ? 'passed' : 'new', compared, webhooks, ...(disagreement ? { disagreement } : {}) };
}

/** The sent request is the patches' base: the object (and kind) the webhook saw. */
function answeredBy(replay: WebhookReplay, fixture: LoadedFixture): Answered {
  const sent = replay.outcome.review.request ?? fixture.recorded.request;
  return { webhook: replay.webhook, type: replay.type, base: { object: sent.object, kind: sent.kind } };
}

/**
 * When several webhooks answered, whether they answered alike, judged as a recording is (each against
 * the first): a fixture records one response, which can only stand for all of them if they agree.
 */
function disagreementOf(harness: Harness, fixture: LoadedFixture, webhooks: readonly WebhookReplay[]): string | undefined {
  const [first, ...others] = webhooks.filter((w) => w.callError === undefined);
  if (!first || others.length === 0) return undefined;
  const firstAnswer = answerOfOutcome(first.outcome);
  const differing = others.filter((other) => compareAnswers(harness.registry, answeredBy(other, fixture), firstAnswer, answerOfOutcome(other.outcome)).length > 0);
  if (differing.length === 0) return undefined;
  return `${webhooks.length} webhooks match the request and answer it differently (${[first, ...differing].map((w) => w.webhook).join(', ')}): a fixture records one response; name the webhook it is for (the \`webhook\` option)`;
}
