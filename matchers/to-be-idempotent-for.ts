import type { Review } from '../lib/review/review';
import { inconclusive, type MatcherContext, type MatcherResult } from './context';
import { changesSection, outcomeDetails, report } from '../lib/outcome/describe';
import { formatChanges } from '../lib/diff/json-diff';
import { reinvoke, type Peer, type Reinvocation, type Round } from '../lib/outcome/reinvoke';
import { judgeSecondRound } from '../lib/outcome/repeats';
import { asWebhookHandle } from '../lib/outcome/subject';

export interface IdempotenceOptions {
  /**
   * Patches of other mutating webhooks applied between the two calls, in order, as when a webhook
   * later in the chain (say another sidecar injector) changes the object and triggers reinvocation.
   */
  peers?: Peer[];
}

const WHY_IT_MATTERS =
  'Why it matters: when a later mutating webhook changes the object, kube-apiserver calls the earlier ones again ' +
  '(reinvocationPolicy: IfNeeded), sending them the object with their own changes already applied; the chain runs at most twice. ' +
  'A mutating webhook must therefore be idempotent: given its own output, with other webhooks’ changes on top, it must allow it, ' +
  'keep the others’ changes, and not redo its own.';

/**
 * Calls the webhook of `h.webhook(name)` with `review`, then again with the request carrying its own
 * output (after the `peers`' patches), and passes when the second answer allows the request, does not
 * redo the webhook's own changes and keeps the peers'. Without peers that means no change at all.
 * Async: `await expect(h.webhook(name)).toBeIdempotentFor(review)`.
 */
export async function toBeIdempotentFor(this: MatcherContext, received: unknown, review: Review, options: IdempotenceOptions = {}): Promise<MatcherResult> {
  const handle = asWebhookHandle(received, 'toBeIdempotentFor');
  if (handle.type !== 'mutating')
    throw new TypeError(`toBeIdempotentFor needs a mutating webhook; ${handle.name} is validating, and kube-apiserver never reinvokes those`);
  // Duck-typed: the Vitest entry is bundled apart from the library, so Review classes may differ.
  if (typeof (review as Partial<Review> | null)?.attributes !== 'object')
    throw new TypeError('toBeIdempotentFor expects a review built with review.create()/update()/connect() as its first argument');
  if (review.attributes.object === null)
    throw new TypeError(`toBeIdempotentFor needs a request with an object; ${review.summary()} has none for a webhook to patch`);
  const hint = this.utils.matcherHint('toBeIdempotentFor', 'webhook', 'review', { isNot: this.isNot });
  const rounds = await reinvoke(handle, review, options.peers ?? []);
  if ('problem' in rounds) return inconclusive(this, () => report(hint, `could not check idempotence: ${rounds.problem}`, ...roundSections(rounds)));
  const judged = judgeSecondRound(rounds, rounds.second);
  const faults = judged.filter((j) => j.fault).map((j) => j.text);
  const accepted = judged.filter((j) => !j.fault).map((j) => j.text);
  const acceptedSection = accepted.length > 0 ? `Accepted:\n${bullets(accepted)}` : undefined;
  const pass = faults.length === 0;
  return {
    pass,
    message: () =>
      pass
        ? report(
            hint,
            `expected ${handle.name} to change its own output when called again, but the second call allowed it and ${accepted.length > 0 ? 'only reacted to the peers' : 'left it unchanged'}`,
            acceptedSection,
            ...roundSections(rounds),
          )
        : report(
            hint,
            `expected ${handle.name} to leave its own output unchanged when called again, but:\n${bullets(faults)}`,
            acceptedSection,
            WHY_IT_MATTERS,
            ...roundSections(rounds),
          ),
  };
}

function bullets(lines: readonly string[]): string {
  return lines.map((l) => `  - ${l}`).join('\n');
}

/** Round by round: what changed, then the call as sent and answered. */
function roundSections(rounds: Reinvocation): string[] {
  const sections = [roundSection('Round 1 (the review as given)', rounds.first)];
  for (const peer of rounds.peers) sections.push(changesSection(`Between the rounds, ${peer.label}`, peer.changes));
  if ('second' in rounds) {
    const input = rounds.peers.length > 0 ? "round 1's output with the peers' changes" : "round 1's output";
    sections.push(roundSection(`Round 2 (${input})`, rounds.second));
  }
  return sections;
}

function roundSection(title: string, round: Round): string {
  const details = outcomeDetails(round.outcome)
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
  const changes = round.mutation.ok ? `  Changes:\n${formatChanges(round.mutation.changes, '    ')}` : `  No resulting object: ${round.mutation.why}`;
  return `${title}:\n${changes}\n${details}`;
}
