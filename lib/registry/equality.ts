import type { GroupVersionKind } from '../kube/admission';
import { isRecord, jsonEqual } from '../kube/json';
import { joinApiVersion } from '../kube/api-version';
import type { JsonRecord } from '../kube/record';
import { isPointerField } from './go-pointers';
import { compareQuantities, quantityFromJson } from '../kube/quantity';
import { structByName, structForKind, type GoType, type StructType } from './schema/table';

/**
 * apimachinery's Semantic.DeepEqual (pkg/api/equality/semantic.go over the forked reflect.DeepEqual,
 * third_party/forked/golang/reflect/deep_equal.go) on the typed forms of two objects of `kind`: only
 * the fields the Go type has count; a nil and an empty slice or map are equal; quantities compare by
 * value (Quantity.Cmp); times compare exactly. A custom resource is an unstructured map, compared
 * member for member (an absent key and an empty map differ there).
 *
 * What the JSON does not say, lib/registry/go-pointers.ts does: a pointer field absent (nil) differs
 * from one present at its zero value (`automountServiceAccountToken: false`, `securityContext: {}`),
 * while an absent value field equals its zero value (`hostNetwork: false`, `resources: {}`). Fields of
 * structs that table does not list are taken as values.
 */
export function semanticEqual(kind: GroupVersionKind, a: JsonRecord, b: JsonRecord, schema: unknown): boolean {
  const type = schema === undefined ? structForKind(joinApiVersion(kind), kind.kind) : undefined;
  return type ? equalStruct(type, a, b) : jsonEqual(a, b);
}

/**
 * Semantic.DeepEqual on two values of a part of a built-in type, named by its OpenAPI definition
 * (`io.k8s.api.core.v1.PodSpec`) and, for one field of it, the field's json name: what the validation of
 * an update compares (an immutable selector, a pod spec after the mutable fields are put back). Which
 * fields hold quantities, pointers or named types comes from the schema table, never from field names;
 * a definition or field the table lacks is compared as JSON (`semanticEqualAs` without a type).
 */
export function semanticEqualAt(definition: string, field: string | undefined, a: unknown, b: unknown): boolean {
  const struct = structByName(definition);
  if (struct === undefined) return equalUntyped(a, b);
  if (field === undefined) return equalStruct(struct, a, b);
  const type = struct.fields.get(field);
  if (type === undefined) return equalUntyped(a, b);
  // A nil pointer (absent or null) is only equal to another nil pointer.
  if (isPointerField(struct.id, field) && isNil(a) !== isNil(b)) return false;
  return equalTyped(type, a, b);
}

/**
 * Semantic.DeepEqual on two values whose Go type is `type`, or, without one (an element the caller has
 * no type for), with what JSON tells: a nil and an empty list or map alike, the rest by JSON equality.
 */
export function semanticEqualAs(type: GoType | undefined, a: unknown, b: unknown): boolean {
  return type ? equalTyped(type, a, b) : equalUntyped(a, b);
}

function equalUntyped(a: unknown, b: unknown): boolean {
  if (isEmpty(a) || isEmpty(b)) return isEmpty(a) && isEmpty(b);
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => equalUntyped(item, b[i]));
  if (isRecord(a)) {
    if (!isRecord(b)) return false;
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const key of keys) if (!equalUntyped(a[key], b[key])) return false;
    return true;
  }
  return a === b;
}

function isNil(value: unknown): boolean {
  return value === undefined || value === null;
}

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  return isRecord(value) && Object.keys(value).length === 0;
}

/** Go's zero value of a scalar, as a missing JSON member decodes. */
function zeroOf(type: GoType): unknown {
  switch (type.kind) {
    case 'string':
      return '';
    case 'bool':
      return false;
    case 'int32':
    case 'int64':
    case 'float64':
      return 0;
    default:
      return undefined;
  }
}

function equalStruct(type: StructType, a: unknown, b: unknown): boolean {
  const left = isRecord(a) ? a : {};
  const right = isRecord(b) ? b : {};
  for (const [field, fieldType] of type.fields) {
    const [a, b] = [left[field], right[field]];
    // A nil pointer (absent or null) is only equal to another nil pointer.
    if (isPointerField(type.id, field) && isNil(a) !== isNil(b)) return false;
    if (!equalTyped(fieldType, a, b)) return false;
  }
  return true;
}

function equalTyped(type: GoType, a: unknown, b: unknown): boolean {
  switch (type.kind) {
    case 'struct':
      return equalStruct(type, a, b);
    case 'slice': {
      if (isEmpty(a) || isEmpty(b)) return isEmpty(a) && isEmpty(b);
      if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return jsonEqual(a, b);
      return a.every((item, i) => equalTyped(type.elem, item, b[i]));
    }
    case 'map': {
      if (isEmpty(a) || isEmpty(b)) return isEmpty(a) && isEmpty(b);
      if (!isRecord(a) || !isRecord(b)) return jsonEqual(a, b);
      const keys = Object.keys(a);
      return keys.length === Object.keys(b).length && keys.every((key) => key in b && equalTyped(type.elem, a[key], b[key]));
    }
    case 'quantity': {
      if (a === undefined || a === null || b === undefined || b === null) return (a ?? null) === (b ?? null);
      const [x, y] = [quantityFromJson(a), quantityFromJson(b)];
      return x && y ? compareQuantities(x, y) === 0 : jsonEqual(a, b);
    }
    case 'string':
    case 'bool':
    case 'int32':
    case 'int64':
    case 'float64': {
      const zero = zeroOf(type);
      return (a ?? zero) === (b ?? zero);
    }
    default:
      // Time, MicroTime (compared exactly), IntOrString, RawExtension, bytes and the like: as JSON.
      return jsonEqual(a ?? null, b ?? null);
  }
}
