import type { GroupVersionKind } from '../kube/admission';
import type { JsonObject } from '../kube/json';
import type { JsonRecord } from '../kube/record';
import { defaultCustomResource, structuralSchema } from './crd';
import { apiDefaults } from './defaults';

/**
 * The kind's ObjectDefaulter, as callAttrMutatingHook runs it after every patch: the scheme's
 * defaulters for built-in kinds; a CRD's structural schema defaults for custom resources (no pruning
 * there: the API prunes a custom resource only when decoding a request body or reading it back).
 */
export function defaultObject(_kind: GroupVersionKind, object: JsonRecord, schema: unknown): JsonRecord {
  if (schema !== undefined) return defaultCustomResource(structuralSchema(schema), object as JsonObject) as JsonRecord;
  return apiDefaults(object);
}
