/**
 * The battery's follow-up checks on idempotence and object validity (lib/battery/follow-up.ts), for
 * replayed requests. They are built from the judgement the matchers share (lib/outcome/mutation.ts,
 * lib/outcome/repeats.ts, the judgement of toProduceValidObject and toBeIdempotentFor): a replayed
 * request is one recorded call, not a battery scenario.
 */
import type { Harness, HarnessCallOptions, HarnessCallOutcome } from '../harness';
import type { KubeObject } from '../kube/admission';
import { Review } from '../review/review';
import { mutationOf } from '../outcome/mutation';
import { judgeSecondChange } from '../outcome/repeats';

/** The battery's ids for the same checks, so reports read alike. */
export type FollowUpId = 'object-valid' | 'idempotent-reinvocation';

export interface FollowUpResult {
  id: FollowUpId;
  pass: boolean;
  /** Why it failed. */
  detail?: string;
}

/**
 * The follow-up checks that apply to one replayed call: none for a failed call, a denial, a validating
 * webhook or an answer without a patch. `object-valid`: the object the patch produces is one the API
 * accepts (it decodes into its kind and passes the resource's own validation). `idempotent-reinvocation`:
 * called again with its own output, as reinvocation calls it, the webhook allows it and changes nothing.
 */
export async function runFollowUps(
  harness: Harness,
  reference: string,
  review: Review,
  outcome: HarnessCallOutcome,
  callOptions: HarnessCallOptions = {},
): Promise<FollowUpResult[]> {
  if (outcome.type !== 'mutating' || outcome.error || !outcome.allowed || !outcome.patched) return [];
  const results: FollowUpResult[] = [objectValid(outcome)];
  const first = mutationOf(outcome);
  // Only an answer that changed the object has an output to call the webhook with.
  if (first.ok && first.after && first.changes.length > 0)
    results.push(await idempotent(harness, { reference, callOptions }, review, first.after, first.changes));
  return results;
}

function objectValid(outcome: HarnessCallOutcome): FollowUpResult {
  const patched = outcome.patched;
  if (!patched) return { id: 'object-valid', pass: true };
  if (!patched.ok)
    return {
      id: 'object-valid',
      pass: false,
      detail: `the patch leaves no object: kube-apiserver answers ${patched.status.code} ${patched.status.message ?? ''}`,
    };
  if (!patched.invalid) return { id: 'object-valid', pass: true };
  // kube's 422 message already lists every cause (`Pod "x" is invalid: [spec…: …, spec…: …]`).
  return { id: 'object-valid', pass: false, detail: `the API refuses the patched object: ${patched.invalid.code} ${patched.invalid.message ?? ''}` };
}

async function idempotent(
  harness: Harness,
  // Called again as the first call was: through the same matched version, if any.
  { reference, callOptions }: { reference: string; callOptions: HarnessCallOptions },
  review: Review,
  output: KubeObject,
  changes: Parameters<typeof judgeSecondChange>[1],
): Promise<FollowUpResult> {
  const second = await harness.call(reference, new Review({ ...review.attributes, object: output }), callOptions);
  const fail = (detail: string): FollowUpResult => ({ id: 'idempotent-reinvocation', pass: false, detail: `reinvoked with its own output, ${detail}` });
  if (second.error) return fail(`the call failed: ${second.error.message}`);
  if (second.denial) return fail(`the webhook denied it: ${second.denial.message ?? ''}`);
  const again = mutationOf(second);
  if (!again.ok) return fail(again.why);
  // No peers between the rounds: any change the second call makes is a fault (lib/outcome/repeats.ts).
  const faults = again.changes.map((change) => judgeSecondChange(change, changes, [])).filter((judged) => judged.fault);
  return faults.length === 0
    ? { id: 'idempotent-reinvocation', pass: true }
    : fail(`the webhook changed it again:\n      ${faults.map((f) => f.text).join('\n      ')}`);
}
