/**
 * Server-side apply in the mock API (apiserver `pkg/endpoints/handlers/patch.go` applyPatcher, the field
 * manager of `pkg/util/managedfields`, structured-merge-diff's `Updater.Apply`): the applied configuration
 * owns its fields under its manager; a field another manager owns with a different value is a conflict
 * (409, kube's text) unless `force` takes it; fields the manager applied before and no longer applies are
 * removed when no one else owns them; the configuration is merged into the object by the structured merge
 * MutatingAdmissionPolicy uses (lib/patch/smd/smd-merge.ts); then the write goes through the
 * registry stage like any other.
 */
import type { KubeObject } from '../../kube/admission';
import { joinApiVersion } from '../../kube/api-version';
import type { CatalogEntry } from '../../kube/catalog';
import { isObject, type JsonObject } from '../../kube/json';
import { ApiError, badRequest, invalid, type ApiStatus } from '../../kube/status';
import { mergePatch } from '../../patch';
import { builtinApplySchema, crdApplySchema, mergeValues, smdErrorsText, toJson, type ApplySchema, type GoValue } from '../../patch/smd';
import { structuralSchema } from '../../registry/crd';
import { fieldsOf, managedFieldsOf, subtractFields, type ManagedFieldsEntry } from '../../review/objects/managed-fields';
import type { JsonObject as FieldsObject } from '../../review/objects/json';
import type { FieldValidation } from '../writes/field-validation';
import { parseYamlBody, YamlBodyError, yamlUnmarshalErrors } from '../yaml-body';
import { isBuiltin, timestamp } from '../store';
import { createObject, updateObject, type WriteStage } from '../writes';
import { appliedSet, hasMembers, hasPath, leavesOf, pathText, setOf, valueAt, withoutPath, type FieldPath } from './field-paths';
import { ordered, withManagedFields } from './managed-fields';

interface Conflict {
  manager: ManagedFieldsEntry;
  path: FieldPath;
}

/** printManager: an Update manager is named with the version it wrote. */
const managerText = (e: ManagedFieldsEntry): string =>
  e.operation === 'Update' ? `${JSON.stringify(e.manager)} using ${e.apiVersion}` : JSON.stringify(e.manager);

/** `NewConflictError` (pkg/util/managedfields/internal/conflict.go): 409 with a cause per conflicting field. */
function conflictStatus(conflicts: readonly Conflict[]): ApiStatus {
  let message: string;
  if (conflicts.length === 1) {
    const [only] = conflicts as [Conflict];
    message = `Apply failed with 1 conflict: conflict with ${managerText(only.manager)}: ${pathText(only.path)}`;
  } else {
    const byManager = new Map<string, Conflict[]>();
    for (const conflict of conflicts) byManager.set(managerText(conflict.manager), [...(byManager.get(managerText(conflict.manager)) ?? []), conflict]);
    const lines = [...byManager.keys()]
      .sort()
      .flatMap((manager) => [`conflicts with ${manager}:`, ...(byManager.get(manager) ?? []).map((c) => `- ${pathText(c.path)}`)]);
    message = `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
  }
  const causes = conflicts.map((c) => ({ reason: 'FieldManagerConflict', message: `conflict with ${managerText(c.manager)}`, field: pathText(c.path) }));
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'Conflict', details: { causes }, code: 409 } as ApiStatus;
}

/** The applied configuration: YAML (JSON is YAML too), which must be an object; a repeated key keeps its last value. */
function parseApplied(body: string): { applied: JsonObject; repeatedKeys: readonly string[] } {
  let parsed: ReturnType<typeof parseYamlBody>;
  try {
    parsed = parseYamlBody(body);
  } catch (error) {
    if (!(error instanceof YamlBodyError)) throw error;
    // patch.go applyPatcher: `error decoding YAML: %v` of sigs.k8s.io/yaml's Unmarshal, which wraps go-yaml's error.
    throw new ApiError(badRequest(`error decoding YAML: error converting YAML to JSON: yaml: ${error.message}`));
  }
  if (!isObject(parsed.value)) throw new ApiError(badRequest('error decoding YAML: the applied configuration is not an object'));
  return { applied: parsed.value, repeatedKeys: parsed.repeatedKeys };
}

/**
 * patch.go applyPatcher: once the configuration is applied, `?fieldValidation` Strict or Warn reads it again
 * strictly (sigs.k8s.io/yaml `UnmarshalStrict`): Strict refuses a repeated key with a 400, Warn warns about
 * each. (Unknown fields are the structured merge's to refuse.)
 */
function checkRepeatedKeys(validation: FieldValidation | undefined, repeatedKeys: readonly string[]): void {
  if (!validation || validation.directive === 'Ignore' || repeatedKeys.length === 0) return;
  if (validation.directive === 'Warn') {
    for (const line of repeatedKeys) validation.warnings.add(line);
    return;
  }
  throw new ApiError(badRequest(`error strict decoding YAML: error converting YAML to JSON: ${yamlUnmarshalErrors(repeatedKeys)}`));
}

function applySchemaOf(entry: CatalogEntry): ApplySchema | undefined {
  if (entry.schema !== undefined) return crdApplySchema(structuralSchema(entry.schema));
  return builtinApplySchema(joinApiVersion(entry), entry.kind);
}

/** The configuration merged into the object by the structured merge (a merge patch for kinds without a schema). */
function merged(entry: CatalogEntry, current: JsonObject, applied: JsonObject): JsonObject {
  const schema = applySchemaOf(entry);
  if (!schema) return mergePatch(current, applied) as JsonObject;
  const result = mergeValues(current as GoValue, applied as GoValue, schema.root);
  if (result.errors.length > 0) throw new ApiError(badRequest(smdErrorsText(result.errors)));
  return (result.out === undefined ? {} : toJson(result.out)) as JsonObject;
}

const isOwnApply = (manager: string) => (e: ManagedFieldsEntry) => e.manager === manager && e.operation === 'Apply' && (e.subresource ?? '') === '';

/** Serves `PATCH` with `application/apply-patch+yaml`: 201 when it creates the object, else 200. */
export function serverSideApply(
  stage: WriteStage,
  entry: CatalogEntry,
  namespace: string,
  name: string,
  body: string,
  url: URL,
  dryRun: boolean,
  validation?: FieldValidation,
): { code: number; body: KubeObject } {
  const manager = url.searchParams.get('fieldManager');
  if (!manager) {
    const error = { type: 'FieldValueRequired' as const, field: 'fieldManager', body: 'Required value: is required for apply patch' };
    throw new ApiError(invalid({ group: 'meta.k8s.io', kind: 'PatchOptions' }, '', [error]));
  }
  const force = url.searchParams.get('force') === 'true';
  const { applied, repeatedKeys } = parseApplied(body);
  const owned = appliedSet(fieldsOf(applied as FieldsObject, 'object', !isBuiltin(entry)) as JsonObject);
  const own: ManagedFieldsEntry = {
    manager,
    operation: 'Apply',
    apiVersion: joinApiVersion(entry),
    time: timestamp(),
    fieldsType: 'FieldsV1',
    fieldsV1: owned as FieldsObject,
  };
  let current: KubeObject | undefined;
  try {
    current = stage.store.get(entry, namespace, name);
  } catch (error) {
    if (!(error instanceof ApiError && error.status.code === 404)) throw error;
  }
  const applyStage = { ...stage, manager };
  if (!current) {
    checkRepeatedKeys(validation, repeatedKeys);
    const record = (_before: KubeObject | null, after: KubeObject) => withManagedFields(after, [own]);
    return { code: 201, body: createObject(applyStage, entry, namespace, applied as KubeObject, dryRun, record) };
  }

  const entries = managedFieldsOf(current as FieldsObject);
  const others = entries.filter((e) => !isOwnApply(manager)(e));
  const appliedLeaves = leavesOf(owned);
  const conflicts: Conflict[] = [];
  for (const other of others) {
    for (const path of appliedLeaves) {
      // A list item or map both configurations hold is no value of its own: structured-merge-diff's comparison
      // reports only its members that changed, so the item conflicts through them (a defaulted member is no change).
      if (hasMembers(owned, path) || !hasPath(other.fieldsV1 as JsonObject, path)) continue;
      if (JSON.stringify(valueAt(current as JsonObject, path)) !== JSON.stringify(valueAt(applied, path))) conflicts.push({ manager: other, path });
    }
  }
  if (conflicts.length > 0 && !force) throw new ApiError(conflictStatus(conflicts));
  checkRepeatedKeys(validation, repeatedKeys);
  // force: the conflicting fields change hands.
  const taken = setOf(conflicts.map((c) => c.path));
  const kept = others.map((e) => ({ ...e, fieldsV1: subtractFields(e.fieldsV1, taken as FieldsObject) })).filter((e) => Object.keys(e.fieldsV1).length > 0);

  // What the manager applied before and no longer does goes, unless someone else still owns it.
  const previous = entries.find(isOwnApply(manager));
  // An apply that owns what it owned keeps its entry's time, so applying again unchanged is no write at all.
  if (previous && JSON.stringify(previous.fieldsV1) === JSON.stringify(own.fieldsV1) && previous.time !== undefined) own.time = previous.time;
  let base = current as JsonObject;
  for (const path of previous ? leavesOf(previous.fieldsV1 as JsonObject) : []) {
    if (hasPath(owned, path) || kept.some((e) => hasPath(e.fieldsV1 as JsonObject, path))) continue;
    base = withoutPath(base, path);
  }
  const next = merged(entry, base, applied);
  // A manager left owning nothing has no entry (structured-merge-diff drops empty sets).
  const mine = Object.keys(own.fieldsV1).length > 0 ? [own] : [];
  const record = (_before: KubeObject | null, after: KubeObject) => withManagedFields(after, ordered([...kept, ...mine]));
  return { code: 200, body: updateObject(applyStage, entry, namespace, name, next as KubeObject, dryRun, '', record) };
}
