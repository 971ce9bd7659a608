/**
 * FieldsV1 sets as structured-merge-diff walks them (`fieldpath.Set`, `fieldpath.Path.String`): the leaves
 * a set holds, the value a leaf names in an object, and a leaf as conflict messages print it
 * (`.data.k`, `.spec.containers[name="c"].image`, `.metadata.finalizers[="x"]`).
 */
import { isObject, type Json, type JsonObject } from '../../kube/json';

/** One path of a set: its FieldsV1 keys from the root (`f:data`, `k:{"name":"c"}`, `v:"x"`). */
export type FieldPath = readonly string[];

/**
 * The set an applied configuration owns, from its FieldsV1 (TypedValue.ToFieldSet): the leaves and the list
 * items, without the `.` markers of the maps and lists holding them.
 */
export function appliedSet(fields: JsonObject, inItem = false): JsonObject {
  const result: JsonObject = {};
  for (const [key, value] of Object.entries(fields)) {
    if (key === '.') {
      if (inItem) result[key] = {};
      continue;
    }
    const child = isObject(value) ? appliedSet(value, key.startsWith('k:') || key.startsWith('v:')) : {};
    result[key] = child;
  }
  return result;
}

/** Every path of the set that is a leaf or a list item's `.` (what ownership and conflicts are decided on). */
export function leavesOf(fields: JsonObject, prefix: FieldPath = []): FieldPath[] {
  const leaves: FieldPath[] = [];
  for (const [key, value] of Object.entries(fields)) {
    if (key === '.') {
      leaves.push(prefix);
      continue;
    }
    const children = isObject(value) ? value : {};
    if (Object.keys(children).length === 0) leaves.push([...prefix, key]);
    else leaves.push(...leavesOf(children, [...prefix, key]));
  }
  return leaves;
}

/** Whether `fields` holds `path` (as a leaf or a marked node). */
export function hasPath(fields: JsonObject, path: FieldPath): boolean {
  let node: Json | undefined = fields;
  for (const key of path) {
    if (!isObject(node) || !(key in node)) return false;
    node = node[key];
  }
  return isObject(node) && (Object.keys(node).length === 0 || '.' in node);
}

/** Whether the node `path` names in `fields` has members besides its own mark (`.`). */
export function hasMembers(fields: JsonObject, path: FieldPath): boolean {
  let node: Json | undefined = fields;
  for (const key of path) node = isObject(node) ? node[key] : undefined;
  return isObject(node) && Object.keys(node).some((key) => key !== '.');
}

/** The set holding exactly `paths`. */
export function setOf(paths: readonly FieldPath[]): JsonObject {
  const root: JsonObject = {};
  for (const path of paths) {
    let node = root;
    for (const key of path) node = (isObject(node[key]) ? node[key] : (node[key] = {})) as JsonObject;
  }
  return root;
}

function itemMatches(item: Json, key: string): boolean {
  if (key.startsWith('v:')) return JSON.stringify(item) === key.slice(2) || JSON.stringify(item) === JSON.stringify(JSON.parse(key.slice(2)));
  const wanted = JSON.parse(key.slice(2)) as JsonObject;
  return isObject(item) && Object.entries(wanted).every(([name, value]) => JSON.stringify(item[name]) === JSON.stringify(value));
}

/** The value `path` names in `object`, or undefined. */
export function valueAt(object: Json | undefined, path: FieldPath): Json | undefined {
  let node = object;
  for (const key of path) {
    if (key.startsWith('f:')) node = isObject(node) ? node[key.slice(2)] : undefined;
    else node = Array.isArray(node) ? node.find((item) => itemMatches(item, key)) : undefined;
    if (node === undefined) return undefined;
  }
  return node;
}

/** `object` without the value `path` names (a member deleted, a list item removed). */
export function withoutPath(object: JsonObject, path: FieldPath): JsonObject {
  const [key, ...rest] = path;
  if (key === undefined) return object;
  if (!key.startsWith('f:')) return object;
  const name = key.slice(2);
  const child = object[name];
  if (rest.length === 0) {
    const { [name]: _removed, ...others } = object;
    return others;
  }
  const [next] = rest;
  if (next !== undefined && !next.startsWith('f:') && Array.isArray(child)) {
    const items =
      rest.length === 1
        ? child.filter((item) => !itemMatches(item, next))
        : child.map((item) => (itemMatches(item, next) && isObject(item) ? withoutPath(item, rest.slice(1)) : item));
    return { ...object, [name]: items };
  }
  return isObject(child) ? { ...object, [name]: withoutPath(child, rest) } : object;
}

/** smd's Path.String: `.data.k`, `[name="c"]`, `[="x"]`. */
export function pathText(path: FieldPath): string {
  return path
    .map((key) => {
      if (key.startsWith('f:')) return `.${key.slice(2)}`;
      if (key.startsWith('v:')) return `[=${key.slice(2)}]`;
      const fields = JSON.parse(key.slice(2)) as JsonObject;
      return `[${Object.keys(fields)
        .sort()
        .map((name) => `${name}=${JSON.stringify(fields[name])}`)
        .join(',')}]`;
    })
    .join('');
}
