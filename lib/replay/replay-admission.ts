import type { Harness } from '../harness';
import type { TraceStep } from '../dispatch/trace';
import { answerOfOutcome, answerOfResponse, compareAnswers } from './compare';
import type { LoadedAnswer, LoadedFixture } from './fixture';
import type { ChainCall, ReplayOptions, ReplayResult, WebhookReplay } from './types';
import { referenceOf, resolveWebhook } from './webhook-name';

/** The trace's webhook calls (plugins, policies and the registry aside), in the order the chain made them. */
function webhookCalls(steps: readonly TraceStep[], seed: number): ChainCall[] {
  return steps
    .filter((s) => !s.plugin && !s.policy && s.phase !== 'registry' && s.decision === 'called' && s.outcome)
    .map((s) => ({ reference: `${s.configuration}/${s.webhook}`, round: s.round, outcome: { ...(s.outcome as NonNullable<TraceStep['outcome']>), seed } }));
}

/** Why a webhook the recording has an answer from got no call this time: its step's reason, or the rejection that ended the chain first. */
function whyNotCalled(steps: readonly TraceStep[], reference: string, round: 0 | 1, status: { code?: number; message?: string } | undefined): string {
  const step = steps.find((s) => `${s.configuration}/${s.webhook}` === reference && s.round === round && !s.plugin && !s.policy);
  if (step?.decision === 'skipped') return `skipped: ${step.why[step.why.length - 1] ?? ''}`;
  if (step?.decision === 'not-reinvoked') return 'not reinvoked: it was not scheduled for round 1';
  if (step?.decision === 'rejected-without-call') return `rejected without a call: ${step.rejection?.message ?? ''}`;
  if (status) return `the request was rejected before it: ${status.code ?? ''} ${status.message ?? ''}`;
  return 'the chain did not reach it';
}

/**
 * Replays an admission fixture: its request through the harness's whole chain (`h.admit`: built-in
 * plugins, mutating webhooks with reinvocation, validating webhooks), then each webhook call of the
 * trace compared with that webhook's own recorded answer of the same round (round 1: its reinvocation).
 * An answer recorded but not given, or given but not recorded, is a difference of the chain (`chain`). With `webhook`, only that webhook's answers
 * are compared. The follow-up checks are the chain's own here (reinvocation, the API's validation of
 * the admitted object), so none is added.
 */
export async function replayAdmission(harness: Harness, fixture: LoadedFixture, options: ReplayOptions): Promise<ReplayResult & { calls: ChainCall[] }> {
  const recorded = (fixture.answers ?? []).map((answer, i) => ({
    ...answer,
    reference: referenceOf(resolveWebhook(harness.webhooks, answer.webhook, `${fixture.name}: answers[${i}].webhook`)),
  }));
  const only = options.webhook !== undefined ? referenceOf(resolveWebhook(harness.webhooks, options.webhook, 'the webhook option')) : undefined;
  const compared = fixture.answers !== undefined;
  await harness.registry.ready();
  const admitted = await harness.admit(fixture.review);
  const calls = webhookCalls(admitted.trace.steps, harness.seed);
  const taken = new Map<string, number>();
  const webhooks: WebhookReplay[] = [];
  const chain: string[] = [];
  for (const call of calls) {
    if (only !== undefined && call.reference !== only) continue;
    const key = `${call.reference} ${call.round}`;
    const n = taken.get(key) ?? 0;
    taken.set(key, n + 1);
    // A DELETE admitted again (another storage attempt) calls a webhook twice in one round: the nth with the nth.
    const mine: (LoadedAnswer & { reference: string }) | undefined = recorded.filter((r) => r.reference === call.reference && r.round === call.round)[n];
    const outcome = call.outcome;
    const replay: WebhookReplay = { webhook: outcome.webhook, reference: call.reference, type: outcome.type, outcome, mismatches: [], followUps: [] };
    webhooks.push(replay);
    if (outcome.error) {
      replay.callError = outcome.error.message;
      continue;
    }
    if (!compared) continue;
    if (!mine) {
      chain.push(`${call.reference} (round ${call.round}): answered, but the recording has no answer from it`);
      continue;
    }
    const sent = outcome.review.request ?? fixture.recorded.request;
    replay.mismatches = compareAnswers(
      harness.registry,
      { webhook: outcome.webhook, type: outcome.type, base: { object: sent.object, kind: sent.kind } },
      answerOfResponse(mine.response, mine.patch),
      answerOfOutcome(outcome),
    );
  }
  for (const [i, answer] of recorded.entries()) {
    if (only !== undefined && answer.reference !== only) continue;
    const given = taken.get(`${answer.reference} ${answer.round}`) ?? 0;
    const nth = recorded.slice(0, i + 1).filter((r) => r.reference === answer.reference && r.round === answer.round).length;
    if (nth > given)
      chain.push(
        `${answer.reference} (round ${answer.round}): the recording has its answer, but it was not called: ${whyNotCalled(admitted.trace.steps, answer.reference, answer.round, admitted.status)}`,
      );
  }
  const unmatched = calls.length === 0 && !compared ? `no webhook was called:\n    ${String(admitted.trace).split('\n').join('\n    ')}` : undefined;
  const failed = unmatched !== undefined || chain.length > 0 || webhooks.some((w) => w.callError !== undefined || w.mismatches.length > 0);
  return {
    fixture,
    unit: 'admission',
    verdict: failed ? 'failed' : compared ? 'passed' : 'new',
    compared,
    webhooks,
    calls,
    trace: String(admitted.trace),
    ...(chain.length > 0 ? { chain } : {}),
    ...(unmatched ? { unmatched } : {}),
  };
}
