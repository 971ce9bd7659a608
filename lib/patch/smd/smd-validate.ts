/**
 * Checking a value against its apply schema, as structured-merge-diff does when kube-apiserver turns
 * an object into a typed value (`typeConverter.ObjectToTyped`, typed/validate.go): unknown fields,
 * scalars of the wrong type, lists and maps where the schema wants something else, list-map items
 * without their keys and duplicate keys or set values. Messages and paths are smd's.
 */
import { deduceAtom, handleAtom } from './smd-atoms';
import { prefixed, smdError, type SmdError } from './smd-errors';
import { fieldElement, indexElement, listItemElement } from './smd-path';
import type { ListAtom, MapAtom, ScalarType, TypeRef } from './schema';
import { isGoBool, isGoList, isGoMap, isGoNull, isGoNumber, isGoString, WRAPPER_TYPE, wrapperSyntax, wrapperText, type GoValue } from './smd-values';

/** The errors of `value` against `type`, each with its field path. */
export function validateValue(value: GoValue, type: TypeRef): SmdError[] {
  return handleAtom(deduceAtom(type(), value), {
    scalar: (scalar) => validateScalar(scalar, value, ''),
    list: (list) => validateList(list, value),
    map: (map) => validateMap(map, value),
  });
}

/** typed/validate.go `validateScalar` (the merge reuses it with `lhs: `/`rhs: ` prefixes). */
export function validateScalar(scalar: ScalarType, value: GoValue | undefined, prefix: string): SmdError[] {
  if (value === undefined || isGoNull(value)) return [];
  switch (scalar) {
    case 'numeric':
      return isGoNumber(value) ? [] : [smdError(`${prefix}expected numeric (int or float), got ${WRAPPER_TYPE}`)];
    case 'string':
      return isGoString(value) ? [] : [smdError(`${prefix}expected string, got ${wrapperSyntax(value)}`)];
    case 'boolean':
      return isGoBool(value) ? [] : [smdError(`${prefix}expected boolean, got ${wrapperText(value)}`)];
    case 'untyped':
      return [];
  }
}

function validateList(list: ListAtom, value: GoValue): SmdError[] {
  if (isGoNull(value)) return [];
  if (!isGoList(value)) return [smdError(`expected list, got ${wrapperText(value)}`)];
  const errors: SmdError[] = [];
  const seen = new Set<string>();
  for (const [i, item] of value.entries()) {
    let element = indexElement(i);
    if (list.elementRelationship === 'associative') {
      const identity = listItemElement(list, i, item);
      // Without the item's identity nothing below it can be reported: the whole list is given up.
      if (!identity.ok) return [...errors, smdError(`element ${i}: ${identity.error}`)];
      element = identity.element;
      if (seen.has(element)) errors.push(smdError(`duplicate entries for key ${element}`));
      seen.add(element);
    }
    errors.push(...prefixed(validateValue(item, list.elementType), element));
  }
  return errors;
}

function validateMap(map: MapAtom, value: GoValue): SmdError[] {
  if (isGoNull(value)) return [];
  if (!isGoMap(value)) return [smdError(`expected map, got ${wrapperText(value)}`)];
  const errors: SmdError[] = [];
  for (const [key, item] of Object.entries(value)) {
    const type = map.fields.get(key)?.type ?? map.elementType;
    if (!type) {
      // smd stops iterating the map at its first undeclared field.
      errors.push({ path: fieldElement(key), message: 'field not declared in schema' });
      break;
    }
    errors.push(...prefixed(validateValue(item, type), fieldElement(key)));
  }
  return errors;
}
