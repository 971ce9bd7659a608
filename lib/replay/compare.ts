import { denialStatus } from '../call/status';
import type { HarnessCallOutcome } from '../harness';
import type { AdmissionResponse, JsonPatchOperation, Status } from '../kube/admission';
import { jsonEqual } from '../kube/json';
import type { WebhookType } from '../kube/webhook-config';
import type { Registry } from '../registry';
import type { Change } from '../diff/json-diff';
import { compareEffects, patchEffect, type PatchBase, type PatchEffect } from './patch-effect';

/** What replay compares of an answer: a recorded response, or a call's outcome, in the same terms. */
export interface Answer {
  allowed: boolean;
  /** The webhook's own status (a denial's), before kube-apiserver words it for the client. */
  status?: Status;
  warnings: readonly string[];
  /** Decoded; `[]` for none. */
  patch: readonly JsonPatchOperation[];
  /** The patch's effect when already worked out (the harness's `patched`). */
  effect?: PatchEffect;
}

/** One member of the answer that differs from the recording. */
export interface Mismatch {
  field: 'allowed' | 'status.code' | 'status.message' | 'warnings' | 'patch';
  recorded: unknown;
  replayed: unknown;
  /** For `patch`: the object after the recorded patch → after the replayed one, member by member. */
  changes?: Change[];
  /** For `patch`, when there is no object diff to show: a patch that does not apply or decode, or a validating webhook's. */
  detail?: string;
}

/** A recorded response's answer; `patch` is its patch decoded (LoadedFixture.recordedPatch). */
export function answerOfResponse(response: AdmissionResponse, patch: readonly JsonPatchOperation[]): Answer {
  return { allowed: response.allowed, ...(response.status ? { status: response.status } : {}), warnings: response.warnings ?? [], patch };
}

/** A call's answer; only a validly answered call has one (a calling error has no response to compare). */
export function answerOfOutcome(outcome: HarnessCallOutcome): Answer {
  const status = outcome.response?.status;
  const effect: PatchEffect | undefined =
    outcome.patched &&
    (outcome.patched.ok
      ? { ok: true, object: outcome.patched.object }
      : { ok: false, message: `${outcome.patched.status.code ?? 500} ${outcome.patched.status.message ?? ''}` });
  return { allowed: outcome.allowed, ...(status ? { status } : {}), warnings: outcome.warnings, patch: outcome.patch ?? [], ...(effect ? { effect } : {}) };
}

/** Who answered, and the request as it was sent (the patches' base). */
export interface Answered {
  webhook: string;
  type: WebhookType;
  base: PatchBase;
}

/**
 * How the replayed answer differs from the recorded one, as a client and the API would tell them apart:
 * `allowed`; for a denial, the code and message the client receives (kube-apiserver's wording: a code
 * under 400 or none is 400, so those compare equal); the warnings, in order; and for an allowed
 * mutating answer, the patch by its effect on the object. The uid and audit annotations are not compared
 * (a replay has a fresh uid; annotations are the webhook's bookkeeping).
 */
export function compareAnswers(registry: Registry, answered: Answered, recorded: Answer, replayed: Answer): Mismatch[] {
  const mismatches: Mismatch[] = [];
  if (recorded.allowed !== replayed.allowed) mismatches.push({ field: 'allowed', recorded: recorded.allowed, replayed: replayed.allowed });
  else if (!recorded.allowed) {
    const [a, b] = [denialStatus(answered.webhook, recorded.status), denialStatus(answered.webhook, replayed.status)];
    if (a.code !== b.code) mismatches.push({ field: 'status.code', recorded: a.code, replayed: b.code });
    if (a.message !== b.message) mismatches.push({ field: 'status.message', recorded: a.message, replayed: b.message });
  }
  if (!jsonEqual(recorded.warnings, replayed.warnings)) mismatches.push({ field: 'warnings', recorded: recorded.warnings, replayed: replayed.warnings });
  // kube-apiserver ignores a denial's patch; a validating webhook's patch is a calling error, never an answer.
  if (recorded.allowed && replayed.allowed) {
    const patch = comparePatches(registry, answered, recorded, replayed);
    if (patch) mismatches.push(patch);
  }
  return mismatches;
}

function comparePatches(registry: Registry, answered: Answered, recorded: Answer, replayed: Answer): Mismatch | undefined {
  if (jsonEqual(recorded.patch, replayed.patch)) return undefined;
  if (answered.type === 'validating')
    return { field: 'patch', recorded: recorded.patch, replayed: replayed.patch, detail: 'the recording has a patch, but validating webhooks may not patch' };
  const effect = (answer: Answer) => answer.effect ?? patchEffect(registry, answered.webhook, answered.base, answer.patch);
  const compared = compareEffects(registry, answered.base.kind, effect(recorded), effect(replayed));
  if (compared.equal) return undefined;
  return {
    field: 'patch',
    recorded: recorded.patch,
    replayed: replayed.patch,
    changes: compared.changes,
    ...(compared.detail ? { detail: compared.detail } : {}),
  };
}
