// The options and results of a replay: what replay-fixture.ts (a call) and replay-admission.ts (a whole chain) both answer.
import type { HarnessCallOutcome } from '../harness';
import type { WebhookType } from '../kube/webhook-config';
import type { Mismatch } from './compare';
import type { LoadedFixture } from './fixture';
import type { FollowUpResult } from './follow-ups';

/** One webhook call of a replayed admission, in chain order: what an update records. */
export interface ChainCall {
  /** `configuration/name`. */
  reference: string;
  round: 0 | 1;
  outcome: HarnessCallOutcome;
}

export interface ReplayOptions {
  /**
   * Only this webhook (a name, or `configuration/name`): a call fixture that names no webhook is sent to
   * it instead of those its rules match; of an admission fixture, only its answers are compared.
   */
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
  /** What was replayed: one call (a RecordedReview) or the whole admission chain (a RecordedAdmission). */
  unit: 'call' | 'admission';
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
  /** An admission's calls that differ from the recording: an answer recorded but not given, or given but not recorded. */
  chain?: string[];
  /** An admission's trace (`String(result.trace)`), for the reader of a failure. */
  trace?: string;
  /** An admission's webhook calls, in chain order: what an update records. */
  calls?: ChainCall[];
}
