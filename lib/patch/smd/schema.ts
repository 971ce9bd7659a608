/**
 * The schema an ApplyConfiguration is merged by: a small model of sigs.k8s.io/structured-merge-diff's
 * `schema.Atom` (schema/elements.go), which is what kube-apiserver's type converter turns the OpenAPI
 * of a kind into (kube-openapi pkg/schemaconv). Both sources of schemas, the built-in kinds
 * (builtin-schema.ts) and a CRD's structural schema (crd-schema.ts), are translated into it, so the
 * merge, the validation and the atomic check see one interface.
 *
 * An atom may allow several shapes at once (the untyped atoms allow a scalar, a list and a map); the
 * value decides which one applies, as smd's `deduceAtom` does (typed/helpers.go).
 */
import type { Json } from '../../kube/json';

/** smd `schema.Scalar`: `untyped` accepts any scalar (Quantity, Time, IntOrString, RawExtension…). */
export type ScalarType = 'string' | 'numeric' | 'boolean' | 'untyped';

/** smd `schema.ElementRelationship` of a list: `associative` with keys is a list-map, without keys a set. */
export type ListRelationship = 'atomic' | 'associative';

/** smd `schema.ElementRelationship` of a map or struct: `separable` (granular) or `atomic`. */
export type MapRelationship = 'atomic' | 'separable';

/** A reference to a type, resolved lazily: schemas are recursive (JSONSchemaProps, CRD `x-kubernetes-preserve-unknown-fields`). */
export type TypeRef = () => Atom;

export interface ListAtom {
  readonly elementRelationship: ListRelationship;
  /** `x-kubernetes-list-map-keys` (or the patch merge key): empty for atomic lists and sets. */
  readonly keys: readonly string[];
  readonly elementType: TypeRef;
}

export interface StructField {
  readonly type: TypeRef;
  /** The OpenAPI `default`: smd reads it for a list-map item that omits a key field (typed/helpers.go `getAssociativeKeyDefault`). */
  readonly default?: Json;
}

/** smd `schema.Map`: a struct (named fields), a map (an element type), or both (preserve-unknown-fields). */
export interface MapAtom {
  readonly fields: ReadonlyMap<string, StructField>;
  /** The type of keys that are not fields; absent: such keys are `field not declared in schema`. */
  readonly elementType?: TypeRef;
  readonly elementRelationship: MapRelationship;
}

export interface Atom {
  readonly scalar?: ScalarType;
  readonly list?: ListAtom;
  readonly map?: MapAtom;
}

/** The schema of one kind's objects, as applyConfiguration merges them. */
export interface ApplySchema {
  /** The type of the object itself. */
  readonly root: TypeRef;
}

const NO_FIELDS: ReadonlyMap<string, StructField> = new Map();

/** A scalar atom. */
export function scalarAtom(scalar: ScalarType): Atom {
  return SCALARS[scalar];
}

const SCALARS: Readonly<Record<ScalarType, Atom>> = {
  string: Object.freeze({ scalar: 'string' }),
  numeric: Object.freeze({ scalar: 'numeric' }),
  boolean: Object.freeze({ scalar: 'boolean' }),
  untyped: Object.freeze({ scalar: 'untyped' }),
};

/**
 * `__untyped_atomic_` (kube-openapi schemaconv/smd.go): any value, lists and maps replaced whole.
 * The element type of a list whose schema has no `items`, and of the lists inside untyped values.
 */
export const UNTYPED_ATOMIC: Atom = {
  scalar: 'untyped',
  list: { elementRelationship: 'atomic', keys: [], elementType: () => UNTYPED_ATOMIC },
  map: { fields: NO_FIELDS, elementType: () => UNTYPED_ATOMIC, elementRelationship: 'atomic' },
};

/**
 * `__untyped_deduced_`: any value, maps merged key by key, lists atomic. The type of unknown keys of an
 * object that preserves them, and of an object schema with neither properties nor additionalProperties.
 */
export const DEDUCED: Atom = {
  scalar: 'untyped',
  list: { elementRelationship: 'atomic', keys: [], elementType: () => UNTYPED_ATOMIC },
  map: { fields: NO_FIELDS, elementType: () => DEDUCED, elementRelationship: 'separable' },
};

/** The same atom with its map's relationship replaced: a field-level `x-kubernetes-map-type` on a `$ref` (smd `TypeRef.ElementRelationship`). */
export function withMapRelationship(atom: Atom, relationship: MapRelationship): Atom {
  if (!atom.map || atom.map.elementRelationship === relationship) return atom;
  return { ...atom, map: { ...atom.map, elementRelationship: relationship } };
}
