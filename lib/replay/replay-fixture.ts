import type { Harness } from '../harness';
import { answerOfOutcome, answerOfResponse, compareAnswers, type Answered } from './compare';
import { isAdmission, recordedResponse, type LoadedFixture } from './fixture';
import { runFollowUps } from './follow-ups';
import { matchedOf } from './matched';
import { replayAdmission } from './replay-admission';
import { selectWebhooks, type Selection } from './select';
import type { ReplayOptions, ReplayResult, WebhookReplay } from './types';
import { referenceOf, resolveWebhook } from './webhook-name';

/**
 * Replays one fixture. An admission fixture goes through the whole chain (lib/replay/replay-admission.ts).
 * A call fixture's request is sent, as kube-apiserver would (a fresh uid per call, the harness's checks),
 * to the webhook it names (or the `webhook` option names), or else to every webhook of the harness's
 * manifests whose rules match it, and each answer is compared with the recorded response
 * (lib/replay/compare.ts: allowed, the denial's code and message, warnings, the patch by its effect).
 * Then the follow-up checks run. Never throws for what a webhook does; a webhook name the manifests lack
 * throws (HarnessError WEBHOOK_NOT_FOUND).
 */
export async function replayFixture(harness: Harness, fixture: LoadedFixture, options: ReplayOptions = {}): Promise<ReplayResult> {
  if (isAdmission(fixture)) return replayAdmission(harness, fixture, options);
  const recordedAnswer = recordedResponse(fixture);
  const compared = recordedAnswer !== undefined;
  const selection = selectionOf(harness, fixture, options);
  if ('none' in selection) return { fixture, unit: 'call', verdict: 'failed', compared, webhooks: [], unmatched: selection.none };
  // Decoding and defaults need the registry's engines, loaded once per process.
  await harness.registry.ready();
  // Sent as recorded: at the version the webhook matched, when that is not the client's (lib/replay/matched.ts).
  const matched = matchedOf(fixture.recorded.request);
  const callOptions = matched ? { matched } : {};
  const webhooks = await Promise.all(
    selection.webhooks.map(async (entry): Promise<WebhookReplay> => {
      const reference = referenceOf(entry);
      const outcome = await harness.call(reference, fixture.review, callOptions);
      const replay: WebhookReplay = { webhook: entry.spec.name, reference, type: entry.type, outcome, mismatches: [], followUps: [] };
      if (outcome.rejection) return { ...replay, callError: outcome.rejection.message ?? '' };
      if (outcome.error) return { ...replay, callError: outcome.error.message };
      if (recordedAnswer)
        replay.mismatches = compareAnswers(
          harness.registry,
          answeredBy(replay, fixture),
          answerOfResponse(recordedAnswer, fixture.recordedPatch),
          answerOfOutcome(outcome),
        );
      if (options.followUps !== false) replay.followUps = await runFollowUps(harness, reference, fixture.review, outcome, callOptions);
      return replay;
    }),
  );
  const disagreement = disagreementOf(harness, fixture, webhooks);
  const failed = webhooks.some((w) => w.callError !== undefined || w.mismatches.length > 0 || w.followUps.some((f) => !f.pass));
  return { fixture, unit: 'call', verdict: failed ? 'failed' : compared ? 'passed' : 'new', compared, webhooks, ...(disagreement ? { disagreement } : {}) };
}

/** The webhook a call fixture names, when it names one; the `webhook` option may only name the same. */
function selectionOf(harness: Harness, fixture: LoadedFixture, options: ReplayOptions): Selection {
  const named = fixture.recorded.kind === 'RecordedReview' ? fixture.recorded.webhook : undefined;
  if (named === undefined) return selectWebhooks(harness, fixture.review, options.webhook);
  const entry = resolveWebhook(harness.webhooks, named, `${fixture.name}: webhook`);
  const asked = options.webhook !== undefined ? resolveWebhook(harness.webhooks, options.webhook, 'the webhook option') : entry;
  if (asked !== entry) {
    return { none: `the fixture records the answer of ${referenceOf(entry)}, not of ${options.webhook}: replay it without the webhook option (--webhook)` };
  }
  return { webhooks: [entry] };
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
  const differing = others.filter(
    (other) => compareAnswers(harness.registry, answeredBy(other, fixture), firstAnswer, answerOfOutcome(other.outcome)).length > 0,
  );
  if (differing.length === 0) return undefined;
  return `${webhooks.length} webhooks match the request and answer it differently (${[first, ...differing].map((w) => w.webhook).join(', ')}): a RecordedReview records one response; name the webhook it is for (the \`webhook\` option), or make it a RecordedAdmission (kind: RecordedAdmission), which records each webhook's answer`;
}
