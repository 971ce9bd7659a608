/**
 * Strategic merge patch (`application/strategic-merge-patch+json`) for every built-in kind. kube-apiserver
 * reads each field's patchStrategy and patchMergeKey from the Go struct tags
 * (apimachinery pkg/util/strategicpatch `MergeStrategicMergeMapPatchUsingLookupPatchMeta` over
 * `PatchMetaFromStruct`); the same facts are the OpenAPI extensions `x-kubernetes-patch-strategy` and
 * `x-kubernetes-patch-merge-key`, which the schema table (lib/registry/schema/table.ts) carries. A list
 * without a merge strategy is atomic (the patch replaces it).
 */
import { isObject, type Json, type JsonObject } from '../kube/json';
import { structForGroupKind, structForKind, structByName, type FieldExtensions, type GoType } from '../registry/schema/table';
import { goValueText } from '../registry/crd/openapi/go-values';

/** What the merge knows of a member: its Go type (undefined when the schema does not have it) and its patch extensions. */
interface Member {
  readonly type: GoType | undefined;
  readonly extensions: FieldExtensions;
}

const NO_EXTENSIONS: FieldExtensions = {};
const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

/** The member `key` of a value of `type`: a struct's field, a map's element. */
function memberOf(type: GoType | undefined, key: string): Member {
  if (type?.kind === 'struct') return { type: type.fields.get(key), extensions: type.extensions.get(key) ?? NO_EXTENSIONS };
  if (type?.kind === 'map') return { type: type.elem, extensions: NO_EXTENSIONS };
  return { type: undefined, extensions: NO_EXTENSIONS };
}

function mergesList(member: Member): boolean {
  return (member.extensions.patchStrategy ?? '').split(',').includes('merge');
}

function itemType(member: Member): GoType | undefined {
  return member.type?.kind === 'slice' ? member.type.elem : undefined;
}

/** A patch that cannot be applied; kube-apiserver answers these with a 500 carrying the text. */
export class StrategicMergeError extends Error {}

const DIRECTIVE = '$patch';
const RETAIN_KEYS = '$retainKeys';
const ORDER_PREFIX = '$setElementOrder/';
const DELETE_PREFIX = '$deleteFromPrimitiveList/';

function keyOf(item: Json, mergeKey: string): Json {
  if (!isObject(item) || !(mergeKey in item)) throw new StrategicMergeError(`map: ${goValueText(item)} does not contain declared merge key: ${mergeKey}`);
  return item[mergeKey] as Json;
}

function mergeKeyedList(original: Json[], patch: Json[], mergeKey: string, item: GoType | undefined): Json[] {
  // `{"$patch": "replace"}` among the items: the other items are the whole new list.
  if (patch.some((item) => isObject(item) && item[DIRECTIVE] === 'replace')) {
    return patch.filter((item) => !(isObject(item) && item[DIRECTIVE] === 'replace'));
  }
  const result = [...original];
  for (const entry of patch) {
    const key = keyOf(entry, mergeKey);
    const at = result.findIndex((existing) => isObject(existing) && existing[mergeKey] === key);
    if (isObject(entry) && entry[DIRECTIVE] === 'delete') {
      if (at >= 0) result.splice(at, 1);
    } else if (at >= 0) {
      result[at] = mergeObject(result[at] as JsonObject, entry as JsonObject, item);
    } else {
      result.push(mergeObject({}, entry as JsonObject, item));
    }
  }
  return patchOrdered(result, original, patch, mergeKey);
}

/**
 * strategicpatch's normalizeElementOrder: the items the patch names in the patch's order, the others in the
 * original's, merged as mergeSortedSlice(serverOnly, patchItems) merges them — where the original orders
 * both it decides, else the patch's item comes first (a new item goes to the front, as kube-apiserver puts
 * a patched-in pod condition before the ones it had).
 */
function patchOrdered(merged: Json[], original: Json[], patch: Json[], mergeKey: string): Json[] {
  const keyIn = (list: Json[], item: Json): number => list.findIndex((other) => isObject(other) && isObject(item) && other[mergeKey] === item[mergeKey]);
  const patchItems = merged.filter((item) => keyIn(patch, item) >= 0).sort((a, b) => keyIn(patch, a) - keyIn(patch, b));
  const serverOnly = merged.filter((item) => keyIn(patch, item) < 0);
  const result: Json[] = [];
  let i = 0;
  let j = 0;
  while (i < serverOnly.length || j < patchItems.length) {
    if (j >= patchItems.length) result.push(serverOnly[i++] as Json);
    else if (i >= serverOnly.length) result.push(patchItems[j++] as Json);
    else {
      const left = keyIn(original, serverOnly[i] as Json);
      const right = keyIn(original, patchItems[j] as Json);
      if (left >= 0 && right >= 0 && left < right) result.push(serverOnly[i++] as Json);
      else result.push(patchItems[j++] as Json);
    }
  }
  return result;
}

function orderBy(list: Json[], order: Json[], mergeKey: string | undefined): Json[] {
  const rank = (item: Json): number => {
    const at = order.findIndex((o) => (mergeKey ? isObject(o) && isObject(item) && o[mergeKey] === item[mergeKey] : o === item));
    return at < 0 ? order.length : at;
  };
  return list
    .map((item, index) => ({ item, index }))
    .sort((a, b) => rank(a.item) - rank(b.item) || a.index - b.index)
    .map(({ item }) => item);
}

function mergeObject(original: JsonObject, patch: JsonObject, type: GoType | undefined): JsonObject {
  if (patch[DIRECTIVE] === 'replace') {
    const { [DIRECTIVE]: _directive, ...rest } = patch;
    return rest;
  }
  const result: JsonObject = { ...original };
  for (const [key, value] of Object.entries(patch)) {
    if (key === DIRECTIVE || key === RETAIN_KEYS || key.startsWith(ORDER_PREFIX)) continue;
    if (key.startsWith(DELETE_PREFIX)) {
      const field = key.slice(DELETE_PREFIX.length);
      const current = result[field];
      if (Array.isArray(current) && Array.isArray(value)) result[field] = current.filter((item) => !value.includes(item));
      continue;
    }
    const member = memberOf(type, key);
    const current = result[key];
    const mergeKey = member.extensions.patchMergeKey;
    if (value === null || (isObject(value) && value[DIRECTIVE] === 'delete')) delete result[key];
    else if (isObject(value)) result[key] = mergeObject(isObject(current) ? current : {}, value, member.type);
    else if (Array.isArray(value) && mergesList(member) && mergeKey)
      result[key] = mergeKeyedList(Array.isArray(current) ? current : [], value, mergeKey, itemType(member));
    else if (Array.isArray(value) && mergesList(member)) result[key] = [...new Set([...(Array.isArray(current) ? current : []), ...value])];
    else result[key] = value;
  }
  for (const [key, order] of Object.entries(patch)) {
    const field = key.startsWith(ORDER_PREFIX) ? key.slice(ORDER_PREFIX.length) : undefined;
    const list = field === undefined ? undefined : result[field];
    if (field !== undefined && Array.isArray(list) && Array.isArray(order))
      result[field] = orderBy(list, order, memberOf(type, field).extensions.patchMergeKey);
  }
  const retain = patch[RETAIN_KEYS];
  if (Array.isArray(retain)) {
    for (const key of Object.keys(result)) if (!retain.includes(key)) delete result[key];
  }
  return result;
}

/**
 * The Go type a patch of `original` (of kind `group`/`kind`) merges by: its own version's when the table
 * has it, else another version of the kind; for a kind the table lacks, only its metadata is known.
 */
function rootType(original: JsonObject, kind: { group: string; kind: string }): GoType | undefined {
  const apiVersion = typeof original.apiVersion === 'string' ? original.apiVersion : undefined;
  const own = apiVersion !== undefined && original.kind === kind.kind ? structForKind(apiVersion, kind.kind) : undefined;
  const root = own ?? structForGroupKind(kind.group, kind.kind);
  if (root) return root;
  const meta = structByName(OBJECT_META);
  return meta ? { ...meta, id: '', goName: '', name: '', fields: new Map([['metadata', meta]]), extensions: new Map() } : undefined;
}

/** Applies a strategic merge patch to `original`, an object of kind `group`/`kind`. */
export function strategicMerge(original: JsonObject, patch: JsonObject, kind: { group: string; kind: string }): JsonObject {
  return mergeObject(original, patch, rootType(original, kind));
}
