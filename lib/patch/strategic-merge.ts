/**
 * Strategic merge patch (`application/strategic-merge-patch+json`) for the built-in kinds webhooks most often
 * touch. kube-apiserver reads each field's patchStrategy and patchMergeKey from the Go struct tags; the ones
 * below are copied from k8s.io/api for pods, pod templates, services and object metadata. Lists not listed here
 * are atomic (the patch replaces them), as in Kubernetes for a list without a patch strategy.
 */
import { isObject, type Json, type JsonObject } from '../kube/json';

interface FieldSchema {
  /** A list of objects merged by this key. */
  mergeKey?: string;
  /** A list of scalars merged as a set (`finalizers`). */
  set?: true;
  /** The schema of the nested object, or of the list's items. */
  of?: StructSchema;
}
type StructSchema = Readonly<Record<string, FieldSchema>>;

const OBJECT_META: StructSchema = { finalizers: { set: true }, ownerReferences: { mergeKey: 'uid' } };
const CONTAINER: StructSchema = {
  env: { mergeKey: 'name' },
  ports: { mergeKey: 'containerPort' },
  volumeMounts: { mergeKey: 'mountPath' },
  volumeDevices: { mergeKey: 'devicePath' },
};
const POD_SPEC: StructSchema = {
  containers: { mergeKey: 'name', of: CONTAINER },
  initContainers: { mergeKey: 'name', of: CONTAINER },
  ephemeralContainers: { mergeKey: 'name', of: CONTAINER },
  volumes: { mergeKey: 'name' },
  imagePullSecrets: { mergeKey: 'name' },
  hostAliases: { mergeKey: 'ip' },
  topologySpreadConstraints: { mergeKey: 'topologyKey' },
  schedulingGates: { mergeKey: 'name' },
  resourceClaims: { mergeKey: 'name' },
};
const POD_TEMPLATE: StructSchema = { metadata: { of: OBJECT_META }, spec: { of: POD_SPEC } };
const WITH_TEMPLATE: StructSchema = { metadata: { of: OBJECT_META }, spec: { of: { template: { of: POD_TEMPLATE } } } };

/** Root schemas by `group/Kind`; kinds not listed merge maps and replace lists. */
const KINDS: Readonly<Record<string, StructSchema>> = {
  '/Pod': { ...POD_TEMPLATE, status: { of: { conditions: { mergeKey: 'type' } } } },
  '/PodTemplate': { metadata: { of: OBJECT_META }, template: { of: POD_TEMPLATE } },
  '/ReplicationController': WITH_TEMPLATE,
  '/Service': { metadata: { of: OBJECT_META }, spec: { of: { ports: { mergeKey: 'port' } } } },
  'apps/Deployment': WITH_TEMPLATE,
  'apps/StatefulSet': WITH_TEMPLATE,
  'apps/DaemonSet': WITH_TEMPLATE,
  'apps/ReplicaSet': WITH_TEMPLATE,
  'batch/Job': WITH_TEMPLATE,
  'batch/CronJob': { metadata: { of: OBJECT_META }, spec: { of: { jobTemplate: { of: WITH_TEMPLATE } } } },
};
const DEFAULT: StructSchema = { metadata: { of: OBJECT_META } };

/** A patch that cannot be applied; kube-apiserver answers these with a 500 carrying the text. */
export class StrategicMergeError extends Error {}

const DIRECTIVE = '$patch';
const RETAIN_KEYS = '$retainKeys';
const ORDER_PREFIX = '$setElementOrder/';
const DELETE_PREFIX = '$deleteFromPrimitiveList/';

/** How Go's fmt prints a decoded JSON value (`map[name:x]`), for error texts. */
function goPrint(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(goPrint).join(' ')}]`;
  if (isObject(value)) return `map[${Object.keys(value).sort().map((k) => `${k}:${goPrint(value[k] as Json)}`).join(' ')}]`;
  return value === null ? '<nil>' : String(value);
}

function keyOf(item: Json, mergeKey: string): Json {
  if (!isObject(item) || !(mergeKey in item)) throw new StrategicMergeError(`map: ${goPrint(item)} does not contain declared merge key: ${mergeKey}`);
  return item[mergeKey] as Json;
}

function mergeKeyedList(original: Json[], patch: Json[], field: FieldSchema & { mergeKey: string }): Json[] {
  // `{"$patch": "replace"}` among the items: the other items are the whole new list.
  if (patch.some((item) => isObject(item) && item[DIRECTIVE] === 'replace')) {
    return patch.filter((item) => !(isObject(item) && item[DIRECTIVE] === 'replace'));
  }
  const result = [...original];
  for (const item of patch) {
    const key = keyOf(item, field.mergeKey);
    const at = result.findIndex((existing) => isObject(existing) && existing[field.mergeKey] === key);
    if (isObject(item) && item[DIRECTIVE] === 'delete') {
      if (at >= 0) result.splice(at, 1);
    } else if (at >= 0) {
      result[at] = mergeObject(result[at] as JsonObject, item as JsonObject, field.of ?? {});
    } else {
      result.push(mergeObject({}, item as JsonObject, field.of ?? {}));
    }
  }
  return patchOrdered(result, original, patch, field.mergeKey);
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
  return list.map((item, index) => ({ item, index })).sort((a, b) => rank(a.item) - rank(b.item) || a.index - b.index).map(({ item }) => item);
}

function mergeObject(original: JsonObject, patch: JsonObject, schema: StructSchema): JsonObject {
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
    const field = schema[key] ?? {};
    const current = result[key];
    if (value === null || (isObject(value) && value[DIRECTIVE] === 'delete')) delete result[key];
    else if (isObject(value)) result[key] = mergeObject(isObject(current) ? current : {}, value, field.of ?? {});
    else if (Array.isArray(value) && field.mergeKey) result[key] = mergeKeyedList(Array.isArray(current) ? current : [], value, { ...field, mergeKey: field.mergeKey });
    else if (Array.isArray(value) && field.set) result[key] = [...new Set([...(Array.isArray(current) ? current : []), ...value])];
    else result[key] = value;
  }
  for (const [key, order] of Object.entries(patch)) {
    const field = key.startsWith(ORDER_PREFIX) ? key.slice(ORDER_PREFIX.length) : undefined;
    const list = field === undefined ? undefined : result[field];
    if (field !== undefined && Array.isArray(list) && Array.isArray(order)) result[field] = orderBy(list, order, schema[field]?.mergeKey);
  }
  const retain = patch[RETAIN_KEYS];
  if (Array.isArray(retain)) {
    for (const key of Object.keys(result)) if (!retain.includes(key)) delete result[key];
  }
  return result;
}

/** Applies a strategic merge patch to `original`, an object of kind `group`/`kind`. */
export function strategicMerge(original: JsonObject, patch: JsonObject, kind: { group: string; kind: string }): JsonObject {
  return mergeObject(original, patch, KINDS[`${kind.group}/${kind.kind}`] ?? DEFAULT);
}
