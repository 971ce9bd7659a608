/**
 * Applying a MutatingAdmissionPolicy's JSONPatch mutation (admission/plugin/policy/mutating/patch/
 * json_patch.go `jsonPatcher.Patch`). kube-apiserver applies it with gopkg.in/evanphx/json-patch.v4,
 * the library and version it applies webhook patches with, so lib/patch/apply.ts (a port of it)
 * serves both. Unlike a webhook's patch:
 * - a failing `test` operation is not an error: the object is left as it was (`errors.Is(err,
 *   jsonpatch.ErrTestFailed)`);
 * - any other failure is `JSONPath: <json-patch's error>`.
 * The patched JSON is then decoded strictly into the version's type (an error there is a 500,
 * `apierrors.NewInternalError`): that is the caller's registry decode.
 */
import { applyJsonPatch, GO_PANIC_PREFIX } from '../../patch/apply';
import { ERR_TEST_FAILED } from '../../patch/go-text';
import type { JsonObject } from '../../kube/json';

export type JsonPatchMutationResult =
  | { ok: true; object: unknown; testFailed: boolean }
  /** `panicked`: json-patch panicked, which kube-apiserver's panic recovery answers, not the policy's failurePolicy. */
  | { ok: false; error: string; panicked: boolean };

const TEST_FAILED = new RegExp(`^testing value .* failed: ${ERR_TEST_FAILED}$`, 's');

/** Applies the operations of a JSONPatch mutation (expressions.ts gives them) to `object`. Neither is modified. */
export function applyMutationJsonPatch(object: unknown, operations: readonly JsonObject[]): JsonPatchMutationResult {
  const applied = applyJsonPatch(object, operations);
  if (applied.ok) return { ok: true, object: applied.document, testFailed: false };
  if (applied.error.startsWith(GO_PANIC_PREFIX)) return { ok: false, error: applied.error, panicked: true };
  if (TEST_FAILED.test(applied.error)) return { ok: true, object, testFailed: true };
  return { ok: false, error: `JSONPath: ${applied.error}`, panicked: false };
}
