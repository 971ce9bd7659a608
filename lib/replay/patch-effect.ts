import type { GroupVersionKind, JsonPatchOperation, KubeObject } from '../kube/admission';
import { patchObject } from '../patch/patch-object';
import type { Registry } from '../registry';
import { diffJson, type Change } from '../diff/json-diff';

/**
 * What a patch does to the request's object as kube-apiserver keeps it: the object after the patch,
 * decoded into its kind (unknown fields dropped) and defaulted; or the error the API would end the
 * request with.
 */
export type PatchEffect = { ok: true; object: KubeObject | null } | { ok: false; message: string };

/** The object a patch was (or would be) applied to, and the kind it decodes into. */
export interface PatchBase {
  object: KubeObject | null;
  kind: GroupVersionKind;
}

/**
 * The effect of `patch` on `base`, with the project's patch code (lib/patch: evanphx/json-patch's
 * semantics, then the registry's decode and defaults). An empty patch goes through the same decode
 * and defaults, so it compares like a patch that changes nothing the API keeps (say, one that sets a
 * default value, or a field the kind does not have). The registry must be ready (`registry.ready()`).
 */
export function patchEffect(registry: Registry, webhook: string, base: PatchBase, patch: readonly JsonPatchOperation[]): PatchEffect {
  if (patch.length === 0) {
    if (base.object === null) return { ok: true, object: null };
    const decoded = registry.decodePatched(base.kind, base.object, base.object, false);
    return decoded.ok ? { ok: true, object: decoded.object } : { ok: false, message: `${decoded.status.code ?? 500} ${decoded.status.message ?? ''}` };
  }
  const result = patchObject(webhook, { object: base.object, kind: base.kind, registry }, patch);
  return result.ok ? { ok: true, object: result.object } : { ok: false, message: `${result.status.code ?? 500} ${result.status.message ?? ''}` };
}

/** Equal effects, or how they differ: the object diff (recorded → replayed), or the two errors. */
export type EffectComparison = { equal: true } | { equal: false; changes: Change[]; detail?: string };

/**
 * Compares two patches' effects as apimachinery's Semantic.DeepEqual compares objects
 * (lib/registry/equality.ts: quantities by value, a nil and an empty list alike), so a patch written
 * differently with the same result is equal; two failures are equal when the API's error is.
 */
export function compareEffects(registry: Registry, kind: GroupVersionKind, recorded: PatchEffect, replayed: PatchEffect): EffectComparison {
  if (!recorded.ok || !replayed.ok) {
    if (!recorded.ok && !replayed.ok && recorded.message === replayed.message) return { equal: true };
    const said = (effect: PatchEffect) => (effect.ok ? 'applies' : `fails: ${effect.message}`);
    return { equal: false, changes: [], detail: `the recorded patch ${said(recorded)}; the replayed patch ${said(replayed)}` };
  }
  const [a, b] = [recorded.object, replayed.object];
  if (a === null || b === null) return a === b ? { equal: true } : { equal: false, changes: diffJson(a, b) };
  return registry.equal(kind, a, b) ? { equal: true } : { equal: false, changes: diffJson(a, b) };
}
