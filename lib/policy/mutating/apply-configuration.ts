/**
 * Applying a MutatingAdmissionPolicy's ApplyConfiguration to the object, as kube-apiserver does
 * (admission/plugin/policy/mutating/patch/smd.go `ApplyStructuredMergeDiff`, called from
 * `applyConfigPatcher.Patch`):
 * 1. the apply configuration gets the object's apiVersion and kind, and is turned into a typed value
 *    (smd validation: unknown fields, wrong types, list-map items without keys, duplicate keys);
 * 2. it may not set any atomic list, map or struct (`validatePatch`);
 * 3. the object is turned into a typed value too (it can fail: duplicate list-map keys the API
 *    accepted, such as two env vars of one name);
 * 4. the two merge with server-side apply's semantics (smd-merge.ts); the policy owns no fields, so
 *    nothing is removed that the apply configuration does not mention.
 * Errors carry kube's text, `error applying patch: …` included, as the patcher returns them.
 *
 * The caller then does what the dispatcher does after a patcher: convert the result into the
 * version's type, default it and compare it with the object before (the registry's decode).
 */
import type { JsonObject } from '../../kube/json';
import type { ApplySchema } from '../../patch/smd/schema';
import { atomicsError } from '../../patch/smd/smd-atomics';
import { smdErrorsText } from '../../patch/smd/smd-errors';
import { mergeValues } from '../../patch/smd/smd-merge';
import { validateValue } from '../../patch/smd/smd-validate';
import { isGoMap, toJson, type GoMap, type GoValue } from '../../patch/smd/smd-values';

export type ApplyConfigurationResult = { ok: true; object: JsonObject } | { ok: false; error: string };

/**
 * Merges `applyConfig` (the value of an ApplyConfiguration expression, see expressions.ts, or plain
 * JSON) into `object` by `schema` (builtin-schema.ts or crd-schema.ts). Neither argument is modified.
 */
export function applyConfiguration(object: JsonObject, applyConfig: GoMap | JsonObject, schema: ApplySchema): ApplyConfigurationResult {
  const failed = (error: string): ApplyConfigurationResult => ({ ok: false, error: `error applying patch: ${error}` });
  // patchObject.SetGroupVersionKind(the versioned object's GVK): whatever the expression set there is replaced.
  const patch: GoMap = { ...(applyConfig as GoMap) };
  if (object.apiVersion !== undefined) patch.apiVersion = object.apiVersion;
  if (object.kind !== undefined) patch.kind = object.kind;

  const patchErrors = validateValue(patch, schema.root);
  if (patchErrors.length > 0) return failed(`failed to convert patch object to typed object: ${smdErrorsText(patchErrors)}`);
  const atomics = atomicsError(patch, schema.root);
  if (atomics !== undefined) return failed(`invalid ApplyConfiguration: ${atomics}`);
  const objectErrors = validateValue(object as GoValue, schema.root);
  if (objectErrors.length > 0) return failed(`failed to convert original object to typed object: ${smdErrorsText(objectErrors)}`);

  const merged = mergeValues(object as GoValue, patch, schema.root);
  if (merged.errors.length > 0) return failed(`failed to merge patch: ${smdErrorsText(merged.errors)}`);
  const out = merged.out === undefined ? {} : toJson(merged.out);
  if (!isGoMap(out)) return failed('failed to convert typed object to object: the merge did not produce an object');
  return { ok: true, object: out as JsonObject };
}
