import type { GroupVersionKind, JsonPatchOperation, KubeObject, Status } from '../kube/admission';
import { goQuote } from '../go/strconv';
import { internalError, panicked } from '../kube/status';
import { applyJsonPatch, GO_PANIC_PREFIX } from './apply';
import type { Registry } from '../registry';

/** An allowed mutating answer's effect on the object: the result, or the request's rejection. */
export type PatchResult =
  | {
      ok: true;
      /** The object as the next webhook and storage see it: decoded into the kind and defaulted. */
      object: KubeObject | null;
      /** The object decoded, before defaulting: what kube-apiserver compares with the object before. */
      decoded: KubeObject | null;
      /** Whether kube-apiserver counts the patch as a change (mutation annotation, reinvocation). */
      changed: boolean;
      /** `changed` only because this was the request's first patch (see Registry.decodePatched). */
      onlyFreshTimes: boolean;
      /** Fields the kind does not have, dropped by the decode. */
      dropped: string[];
      /** Fields the kind's defaulters filled in after the decode. */
      defaulted: string[];
    }
  /** `failed`: no object to patch (DELETE), the JSON patch does not apply, or its result does not decode into the kind. */
  | { ok: false; status: Status; failed: 'no-object' | 'apply' | 'decode' };

/** What the patch is applied to, and in which kind the result is decoded. */
export interface PatchTarget {
  /** The object the webhook was sent (in the version its rules matched). */
  object: KubeObject | null;
  /** That version's kind: the patched JSON is decoded into it. */
  kind: GroupVersionKind;
  registry: Registry;
  /** The object still carries the request's sub-second managedFields time (the first patch of a request). */
  freshTimes?: boolean;
}

/**
 * Applies an allowed answer's patch as kube-apiserver's mutating dispatcher does (callAttrMutatingHook,
 * k8s.io/apiserver/pkg/admission/plugin/webhook/mutating/dispatcher.go): an empty patch changes nothing; a patch with no object to apply to
 * (DELETE), one that does not apply, or one that makes json-patch panic ends the request whatever the
 * failurePolicy; then the registry decodes the result into the kind (a type error is a 500 too),
 * compares it semantically with the object before, and defaults it.
 */
export function patchObject(webhook: string, target: PatchTarget, patch: readonly JsonPatchOperation[]): PatchResult {
  const { object } = target;
  if (patch.length === 0) return { ok: true, object, decoded: object, changed: false, onlyFreshTimes: false, dropped: [], defaulted: [] };
  if (object === null) {
    return {
      ok: false,
      failed: 'no-object',
      status: internalError(`admission webhook ${goQuote(webhook)} attempted to modify the object, which is not supported for this operation`),
    };
  }
  const applied = applyJsonPatch(object, patch);
  if (!applied.ok) return { ok: false, failed: 'apply', status: applied.error.startsWith(GO_PANIC_PREFIX) ? panicked() : internalError(applied.error) };
  const decoded = target.registry.decodePatched(target.kind, object, applied.document as KubeObject, target.freshTimes ?? false);
  if (!decoded.ok) return { ok: false, failed: 'decode', status: decoded.status };
  const { ok: _ok, ...result } = decoded;
  return { ok: true, ...result };
}
