import type { KubeObject } from '../../kube/admission';
import { isObject, objectAt, stringAt, type JsonObject } from '../objects/json';
import { changedFields, fieldsOf, managedFieldsEntry, managedFieldsOf, recordWrite, type ManagedFieldsEntry, type Scope } from '../objects/managed-fields';
import { canonical } from '../../registry/encode';
import { NOW, timestamp } from '../../kube/time';
import { isUnstructured } from '../../kube/unstructured';
import type { RequestOptions, Writer } from './options';

function withEntries(object: KubeObject, entries: readonly ManagedFieldsEntry[]): KubeObject {
  return canonical({ ...object, metadata: { ...objectAt(object, 'metadata'), managedFields: entries.map(managedFieldsEntry) } });
}

/** The fieldsV1 of an applied configuration: server-side apply records no "." for maps and structs, only for list items. */
export function appliedFields(config: KubeObject): JsonObject {
  const strip = (fields: JsonObject, item: boolean): JsonObject =>
    Object.fromEntries(
      Object.entries(fields)
        .filter(([key]) => item || key !== '.')
        .map(([key, value]) => [key, isObject(value) ? strip(value, key.startsWith('k:') || key.startsWith('v:')) : value]),
    );
  return strip(fieldsOf(config, 'object', isUnstructured(config.apiVersion)), false);
}

/**
 * A stored object's managedFields when it has none: its creator's entry (kubectl create, or the
 * controller of an owned object), from when it was created.
 */
export function withCreator(stored: KubeObject, options: RequestOptions): KubeObject {
  if (!options.managedFields || managedFieldsOf(stored).length > 0) return stored;
  const metadata = objectAt(stored, 'metadata');
  const entry: ManagedFieldsEntry = {
    manager: Array.isArray(metadata.ownerReferences) ? 'kube-controller-manager' : 'kubectl-create',
    operation: 'Update',
    apiVersion: String(stored.apiVersion),
    ...(stringAt(metadata, 'creationTimestamp') ? { time: stringAt(metadata, 'creationTimestamp') } : {}),
    fieldsType: 'FieldsV1',
    fieldsV1: fieldsOf(stored, 'object', isUnstructured(stored.apiVersion)),
  };
  return withEntries(stored, [entry]);
}

/**
 * When a write happens: the harness clock's now, or just after the stored object's latest time if
 * that is not earlier (a recorded object, say), so the write comes after the object's history.
 */
function writeTime(stored: KubeObject | undefined): string {
  const metadata = stored ? objectAt(stored, 'metadata') : {};
  const times = [stringAt(metadata, 'creationTimestamp') ?? '', ...managedFieldsOf(stored ?? {}).map((e) => e.time ?? '')];
  const latest = Math.max(...times.filter(Boolean).map((t) => Date.parse(t)));
  return timestamp(latest >= NOW ? latest + 1000 : NOW);
}

function entryOf(object: KubeObject, writer: Writer, fieldsV1: JsonObject, subresource?: string, stored?: KubeObject): ManagedFieldsEntry {
  return {
    manager: writer.manager,
    operation: writer.operation,
    apiVersion: String(object.apiVersion),
    time: writeTime(stored),
    fieldsType: 'FieldsV1',
    fieldsV1,
    ...(subresource ? { subresource } : {}),
  };
}

/**
 * The object of a create, with (when RequestOptions.managedFields asks for them) the managedFields
 * entry the write records, unless the object brought its own. `fields`: what the writer owns, when
 * not everything it sent (server-side apply).
 */
export function stampCreate(object: KubeObject, writer: Writer, options: RequestOptions, subresource?: string, fields?: JsonObject): KubeObject {
  if (!options.managedFields || managedFieldsOf(object).length > 0) return canonical(object);
  return withEntries(object, [entryOf(object, writer, fields ?? fieldsOf(object, 'object', isUnstructured(object.apiVersion)), subresource)]);
}

/** The new object of an update, with (when asked for) the writer's entry for what it changed added to the stored managedFields. */
export function stampUpdate(
  before: KubeObject,
  after: KubeObject,
  writer: Writer,
  options: RequestOptions,
  scope: Scope,
  subresource?: string,
  fields?: JsonObject,
): KubeObject {
  if (!options.managedFields) return canonical(after);
  const inherited = managedFieldsOf(after).length > 0 ? managedFieldsOf(after) : managedFieldsOf(withCreator(before, options));
  const changed = fields ?? changedFields(before, after, scope, isUnstructured(after.apiVersion));
  return withEntries(after, recordWrite(inherited, entryOf(after, writer, changed, subresource, before)));
}
