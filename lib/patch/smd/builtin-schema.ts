/**
 * The apply schema of a built-in kind: the schema table (lib/registry/schema/table.ts) gives the shape
 * and what the OpenAPI extensions say about its lists, maps and structs (`x-kubernetes-list-type`,
 * `x-kubernetes-list-map-keys`, `x-kubernetes-map-type`, the `default` of list-map keys), read as
 * kube-openapi pkg/schemaconv `getListElementRelationship` reads them. The translation follows kube-openapi pkg/schemaconv (openapi.go
 * `ToSchemaFromOpenAPI`, used by kube-apiserver's static type converter): Quantity and RawExtension
 * are untyped scalars, Time/MicroTime/IntOrString are untyped scalars through their formats, an object
 * without properties (FieldsV1) keeps any key, and a schema without type (apiextensions JSON) is
 * untyped.
 */
import { structByName, structForKind, verifiedSchemaPackages, type FieldExtensions, type GoType, type StructType } from '../../registry/schema/table';
import { DEDUCED, UNTYPED_ATOMIC, scalarAtom, withMapRelationship, type ApplySchema, type Atom, type StructField, type TypeRef } from './schema';

/** A built-in kind's apply schema; `verified` is false for kinds whose list semantics were not read (see openapi-extensions.json). */
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
  return verifiedSchemaPackages().includes(pkg);
}

function structAtom(struct: StructType): Atom {
  const known = structAtoms.get(struct.id);
  if (known) return known;
  const fields = new Map<string, StructField>();
  const atom: Atom = { map: { fields, elementRelationship: struct.atomic ? 'atomic' : 'separable' } };
  // Registered before the fields are filled: definitions refer to themselves (JSONSchemaProps).
  structAtoms.set(struct.id, atom);
  for (const [name, type] of struct.fields) {
    const extensions = struct.extensions.get(name) ?? {};
    const field: { type: TypeRef; default?: StructField['default'] } = { type: fieldRef(type, factsOf(extensions)) };
    if (Object.hasOwn(extensions, 'default')) field.default = extensions.default as StructField['default'];
    fields.set(name, field);
  }
  return atom;
}

/** A list field's relationship when it is not atomic: a set, or a list-map with these keys. */
type ListSemantics = 'set' | readonly string[];

function factsOf(extensions: FieldExtensions): FieldFacts {
  const list = extensions.listType === 'set' ? 'set' : extensions.listType === 'map' ? (extensions.listMapKeys ?? []) : undefined;
  return { list, atomicMap: extensions.mapType === 'atomic', granular: extensions.mapType === 'granular' };
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
  if (type.kind === 'map')
    return { map: { fields: new Map(), elementType: typeRef(type.elem), elementRelationship: facts.atomicMap ? 'atomic' : 'separable' } };
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
      return {
        scalar: 'untyped',
        list: { elementRelationship: 'atomic', keys: [], elementType: () => UNTYPED_ATOMIC },
        map: { fields: new Map(), elementType: () => DEDUCED, elementRelationship: 'separable' },
      };
  }
}
