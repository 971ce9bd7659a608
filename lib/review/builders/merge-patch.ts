import { HarnessError } from '../../errors';
import type { KubeObject } from '../../kube/admission';
import { splitApiVersion } from '../../kube/api-version';
import type { JsonObject } from '../../kube/json';
import { applyJsonPatch, mergePatch, strategicMerge } from '../../patch';
import { isUnstructured } from '../../kube/unstructured';

export type PatchType = 'merge' | 'json' | 'strategic';

/**
 * A strategic merge of `patch` into `object` for built-in kinds (keyed lists merge item by item);
 * custom resources have no strategic merge schema, so theirs is a plain merge patch.
 */
export function strategicMergeOf(object: KubeObject, patch: KubeObject): KubeObject {
  if (isUnstructured(object.apiVersion)) return mergePatch(object as JsonObject, patch as JsonObject) as KubeObject;
  const [group] = splitApiVersion(object.apiVersion ?? '');
  return strategicMerge(object as JsonObject, patch as JsonObject, { group, kind: object.kind ?? '' }) as KubeObject;
}

/** `object` with `patch` applied as the apiserver applies a PATCH of `type`. */
export function applyPatch(object: KubeObject, patch: unknown, type: PatchType): KubeObject {
  if (type === 'merge') return mergePatch(object as JsonObject, patch as JsonObject) as KubeObject;
  if (type === 'strategic') return strategicMergeOf(object, patch as KubeObject);
  const result = applyJsonPatch(object, patch);
  if (!result.ok)
    throw new HarnessError(
      'REVIEW_INVALID',
      `the JSON patch does not apply: ${result.error}`,
      'give RFC 6902 operations whose paths exist in the stored object',
    );
  return result.document as KubeObject;
}
