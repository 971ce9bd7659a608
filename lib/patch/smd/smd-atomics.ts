/**
 * The ApplyConfiguration check kube-apiserver adds on top of server-side apply
 * (admission/plugin/policy/mutating/patch/smd.go `validatePatch`/`findAtomics`): an apply configuration
 * may not set an atomic list, map or struct, since applying it would silently drop whatever the object
 * had there that the expression did not repeat. Lists are walked by index and only declared struct
 * fields are descended into (the values of a map's keys are not), as findAtomics does.
 */
import { fieldElement, indexElement } from './smd-path';
import type { TypeRef } from './schema';
import { isGoList, isGoMap, type GoValue } from './smd-values';

/** The paths of the atomic values in `value`, `.spec.containers[0].command` style. */
export function findAtomics(value: GoValue, type: TypeRef, path = ''): string[] {
  const atom = type();
  const found: string[] = [];
  if (isGoMap(value) && atom.map) {
    if (atom.map.elementRelationship === 'atomic') found.push(path);
    for (const [key, item] of Object.entries(value)) {
      const field = atom.map.fields.get(key);
      if (field) found.push(...findAtomics(item, field.type, path + fieldElement(key)));
    }
  }
  if (isGoList(value) && atom.list) {
    const list = atom.list;
    if (list.elementRelationship === 'atomic') found.push(path);
    value.forEach((item, i) => found.push(...findAtomics(item, list.elementType, path + indexElement(i))));
  }
  return found;
}

/** smd.go `validatePatch`'s error, or undefined when the apply configuration sets nothing atomic. */
export function atomicsError(value: GoValue, type: TypeRef): string | undefined {
  const atomics = findAtomics(value, type);
  return atomics.length > 0 ? `may not mutate atomic arrays, maps or structs: ${atomics.join(', ')}` : undefined;
}
