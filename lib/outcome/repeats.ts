import { jsonEqual } from '../kube/json';
import { changeTarget, formatChange, nameOf, overlaps, preview, type Change } from '../diff/json-diff';
import type { PeerStep, Reinvocation, Round } from './reinvoke';

/** What a change made by the second call means, and whether it breaks idempotence. */
export interface SecondChange {
  text: string;
  fault: boolean;
}

/**
 * Judges one change of the second call against what the first call and the peers changed. Faults:
 * redoing the webhook's own change (`second call added /spec/containers/2 (foo-sidecar) again`),
 * undoing or overwriting a peer's change, or, with no peers, any change at all, since the input then
 * carries nothing the first call had not seen. With peers, reacting to their changes (say, defaulting
 * a container a peer added) is what reinvocation is for.
 */
export function judgeSecondChange(change: Change, first: readonly Change[], peers: readonly PeerStep[]): SecondChange {
  const target = changeTarget(change);
  for (const peer of peers) {
    const broken = peer.changes.find((c) => breaks(change, c));
    if (broken) return { fault: true, text: `second call ${change.kind} ${target}, which ${peer.label} ${broken.kind} between the rounds` };
  }
  const earlier = first.filter(
    (c) => touches(change, c) || (change.kind === 'added' && c.kind === 'added' && change.array !== undefined && c.array === change.array),
  );
  const copied = earlier.find((c) => isRenamedCopy(change, c));
  if (copied) {
    const text = `second call added ${target} again: the same as ${changeTarget(copied)} from the first call but for its name; a name that changes on every call (a timestamp, counter or random suffix) keeps the webhook from recognising what it already added`;
    return { fault: true, text };
  }
  const [repeated] = earlier;
  if (repeated) return { fault: true, text: repetition(change, target, repeated) };
  if (peers.length > 0) return { fault: false, text: `second call ${formatChange(change)}, in response to the peers' changes` };
  return { fault: true, text: `second call ${formatChange(change)}, a change the first call did not make` };
}

/** The second round of a reinvocation judged: a denial or a patch that leaves no object is a fault, else each change on its own. */
export function judgeSecondRound(rounds: Reinvocation, second: Round): SecondChange[] {
  const { outcome, mutation } = second;
  if (outcome.denial)
    return [{ fault: true, text: `second call denied the request the first call allowed, rejecting the webhook's own output:\n    ${outcome.denial.message}` }];
  if (!mutation.ok) return [{ fault: true, text: `second call: ${mutation.why}` }];
  const first = rounds.first.mutation.ok ? rounds.first.mutation.changes : [];
  return mutation.changes.map((c) => judgeSecondChange(c, first, rounds.peers));
}

function repetition(change: Change, target: string, repeated: Change): string {
  if (change.kind === 'added') return `second call added ${target} again`;
  if (change.kind === 'removed') return `second call removed ${target}, which the first call ${repeated.kind}`;
  const derived = isDerived(change) ? ' (the new value is built from the current one, so every call changes it)' : '';
  return `second call changed ${target} again: ${preview(change.before)} → ${preview(change.after)}${derived}`;
}

/** Adding inside what a peer added extends it; removing, overwriting, or re-adding what it removed does not leave it intact. */
function breaks(change: Change, peer: Change): boolean {
  if (!touches(change, peer)) return false;
  return change.kind !== 'added' || peer.kind === 'removed';
}

/** Same member, or the same element of an array of named elements wherever it moved. */
function touches(a: Change, b: Change): boolean {
  const namesA = elementNames(a);
  const namesB = elementNames(b);
  if (a.array !== undefined && a.array === b.array && namesA.length > 0 && namesB.length > 0) return namesA.some((n) => namesB.includes(n));
  return overlaps(a.path, b.path);
}

function elementNames(change: Change): string[] {
  return [nameOf(change.before), nameOf(change.after)].filter((n): n is string => n !== undefined);
}

function isRenamedCopy(change: Change, earlier: Change): boolean {
  if (change.kind !== 'added' || earlier.kind !== 'added') return false;
  const name = nameOf(change.after);
  const earlierName = nameOf(earlier.after);
  return (
    name !== undefined &&
    earlierName !== undefined &&
    name !== earlierName &&
    jsonEqual({ ...(change.after as object), name: '' }, { ...(earlier.after as object), name: '' })
  );
}

function isDerived(change: Change): boolean {
  return typeof change.before === 'string' && typeof change.after === 'string' && change.before !== '' && change.after.includes(change.before);
}
