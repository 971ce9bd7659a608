/**
 * The apply schema of a custom resource, from its CRD version's structural schema
 * (lib/registry/crd/structural.ts). kube-apiserver builds the type converter of a custom resource from
 * the OpenAPI it publishes for the CRD (mutating/patch/typeconverter.go, `managedfields.NewTypeConverter`
 * over `/openapi/v3`), which is the structural schema with `metadata` replaced by a reference to
 * ObjectMeta (apiextensions-apiserver controller/openapi/builder). The translation is kube-openapi
 * pkg/schemaconv openapi.go `parseSchema`/`parseObject`/`parseList`:
 * - no `type` (x-kubernetes-int-or-string, bare preserve-unknown-fields): a scalar, a list and a map;
 * - an object keeps unknown keys (as `__untyped_deduced_`) when it has no properties or when it or an
 *   ancestor sets x-kubernetes-preserve-unknown-fields; `x-kubernetes-map-type: atomic` makes it atomic;
 * - a list is atomic unless `x-kubernetes-list-type` is `set` or `map` (keys from
 *   `x-kubernetes-list-map-keys`, their defaults from the item schema's `default`);
 * - strings with a format other than `byte` are untyped scalars.
 */
import type { SchemaNode, StructuralSchema } from '../../registry/crd/schema-node';
import { builtinDefinitionAtom } from './builtin-schema';
import { DEDUCED, UNTYPED_ATOMIC, scalarAtom, type ApplySchema, type Atom, type ListAtom, type MapAtom, type StructField, type TypeRef } from './schema';

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

/** The apply schema of custom resources of one CRD version. */
export function crdApplySchema(schema: StructuralSchema): ApplySchema {
  const root = rootAtom(schema.root);
  return { root: () => root };
}

function rootAtom(node: SchemaNode): Atom {
  const atom = nodeAtom(node, node.preserveUnknownFields);
  const map = atom.map ?? { fields: new Map<string, StructField>(), elementRelationship: 'separable' as const };
  const fields = new Map(map.fields);
  const objectMeta = builtinDefinitionAtom(OBJECT_META);
  if (!objectMeta) throw new Error(`the schema table has no ${OBJECT_META}`);
  fields.set('apiVersion', { type: () => scalarAtom('string') });
  fields.set('kind', { type: () => scalarAtom('string') });
  fields.set('metadata', { type: () => objectMeta });
  return { ...atom, map: { ...map, fields } };
}

const atoms = new WeakMap<SchemaNode, Atom>();
const preservingAtoms = new WeakMap<SchemaNode, Atom>();

function nodeRef(node: SchemaNode, preserveUnknown: boolean): TypeRef {
  return () => nodeAtom(node, preserveUnknown);
}

/** `preserveUnknown`: an ancestor preserves unknown fields, which every object below then does too (schemaconv `visitSpec`). */
function nodeAtom(node: SchemaNode, inheritedPreserve: boolean): Atom {
  const preserve = inheritedPreserve || node.preserveUnknownFields;
  const cache = preserve ? preservingAtoms : atoms;
  const known = cache.get(node);
  if (known) return known;
  const atom = parseNode(node, preserve);
  cache.set(node, atom);
  return atom;
}

function parseNode(node: SchemaNode, preserve: boolean): Atom {
  switch (node.type) {
    case '':
      return { scalar: 'untyped', list: listAtom(node, preserve), map: mapAtom(node, preserve) };
    case 'object':
      return { map: mapAtom(node, preserve) };
    case 'array':
      return { list: listAtom(node, preserve) };
    case 'integer':
    case 'number':
      return scalarAtom('numeric');
    case 'boolean':
      return scalarAtom('boolean');
    case 'string':
      return scalarAtom(node.format === '' || node.format === 'byte' ? 'string' : 'untyped');
    default:
      return scalarAtom('untyped');
  }
}

function mapAtom(node: SchemaNode, preserve: boolean): MapAtom {
  const fields = new Map<string, StructField>();
  for (const [name, property] of node.properties) {
    fields.set(name, property.default === undefined ? { type: nodeRef(property, preserve) } : { type: nodeRef(property, preserve), default: property.default });
  }
  let elementType: TypeRef | undefined;
  if (node.additionalProperties === undefined) {
    if (preserve || node.properties.size === 0) elementType = () => DEDUCED;
  } else if (node.additionalProperties === true) {
    elementType = () => DEDUCED;
  } else if (node.additionalProperties !== false) {
    elementType = nodeRef(node.additionalProperties, preserve);
  }
  const elementRelationship = node.mapType === 'atomic' ? 'atomic' : 'separable';
  return elementType ? { fields, elementType, elementRelationship } : { fields, elementRelationship };
}

function listAtom(node: SchemaNode, preserve: boolean): ListAtom {
  const elementType = node.items ? nodeRef(node.items, preserve) : () => UNTYPED_ATOMIC;
  switch (node.listType) {
    case 'set':
      return { elementRelationship: 'associative', keys: [], elementType };
    case 'map':
      return { elementRelationship: 'associative', keys: node.listMapKeys, elementType };
    default:
      return { elementRelationship: 'atomic', keys: [], elementType };
  }
}
