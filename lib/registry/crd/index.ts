/**
 * Custom resources as kube-apiserver keeps them, from their CRD's `openAPIV3Schema`: decoding
 * (pruning, ObjectMeta coercion), defaulting, the strategy's preparation and validation (schema value
 * validations, embedded resources, list types, x-kubernetes-validations rules).
 *
 * Typical use, per CRD version:
 *
 *   const schema = structuralSchema(version.schema.openAPIV3Schema);   // cached by identity
 *   await prepareCustomResourceValidation(schema);                      // once: loads CEL, compiles rules
 *   const decoded = decodeCustomResource(schema, body);                 // request body → admission
 *   const patched = defaultCustomResource(schema, afterWebhook);        // after each mutating webhook
 *   const errors = validateCustomResource(schema, object, old, { kind, namespaced, scale });
 *   const stored = pruneCustomResource(schema, object).object;          // what reading it back returns
 */
export { structuralSchema } from './structural';
export type { SchemaNode, StructuralSchema, ValidationRule } from './schema-node';
export { decodeCustomResource, pruneCustomResource } from './decode';
export type { CoercedCustomResource, CoercionFailure } from './decode';
export { defaultCustomResource } from './default';
export { prepareCustomResourceValidation } from './prepare';
export { customResourceValidation, validateCustomResource } from './validate';
export type { CustomResourceValidation, CustomResourceValidationOptions } from './validate';
export type { ScaleSubresource } from './scale';
export { prepareCustomResourceForCreate, prepareCustomResourceForUpdate, prepareCustomResourceStatusUpdate } from './strategy';
export type { StrategyOptions } from './strategy';
