import type { JsonPatchOperation, KubeObject } from '../lib/kube/admission';
import { patchObject } from '../lib/dispatch/patch-object';
import { diffJson, type Change } from './diff';
import type { CallSubject } from './subject';

/** What one answer does to the request's object, decided as kube-apiserver's mutating dispatcher decides it. */
export type Mutation =
  | { ok: true; patch: JsonPatchOperation[]; before: KubeObject | null; after: KubeObject | null; changes: Change[] }
  /** There is no resulting object: `why` says what kube-apiserver would have done instead. */
  | { ok: false; why: string };

/**
 * Applies the call's patch to the object it was sent, in kube-apiserver's order of checks: a failed
 * call or a denial ends the request before any patch (whose bytes kube ignores then), an empty patch
 * changes nothing, and a patch without an object to apply to or that does not apply is an internal error.
 */
export function mutationOf(subject: CallSubject): Mutation {
  const refused = refusal(subject);
  if (refused !== undefined) return { ok: false, why: refused };
  const before = subject.review.request?.object ?? null;
  const patch = subject.patch ?? [];
  const applied = patchObject(subject.webhook, before, patch);
  if (!applied.ok) {
    const why = before === null ? 'the request has no object to patch' : "the patch does not apply to the request's object";
    return { ok: false, why: `${why}; kube-apiserver rejects the request with:\n  ${applied.status.code} ${applied.status.message ?? ''}` };
  }
  return { ok: true, patch, before, after: applied.object, changes: applied.changed ? diffJson(before, applied.object) : [] };
}

/** Why the answer cannot patch anything at all (a failed call or a denial), or undefined for an allowed answer. */
export function refusal(subject: CallSubject): string | undefined {
  if (subject.error) return `the call failed:\n  ${subject.error.message}`;
  if (subject.denial) return `the webhook denied the request (kube-apiserver ignores the patch of a denial):\n  ${subject.denial.message}`;
  return undefined;
}
