import { isObject, type JsonObject } from './json';
import { jsonEqual } from '../../kube/json';
import { isDefaultToleration } from '../../plugins';
import { keysOf } from './list-keys';
import { sortedMap } from '../../registry/shape';

/** One metav1.ManagedFieldsEntry, members in Go field order. */
export interface ManagedFieldsEntry {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  time?: string;
  fieldsType: 'FieldsV1';
  fieldsV1: JsonObject;
  subresource?: string;
}

/** Which part of an object a write sets: the object (status left to its subresource) or only its status. */
export type Scope = 'object' | 'status';

/*
 * structured-merge-diff's view of the built-in types, reduced to what decides the shape of fieldsV1:
 * keyed lists (list-keys.ts), sets, members owned whole (atomic), and structs held by value, which are
 * never owned themselves (no "." entry). Everything else nested is a map or a pointer, owned as a
 * whole too ("."). Custom resources without list-type markers are maps and atomic lists.
 */
const SETS = new Set(['finalizers']);
// Lists without omitempty are never absent, so the list itself is not owned (no "."), only its items.
const REQUIRED_LISTS = new Set(['containers']);
const ATOMIC = new Set(['selector', 'podSelector', 'namespaceSelector', 'roleRef', 'target']);
const VALUE_STRUCTS = new Set(['spec', 'metadata', 'template', 'strategy', 'updateStrategy', 'names', 'jobTemplate', 'resources', 'backend', 'status']);
const TRACKED_METADATA = ['generateName', 'labels', 'annotations', 'ownerReferences', 'finalizers'];

function itemKey(keys: readonly string[], item: JsonObject): string {
  const picked: JsonObject = {};
  for (const key of keys) if (item[key] !== undefined) picked[key] = item[key];
  // Key members are defaulted before items are matched, so an applied port without a protocol is TCP's.
  if (keys.includes('protocol') && picked.protocol === undefined) picked.protocol = 'TCP';
  return `k:${JSON.stringify(sortedMap(picked))}`;
}

function sortedFields(fields: JsonObject): JsonObject {
  return sortedMap(fields);
}

function listFields(name: string, items: unknown[], unstructured: boolean): JsonObject {
  if (SETS.has(name)) return sortedFields({ '.': {}, ...Object.fromEntries(items.map((v) => [`v:${JSON.stringify(v)}`, {}])) });
  const first = items.find(isObject);
  const keys = !unstructured && first ? keysOf(name, first) : undefined;
  if (!keys) return {};
  const entries = items.filter(isObject).map((item) => [itemKey(keys, item), { '.': {}, ...objectFields(item, unstructured) }] as const);
  return sortedFields({ ...(REQUIRED_LISTS.has(name) ? {} : { '.': {} }), ...Object.fromEntries(entries) });
}

function valueFields(name: string, value: unknown, unstructured: boolean): JsonObject | undefined {
  if (value === null || value === undefined) return undefined;
  if (Array.isArray(value)) return listFields(name, value, unstructured);
  if (!isObject(value) || ATOMIC.has(name) || Object.keys(value).length === 0) return {};
  const owned = unstructured ? name !== 'metadata' : !VALUE_STRUCTS.has(name);
  return { ...(owned ? { '.': {} } : {}), ...objectFields(value, unstructured) };
}

function objectFields(object: JsonObject, unstructured: boolean): JsonObject {
  const fields: JsonObject = {};
  for (const [name, value] of Object.entries(object)) {
    const child = valueFields(name, value, unstructured);
    if (child) fields[`f:${name}`] = child;
  }
  return sortedFields(fields);
}

/** The members a client sets in a write of `scope`: identity, server-set metadata and admission-plugin additions excluded. */
function written(object: JsonObject, scope: Scope): JsonObject {
  if (scope === 'status') return isObject(object.status) ? { status: object.status } : {};
  const { apiVersion: _apiVersion, kind, metadata, status: _status, ...rest } = object;
  const meta = isObject(metadata) ? Object.fromEntries(TRACKED_METADATA.filter((k) => metadata[k] !== undefined).map((k) => [k, metadata[k]])) : {};
  const members: JsonObject = { ...rest };
  // What in-tree admission plugins add after the write is recorded (Priority, DefaultTolerationSeconds, TaintNodesByCondition).
  if (kind === 'Pod' && isObject(members.spec)) {
    const { priority: _p, preemptionPolicy: _pp, tolerations, ...spec } = members.spec;
    const own = Array.isArray(tolerations) ? tolerations.filter((t) => !isDefaultToleration(t)) : [];
    members.spec = { ...spec, ...(own.length > 0 ? { tolerations } : {}) };
  }
  if (kind === 'Node' && isObject(members.spec) && jsonEqual(members.spec.taints, [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }])) {
    const { taints: _taints, ...spec } = members.spec;
    members.spec = spec;
  }
  // Top-level structs left empty are zero values, which structured-merge-diff does not record.
  const set = Object.fromEntries(Object.entries(members).filter(([, value]) => !(isObject(value) && Object.keys(value).length === 0)));
  return Object.keys(meta).length > 0 ? { metadata: meta, ...set } : set;
}

/** The fieldsV1 of everything a write of `scope` sets in `object`. */
export function fieldsOf(object: JsonObject, scope: Scope, unstructured: boolean): JsonObject {
  return objectFields(written(object, scope), unstructured);
}

function changedValue(name: string, before: unknown, after: unknown, unstructured: boolean): JsonObject | undefined {
  if (before === undefined || before === null) return valueFields(name, after, unstructured);
  if (jsonEqual(before, after)) return undefined;
  if (isObject(before) && isObject(after) && !ATOMIC.has(name)) {
    const fields = changedObject(before, after, unstructured);
    return Object.keys(fields).length > 0 ? fields : undefined;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const first = after.find(isObject);
    const keys = !unstructured && first && !SETS.has(name) ? keysOf(name, first) : undefined;
    if (!keys) return valueFields(name, after, unstructured);
    const previous = new Map(before.filter(isObject).map((item) => [itemKey(keys, item), item]));
    const entries: JsonObject = {};
    for (const item of after.filter(isObject)) {
      const key = itemKey(keys, item);
      const old = previous.get(key);
      const fields = old ? changedObject(old, item, unstructured) : { '.': {}, ...objectFields(item, unstructured) };
      if (Object.keys(fields).length > 0) entries[key] = fields;
    }
    return Object.keys(entries).length > 0 ? sortedFields(entries) : undefined;
  }
  return valueFields(name, after, unstructured);
}

function changedObject(before: JsonObject, after: JsonObject, unstructured: boolean): JsonObject {
  const fields: JsonObject = {};
  for (const [name, value] of Object.entries(after)) {
    const child = changedValue(name, before[name], value, unstructured);
    if (child) fields[`f:${name}`] = child;
  }
  return sortedFields(fields);
}

/** The fieldsV1 of what an update of `scope` changed from `before` to `after` (what its manager comes to own). */
export function changedFields(before: JsonObject, after: JsonObject, scope: Scope, unstructured: boolean): JsonObject {
  return changedObject(written(before, scope), written(after, scope), unstructured);
}

/** `fields` without the leaves of `taken` (a "." marker stays: the map or item itself is still owned). */
export function subtractFields(fields: JsonObject, taken: JsonObject): JsonObject {
  const result: JsonObject = {};
  for (const [key, value] of Object.entries(fields)) {
    const other = taken[key];
    if (other === undefined || key === '.') result[key] = value;
    else if (isObject(value) && isObject(other) && Object.keys(other).length > 0 && Object.keys(value).length > 0) {
      const rest = subtractFields(value, other);
      if (Object.keys(rest).length > 0) result[key] = rest;
    }
  }
  return result;
}

/**
 * `entries` after a write by `entry`'s manager: its fields join that manager's entry for the same
 * operation and subresource (or a new one); an update takes the fields it changed away from the other
 * updaters (apply shares them). Kept in the order the apiserver keeps them: Apply entries first, then
 * by time, then by manager.
 */
export function recordWrite(entries: readonly ManagedFieldsEntry[], entry: ManagedFieldsEntry): ManagedFieldsEntry[] {
  if (Object.keys(entry.fieldsV1).length === 0) return [...entries];
  const sameWriter = (e: ManagedFieldsEntry) => e.manager === entry.manager && e.operation === entry.operation && e.subresource === entry.subresource;
  const previous = entries.find(sameWriter);
  const merged: ManagedFieldsEntry = previous ? { ...entry, fieldsV1: mergeFields(previous.fieldsV1, entry.fieldsV1) } : entry;
  const others = entries
    .filter((e) => !sameWriter(e))
    .map((e) => (entry.operation === 'Update' && e.operation === 'Update' ? { ...e, fieldsV1: subtractFields(e.fieldsV1, entry.fieldsV1) } : e))
    .filter((e) => Object.keys(e.fieldsV1).length > 0);
  const rank = (e: ManagedFieldsEntry) => [e.operation === 'Apply' ? 0 : 1, e.time ?? '', e.manager] as const;
  return [...others, merged].sort((a, b) => {
    const [x, y] = [rank(a), rank(b)];
    return x[0] - y[0] || x[1].localeCompare(y[1]) || x[2].localeCompare(y[2]);
  });
}

export function mergeFields(a: JsonObject, b: JsonObject): JsonObject {
  const merged: JsonObject = { ...a };
  for (const [key, value] of Object.entries(b)) merged[key] = isObject(value) && isObject(merged[key]) ? mergeFields(merged[key] as JsonObject, value) : value;
  return sortedFields(merged);
}

/** An entry with its members in Go field order (optional ones left out when unset). */
export function managedFieldsEntry(entry: ManagedFieldsEntry): ManagedFieldsEntry {
  return {
    manager: entry.manager,
    operation: entry.operation,
    apiVersion: entry.apiVersion,
    ...(entry.time ? { time: entry.time } : {}),
    fieldsType: 'FieldsV1',
    fieldsV1: entry.fieldsV1,
    ...(entry.subresource ? { subresource: entry.subresource } : {}),
  };
}

/** Reads `metadata.managedFields` back as entries (whatever a user or a capture put there). */
export function managedFieldsOf(object: JsonObject): ManagedFieldsEntry[] {
  const metadata = object.metadata;
  if (!isObject(metadata) || !Array.isArray(metadata.managedFields)) return [];
  return metadata.managedFields.filter(isObject) as unknown as ManagedFieldsEntry[];
}
