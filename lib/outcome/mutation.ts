import type { JsonPatchOperation, KubeObject } from '../kube/admission';
import { applyJsonPatch } from '../patch';
import { diffJson, type Change } from '../diff/json-diff';
import type { CallSubject } from './subject';

/** What one answer does to the request's object, decided as kube-apiserver's mutating dispatcher decides it. */
export type Mutation =
  | { ok: true; patch: JsonPatchOperation[]; before: KubeObject | null; after: KubeObject | null; changes: Change[] }
  /** There is no resulting object: `why` says what kube-apiserver would have done instead. */
  | { ok: false; why: string };

/**
 * The call's patch applied to the object it was sent, in kube-apiserver's order of checks: a failed
 * call or a denial ends the request before any patch (whose bytes kube ignores then), an empty patch
 * changes nothing, and a patch without an object to apply to, one that does not apply or whose result
 * does not decode into the kind is an internal error. The result is the object as the API continues
 * with it (h.call's `patched`: decoded, unknown fields dropped, defaulted); the changes are those of
 * the decoded object against the request's object as the API held it (defaulted), as kube-apiserver
 * compares them, so the API's defaults are never counted as the webhook's doing.
 */
export function mutationOf(subject: CallSubject): Mutation {
  const refused = refusal(subject);
  if (refused !== undefined) return { ok: false, why: refused };
  const sent = subject.review.request?.object ?? null;
  const patch = subject.patch ?? [];
  if (patch.length === 0) return { ok: true, patch, before: sent, after: sent, changes: [] };
  const patched = subject.patched ?? plainlyPatched(sent, patch);
  if (!patched.ok) {
    const why = WHY_NO_OBJECT[patched.failed];
    return { ok: false, why: `${why}; kube-apiserver rejects the request with:\n  ${patched.status.code} ${patched.status.message ?? ''}` };
  }
  const before = patched.before ?? sent;
  // What the patch changed, as kube-apiserver judges it: the decoded object (before its defaults) against
  // the object before. A webhook that puts back a container without the API's defaults changes it.
  const changes = patched.changed === false ? [] : diffJson(before, patched.decoded ?? patched.object);
  return { ok: true, patch, before, after: patched.object, changes };
}

const WHY_NO_OBJECT = {
  'no-object': 'the request has no object to patch',
  apply: "the patch does not apply to the request's object",
  decode: "the patched object does not decode into the request's kind",
} as const;

type Plain =
  | { ok: true; object: KubeObject | null; decoded?: KubeObject | null; before?: KubeObject | null; changed?: boolean }
  | { ok: false; failed: keyof typeof WHY_NO_OBJECT; status: { code?: number; message?: string } };

// An outcome from outside a harness carries no `patched`: the JSON patch alone, with no decode or defaults.
function plainlyPatched(object: KubeObject | null, patch: readonly JsonPatchOperation[]): Plain {
  if (object === null) return { ok: false, failed: 'no-object', status: { code: 500, message: 'the request has no object' } };
  const applied = applyJsonPatch(object, patch);
  return applied.ok
    ? { ok: true, object: applied.document as KubeObject }
    : { ok: false, failed: 'apply', status: { code: 500, message: `Internal error occurred: ${applied.error}` } };
}

/** Why the answer cannot patch anything at all (a failed call or a denial), or undefined for an allowed answer. */
export function refusal(subject: CallSubject): string | undefined {
  if (subject.error) return `the call failed:\n  ${subject.error.message}`;
  if (subject.denial) return `the webhook denied the request (kube-apiserver ignores the patch of a denial):\n  ${subject.denial.message}`;
  return undefined;
}
