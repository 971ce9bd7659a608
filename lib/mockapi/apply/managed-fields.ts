/**
 * The managedFields every write of the mock API records, as kube-apiserver's field manager does
 * (apiserver `pkg/endpoints/handlers/fieldmanager`, structured-merge-diff's Update): the writer's manager
 * comes to own what its write changed, taken away from every other manager, in an `Update` entry with the
 * manager, the apiVersion, the time, `FieldsV1` and the subresource. The field sets are the review
 * builders' (lib/review/objects/managed-fields.ts), so a webhook sees the same shapes either way.
 */
import type { KubeObject } from '../../kube/admission';
import { joinApiVersion } from '../../kube/api-version';
import type { CatalogEntry } from '../../kube/catalog';
import type { JsonObject } from '../../review/objects/json';
import {
  changedFields,
  managedFieldsEntry,
  managedFieldsOf,
  mergeFields,
  subtractFields,
  type ManagedFieldsEntry,
  type Scope,
} from '../../review/objects/managed-fields';
import { isBuiltin, timestamp } from '../store';

/** Who a write is recorded for: `?fieldManager=`, else the User-Agent's first word, else `unknown`. */
export function managerOf(url: URL, userAgent: string | null): string {
  const asked = url.searchParams.get('fieldManager');
  if (asked) return asked;
  const prefix = (userAgent ?? '').split('/')[0]?.trim() ?? '';
  return prefix || 'unknown';
}

const isEmpty = (fields: JsonObject): boolean => Object.keys(fields).length === 0;

/** `entries` with `fields` taken from every manager but the writer's own entry; managers left with nothing drop out. */
export function withoutFields(entries: readonly ManagedFieldsEntry[], fields: JsonObject, keep: (e: ManagedFieldsEntry) => boolean): ManagedFieldsEntry[] {
  return entries.map((e) => (keep(e) ? e : { ...e, fieldsV1: subtractFields(e.fieldsV1, fields) })).filter((e) => !isEmpty(e.fieldsV1));
}

/** The entries in the order the apiserver keeps them: Apply first, then by time, then by manager. */
export function ordered(entries: readonly ManagedFieldsEntry[]): ManagedFieldsEntry[] {
  const rank = (e: ManagedFieldsEntry) => [e.operation === 'Apply' ? 0 : 1, e.time ?? '', e.manager] as const;
  return [...entries]
    .sort((a, b) => {
      const [x, y] = [rank(a), rank(b)];
      return x[0] - y[0] || x[1].localeCompare(y[1]) || x[2].localeCompare(y[2]);
    })
    .map(managedFieldsEntry);
}

export interface UpdateWriter {
  manager: string;
  /** '' for the object itself, `status` or `scale`. */
  subresource: string;
}

/**
 * `after` with the managedFields of an Update by `writer` from `before` (null for a create): the stored
 * entries (whatever the body carried), the writer's entry for the same subresource joined by what changed.
 */
export function recordUpdate(entry: CatalogEntry, before: KubeObject | null, after: KubeObject, writer: UpdateWriter): KubeObject {
  const unstructured = !isBuiltin(entry);
  const changedIn = (scope: Scope) => changedFields((before ?? {}) as JsonObject, after as JsonObject, scope, unstructured);
  // A status write records its metadata changes too (the status strategy keeps only the spec as stored).
  const changed = writer.subresource === 'status' ? mergeFields(changedIn('object'), changedIn('status')) : changedIn('object');
  const entries = before ? managedFieldsOf(before as JsonObject) : [];
  const sameWriter = (e: ManagedFieldsEntry) => e.manager === writer.manager && e.operation === 'Update' && (e.subresource ?? '') === writer.subresource;
  if (isEmpty(changed)) return withManagedFields(after, entries);
  const previous = entries.find(sameWriter);
  const own: ManagedFieldsEntry = {
    manager: writer.manager,
    operation: 'Update',
    apiVersion: joinApiVersion(entry),
    // The scale handler converts the parent's entries to a Scale's and back, which loses the writer's time.
    ...(writer.subresource === 'scale' ? {} : { time: timestamp() }),
    fieldsType: 'FieldsV1',
    fieldsV1: previous ? mergeFields(previous.fieldsV1, changed) : changed,
    ...(writer.subresource ? { subresource: writer.subresource } : {}),
  };
  const others = withoutFields(
    entries.filter((e) => !sameWriter(e)),
    changed,
    () => false,
  );
  return withManagedFields(after, ordered([...others, own]));
}

export function withManagedFields(object: KubeObject, entries: readonly ManagedFieldsEntry[]): KubeObject {
  const { managedFields: _sent, ...metadata } = object.metadata ?? {};
  return { ...object, metadata: { ...metadata, ...(entries.length > 0 ? { managedFields: entries as unknown as KubeObject[] } : {}) } };
}
