import type { HarnessCallOutcome, WebhookHandle } from '../harness';
import type { JsonPatchOperation, KubeObject } from '../kube/admission';
import { patchObject } from '../patch/patch-object';
import { Review } from '../review/review';
import { diffJson, type Change } from '../diff/json-diff';
import { mutationOf, type Mutation } from './mutation';

/** Another mutating webhook's patch, run between the rounds: bare operations, or named like a stub. */
export type Peer = JsonPatchOperation[] | { name: string; ops: JsonPatchOperation[] };

export interface Round {
  outcome: HarnessCallOutcome;
  mutation: Mutation;
}

export interface PeerStep {
  label: string;
  changes: Change[];
}

/** Two calls of one webhook, the second with the first's output; `problem` when the second could not be made. */
export type Reinvocation = { first: Round; peers: PeerStep[] } & ({ second: Round } | { problem: string });

/**
 * Calls the webhook as kube-apiserver's reinvocation would: once with `review`, then with the same
 * request carrying the first answer's output as the API keeps it (decoded, defaulted), after the
 * peers' patches (webhooks ordered between them).
 */
export async function reinvoke(handle: WebhookHandle, review: Review, peers: readonly Peer[]): Promise<Reinvocation> {
  const first = await roundOf(handle, review);
  if (!first.mutation.ok) return { first, peers: [], problem: `the first call left no object to call again with: ${first.mutation.why}` };
  let object = first.mutation.after as KubeObject;
  const steps: PeerStep[] = [];
  if (peers.length > 0) await handle.registry.ready();
  for (const [i, peer] of peers.entries()) {
    const { label, ops } = Array.isArray(peer) ? { label: `peer #${i + 1}`, ops: peer } : { label: `peer ${peer.name}`, ops: peer.ops };
    // A peer's patch is applied as the dispatcher applies any webhook's (lib/patch/patch-object):
    // decoded into the kind the webhook was sent, then defaulted.
    const kind = first.outcome.review.request?.kind ?? review.attributes.kind;
    const applied = patchObject(label, { object, kind, registry: handle.registry }, ops);
    if (!applied.ok) return { first, peers: steps, problem: `${label}'s patch does not apply to the first call's output:\n  ${applied.status.message ?? ''}` };
    const next = applied.object as KubeObject;
    steps.push({ label, changes: applied.changed ? diffJson(object, next) : [] });
    object = next;
  }
  return { first, peers: steps, second: await roundOf(handle, new Review({ ...review.attributes, object })) };
}

async function roundOf(handle: WebhookHandle, review: Review): Promise<Round> {
  const outcome = await handle.call(review);
  return { outcome, mutation: mutationOf(outcome) };
}
