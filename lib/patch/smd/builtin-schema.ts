/**
 * The apply schema of a built-in kind: the schema table's Go types (lib/registry/schema/table.ts, from
 * kubernetes-models) give the shape, builtin-semantics.ts gives what the OpenAPI extensions say about
 * its lists, maps and structs. The translation follows kube-openapi pkg/schemaconv (openapi.go
 * `ToSchemaFromOpenAPI`, used by kube-apiserver's static type converter): Quantity and RawExtension
 * are untyped scalars, Time/MicroTime/IntOrString are untyped scalars through their formats, an object
 * without properties (FieldsV1) keeps any key, and a schema without type (apiextensions JSON) is
 * untyped.
 */
import { structByName, structForKind, type GoType, type StructType } from '../../registry/schema/table';
import { ATOMIC_MAP_FIELDS, ATOMIC_STRUCTS, GRANULAR_REF_FIELDS, KEY_DEFAULTS, LIST_SEMANTICS, VERIFIED_PACKAGES, type ListSemantics } from './builtin-semantics';
import { DEDUCED, UNTYPED_ATOMIC, scalarAtom, withMapRelationship, type ApplySchema, type Atom, type StructField, type TypeRef } from './schema';

/** A built-in kind's apply schema; `verified` is false for kinds whose list semantics were not read (see builtin-semantics.ts). */
export interface BuiltinApplySchema extends ApplySchema {
  readonly verified: boolean;
}

const structAtoms = new Map<string, Atom>();

/** The apply schema of a built-in kind, or undefined when the schema table has no such kind. */
export function builtinApplySchema(apiVersion: string, kind: string): BuiltinApplySchema | undefined {
  const struct = structForKind(apiVersion, kind);
  if (!struct) return undefined;
  const atom = structAtom(struct);
  return { root: () => atom, verified: isVerified(struct.id) };
}

/** The atom of a definition by its OpenAPI name (`io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta`): CRD schemas borrow ObjectMeta. */
export function builtinDefinitionAtom(id: string): Atom | undefined {
  const struct = structByName(id);
  return struct ? structAtom(struct) : undefined;
}

function isVerified(id: string): boolean {
  const pkg = id.slice(0, id.lastIndexOf('.'));
  return VERIFIED_PACKAGES.includes(pkg);
}

function structAtom(struct: StructType): Atom {
  const known = structAtoms.get(struct.id);
  if (known) return known;
  const fields = new Map<string, StructField>();
  const atom: Atom = { map: { fields, elementRelationship: ATOMIC_STRUCTS.has(struct.id) ? 'atomic' : 'separable' } };
  // Registered before the fields are filled: definitions refer to themselves (JSONSchemaProps).
  structAtoms.set(struct.id, atom);
  const lists = LIST_SEMANTICS[struct.id] ?? {};
  const atomicMaps = ATOMIC_MAP_FIELDS[struct.id] ?? [];
  const granularRefs = GRANULAR_REF_FIELDS[struct.id] ?? [];
  const defaults = KEY_DEFAULTS[struct.id] ?? {};
  for (const [name, type] of struct.fields) {
    const field: { type: TypeRef; default?: (typeof defaults)[string] } = {
      type: fieldRef(type, { list: lists[name], atomicMap: atomicMaps.includes(name), granular: granularRefs.includes(name) }),
    };
    if (Object.hasOwn(defaults, name)) field.default = defaults[name];
    fields.set(name, field);
  }
  return atom;
}

interface FieldFacts {
  list: ListSemantics | undefined;
  atomicMap: boolean;
  granular: boolean;
}

function fieldRef(type: GoType, facts: FieldFacts): TypeRef {
  let atom: Atom | undefined;
  return () => (atom ??= fieldAtom(type, facts));
}

function fieldAtom(type: GoType, facts: FieldFacts): Atom {
  if (type.kind === 'slice') {
    const elem = typeRef(type.elem);
    if (facts.list === undefined) return { list: { elementRelationship: 'atomic', keys: [], elementType: elem } };
    return { list: { elementRelationship: 'associative', keys: facts.list === 'set' ? [] : facts.list, elementType: elem } };
  }
  if (type.kind === 'map') return { map: { fields: new Map(), elementType: typeRef(type.elem), elementRelationship: facts.atomicMap ? 'atomic' : 'separable' } };
  const atom = typeAtom(type);
  return facts.granular ? withMapRelationship(atom, 'separable') : atom;
}

function typeRef(type: GoType): TypeRef {
  let atom: Atom | undefined;
  return () => (atom ??= typeAtom(type));
}

function typeAtom(type: GoType): Atom {
  switch (type.kind) {
    case 'string':
    case 'bytes':
      return scalarAtom('string');
    case 'bool':
      return scalarAtom('boolean');
    case 'int32':
    case 'int64':
    case 'float64':
      return scalarAtom('numeric');
    case 'slice':
    case 'map':
      return fieldAtom(type, { list: undefined, atomicMap: false, granular: false });
    case 'struct':
      return structAtom(type);
    case 'quantity':
    case 'intOrString':
    case 'time':
    case 'microTime':
    case 'rawExtension':
      return scalarAtom('untyped');
    case 'fieldsV1':
      return { map: { fields: new Map(), elementType: () => DEDUCED, elementRelationship: 'separable' } };
    case 'json':
    case 'jsonSchemaPropsOrArray':
    case 'jsonSchemaPropsOrBool':
    case 'jsonSchemaPropsOrStringArray':
      // No `type` in their OpenAPI: schemaconv `parseSchema` makes a scalar, list and map of them.
      return { scalar: 'untyped', list: { elementRelationship: 'atomic', keys: [], elementType: () => UNTYPED_ATOMIC }, map: { fields: new Map(), elementType: () => DEDUCED, elementRelationship: 'separable' } };
  }
}
