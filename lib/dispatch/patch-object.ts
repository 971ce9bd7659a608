import type { JsonPatchOperation, KubeObject, Status } from '../kube/admission';
import { goQuote } from '../go/strconv';
import { jsonEqual } from '../kube/json';
import { internalError, panicked } from '../kube/status';
import { applyJsonPatch, GO_PANIC_PREFIX } from '../patch';

/** An allowed mutating answer's effect on the object: the result, or the request's rejection. */
export type PatchResult = { ok: true; object: KubeObject | null; changed: boolean } | { ok: false; status: Status };

/**
 * Applies an allowed answer's patch as kube-apiserver's mutating dispatcher does (KUBE-FACTS §3.3
 * steps 4–8): an empty patch changes nothing; a patch with no object to apply to (DELETE), one that
 * does not apply, or one that makes json-patch panic ends the request whatever the failurePolicy.
 */
export function patchObject(webhook: string, object: KubeObject | null, patch: readonly JsonPatchOperation[]): PatchResult {
  if (patch.length === 0) return { ok: true, object, changed: false };
  if (object === null) {
    return { ok: false, status: internalError(`admission webhook ${goQuote(webhook)} attempted to modify the object, which is not supported for this operation`) };
  }
  const applied = applyJsonPatch(object, patch);
  if (!applied.ok) return { ok: false, status: applied.error.startsWith(GO_PANIC_PREFIX) ? panicked() : internalError(applied.error) };
  const patched = applied.document as KubeObject;
  return { ok: true, object: patched, changed: !jsonEqual(object, patched) };
}
