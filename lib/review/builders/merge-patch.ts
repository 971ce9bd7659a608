import { HarnessError } from '../../errors';
import type { KubeObject } from '../../kube/admission';
import { applyJsonPatch } from '../../patch';
import { isObject, type JsonObject } from '../objects/json';
import { keysOf } from '../objects/list-keys';

/** RFC 7386 JSON merge patch: objects merge, everything else replaces, null deletes. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return structuredClone(patch);
  const result: JsonObject = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = mergePatch(result[key], value);
  }
  return result;
}

/**
 * A strategic merge patch for the built-in types: a merge patch whose keyed lists (containers by
 * name, ports by port…) merge item by item instead of being replaced. Directives ($patch, $retainKeys…) are not interpreted.
 */
export function strategicMergePatch(target: unknown, patch: unknown, name = ''): unknown {
  if (Array.isArray(patch) && Array.isArray(target)) {
    const first = patch.find(isObject) ?? target.find(isObject);
    const key = first ? keysOf(name, first)?.[0] : undefined;
    if (!key) return structuredClone(patch);
    const merged = target.map((item) => {
      const update = isObject(item) ? patch.find((p) => isObject(p) && p[key] === item[key]) : undefined;
      return update === undefined ? item : strategicMergePatch(item, update, name);
    });
    const added = patch.filter((p) => !isObject(p) || !target.some((item) => isObject(item) && item[key] === p[key]));
    return [...merged, ...structuredClone(added)];
  }
  if (!isObject(patch)) return structuredClone(patch);
  const result: JsonObject = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = strategicMergePatch(result[key], value, key);
  }
  return result;
}

export type PatchType = 'merge' | 'json' | 'strategic';

/** `object` with `patch` applied as the apiserver applies a PATCH of `type`. */
export function applyPatch(object: KubeObject, patch: unknown, type: PatchType): KubeObject {
  if (type === 'merge') return mergePatch(object, patch) as KubeObject;
  if (type === 'strategic') return strategicMergePatch(object, patch) as KubeObject;
  const result = applyJsonPatch(object, patch);
  if (!result.ok) throw new HarnessError('REVIEW_INVALID', `the JSON patch does not apply: ${result.error}`, 'give RFC 6902 operations whose paths exist in the stored object');
  return result.document as KubeObject;
}
