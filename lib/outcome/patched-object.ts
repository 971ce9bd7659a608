import type { KubeObject } from '../kube/admission';
import type { Change } from '../diff/json-diff';
import { mutationOf } from './mutation';
import type { CallOrAdmit } from './subject';

/** The object a result leaves (with what the patch changed, for a call), or why there is none. */
export type PatchedObject = { ok: true; object: KubeObject | null; changes?: Change[] } | { ok: false; why: string };

/** `h.call()`: the object after the webhook's patch, as kube-apiserver continues with it; `h.admit()`: the admitted object. */
export function patchedObjectOf(subject: CallOrAdmit): PatchedObject {
  if (subject.source === 'call') {
    const mutation = mutationOf(subject.call);
    return mutation.ok ? { ok: true, object: mutation.after, changes: mutation.changes } : mutation;
  }
  const { admit } = subject;
  return admit.allowed ? { ok: true, object: admit.object } : { ok: false, why: `the admission chain rejected the request:\n  ${admit.status?.message ?? ''}` };
}
