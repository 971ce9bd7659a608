import { isRecord } from '../kube/json';

/** A field path as kube's field errors print it: `spec.containers[1].name`. */
export function fieldPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return parent === '' ? key : `${parent}.${key}`;
}

/**
 * The members `after` has and `before` lacks, as field paths (an added object counts once, not
 * member by member): what a defaulter or a plugin filled in, for the trace. Lists are compared index
 * by index; items past the end of `before` are added.
 */
export function addedPaths(before: unknown, after: unknown, at = ''): string[] {
  if (Array.isArray(after)) {
    if (!Array.isArray(before)) return [];
    return after.flatMap((item, index) => (index < before.length ? addedPaths(before[index], item, fieldPath(at, index)) : [fieldPath(at, index)]));
  }
  if (!isRecord(after) || !isRecord(before)) return [];
  const paths: string[] = [];
  for (const [key, value] of Object.entries(after)) {
    const path = fieldPath(at, key);
    if (!(key in before)) paths.push(path);
    else paths.push(...addedPaths(before[key], value, path));
  }
  return paths;
}
