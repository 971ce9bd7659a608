/**
 * kube-openapi's SchemaValidator (pkg/validation/validate: schema.go, type.go, validator.go,
 * schema_props.go, slice_validator.go, object_validator.go, values.go, formats.go), which
 * kube-apiserver runs on every custom resource it creates or updates. For each value the validators
 * run in this order, every applicable one adding its errors: type, allOf/anyOf/oneOf/not, string
 * (maxLength, minLength, pattern: the first failure only), format, number (multipleOf, minimum,
 * maximum), array (items, then minItems, maxItems, uniqueItems), enum, object (min/maxProperties,
 * additionalProperties, properties, required).
 *
 * Go walks `properties` in map order, which is random; properties are taken here in the order the
 * schema declares them.
 */
import { jsonEqual, type Json, type JsonObject } from '../../../kube/json';
import { goQuote } from '../../../go/strconv';
import type { SchemaNode } from '../schema-node';
import { matchesFormat, supportedFormat } from '../../../kube/openapi-formats';
import { goFormatG } from '../../../go/format-float';
import { isGoInt } from './go-values';
import { compilePattern } from './pattern';
import type { RatchetNode } from './ratchet';
import { composite, failure, invalidType, required, Result, type Failure } from './result';

/** Validates `data` against the node, as SchemaValidator.Validate does at path `path`. */
export function validateValue(node: SchemaNode, path: string, data: Json, ratchet?: RatchetNode): Result {
  const result = new Result();
  const types = typesOf(node);
  if (data === null) {
    result.merge(typeCheck(node, types, path, data));
    result.merge(enumCheck(node, path, data));
    return result;
  }
  const kind = kindOf(data);
  const format = supportedFormat(node.format);
  if (types.length > 0 || format !== '') result.merge(typeCheck(node, types, path, data)).inc();
  result.merge(schemaProps(node, path, data, ratchet)).inc();
  if (kind === 'string') {
    result.merge(stringCheck(node, path, data as string)).inc();
    if (format !== '') result.merge(formatCheck(format, path, data as string)).inc();
  }
  if (kind === 'integer' || kind === 'number') result.merge(numberCheck(node, path, data as number)).inc();
  if (kind === 'array') result.merge(sliceCheck(node, path, data as Json[], ratchet)).inc();
  result.merge(enumCheck(node, path, data)).inc();
  if (kind === 'object') result.merge(objectCheck(node, path, data as JsonObject, ratchet)).inc();
  return result.inc();
}

/**
 * A sub-validation through the ratcheting validator when an old value is correlated
 * (ratchetingValueValidator.Validate): errors of an unchanged value are dropped.
 */
function validateChild(node: SchemaNode, path: string, data: Json, ratchet: RatchetNode | undefined): Result {
  const result = validateValue(node, path, data, ratchet);
  if (!ratchet || result.valid || !ratchet.unchanged()) return result;
  const ratcheted = new Result();
  ratcheted.matchCount = result.matchCount;
  return ratcheted;
}

/** The schema's type list: x-kubernetes-int-or-string is `integer,string`. */
function typesOf(node: SchemaNode): string[] {
  if (node.intOrString) return ['integer', 'string'];
  return node.type ? [node.type] : [];
}

type Kind = 'string' | 'boolean' | 'integer' | 'number' | 'array' | 'object';

function kindOf(data: Json): Kind {
  if (Array.isArray(data)) return 'array';
  switch (typeof data) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'boolean';
    case 'number':
      return isGoInt(data) ? 'integer' : 'number';
    default:
      return 'object';
  }
}

/** The format strfmt infers from a Go value (schemaInfoForType): int64, float64, or none. */
function inferredFormat(kind: Kind): string {
  if (kind === 'integer') return 'int64';
  if (kind === 'number') return 'float64';
  return '';
}

/** typeValidator.Validate. */
function typeCheck(node: SchemaNode, types: string[], path: string, data: Json): Result {
  const result = new Result().inc();
  if (data === null) {
    if (types.length > 0 && !types.includes('null') && !node.nullable) result.add(invalidType(path, types.join(','), 'null'));
    return result;
  }
  const kind = kindOf(data);
  const format = supportedFormat(node.format);
  const isIntFloat = kind === 'integer' && types.includes('number');
  const matches = types.includes(kind) || isIntFloat;
  if (kind !== 'string' && kind !== 'array' && format !== '' && !(matches || inferredFormat(kind) === format)) {
    return result.add(invalidType(path, format, inferredFormat(kind)));
  }
  // A string or array under a string format is left to the format check, whatever the type says.
  if (!types.includes('number') && !types.includes('integer') && format !== '' && (kind === 'string' || kind === 'array')) return result;
  if (!matches) result.add(invalidType(path, types.join(','), kind));
  return result;
}

/** stringValidator: only the first failure of maxLength, minLength, pattern is reported. */
function stringCheck(node: SchemaNode, path: string, data: string): Result {
  const result = new Result();
  const length = [...data].length;
  if (node.maxLength !== undefined && length > node.maxLength) {
    return result.add(failure('TooLong', path, `${path} in body should be at most ${node.maxLength} chars long`, data, { valid: node.maxLength }));
  }
  if (node.minLength !== undefined && length < node.minLength) {
    return result.add(failure('TooShort', path, `${path} in body should be at least ${node.minLength} chars long`, data, { valid: node.minLength }));
  }
  if (node.pattern !== undefined) {
    const regexp = compilePattern(node.pattern);
    if (typeof regexp === 'string') {
      result.add(failure('Pattern', path, `${path} in body should match '${node.pattern}, but pattern is invalid: ${regexp}'`, data));
    } else if (!regexp.test(data)) {
      result.add(failure('Pattern', path, `${path} in body should match '${node.pattern}'`, data));
    }
  }
  return result;
}

/** formatValidator / FormatOf. */
function formatCheck(format: string, path: string, data: string): Result {
  const result = new Result();
  if (!matchesFormat(format, data)) result.add(invalidType(path, format, data));
  return result;
}

/** swag.IsFloat64AJSONInteger. */
function isJsonInteger(value: number): boolean {
  if (!Number.isFinite(value)) return false;
  if (Number.isInteger(value)) return true;
  const rounded = Math.trunc(value);
  const diff = Math.abs(value - rounded);
  if (rounded === 0) return diff < 1e-9 * Number.MIN_VALUE;
  return diff / Math.min(Math.abs(value) + Math.abs(rounded), Number.MAX_VALUE) < 1e-9;
}

/**
 * numberValidator: an int64 is checked against the bounds truncated to integers (MaximumNativeType),
 * a float64 against the bounds as they are; errors come multipleOf, minimum, maximum.
 */
function numberCheck(node: SchemaNode, path: string, data: number): Result {
  const int = isGoInt(data);
  const bound = (value: number) => (int ? String(Math.trunc(value)) : goFormatG(value));
  const multiple = new Result();
  const minimum = new Result();
  const maximum = new Result();
  if (node.multipleOf !== undefined) {
    const factor = node.multipleOf;
    // An int64 is checked against the truncated factor; Go would divide by zero below 1, so such a
    // factor is checked the float way instead.
    const intFactor = Math.trunc(factor);
    const ok = int && intFactor !== 0 ? data % intFactor === 0 : isJsonInteger(factor < 1 ? (1 / factor) * data : data / factor);
    if (!ok)
      multiple.add(
        failure('MultipleOf', path, `${path} in body should be a multiple of ${int && intFactor !== 0 ? String(intFactor) : goFormatG(factor)}`, data),
      );
  }
  if (node.minimum !== undefined) {
    const min = int ? Math.trunc(node.minimum) : node.minimum;
    if (node.exclusiveMinimum ? data <= min : data < min) {
      const text = node.exclusiveMinimum ? 'should be greater than' : 'should be greater than or equal to';
      minimum.add(failure('Min', path, `${path} in body ${text} ${bound(node.minimum)}`, data));
    }
  }
  if (node.maximum !== undefined) {
    const max = int ? Math.trunc(node.maximum) : node.maximum;
    if (node.exclusiveMaximum ? data >= max : data > max) {
      const text = node.exclusiveMaximum ? 'should be less than' : 'should be less than or equal to';
      maximum.add(failure('Max', path, `${path} in body ${text} ${bound(node.maximum)}`, data));
    }
  }
  return new Result().merge(multiple, minimum, maximum).inc();
}

/** schemaSliceValidator: items first, then the list's own bounds. */
function sliceCheck(node: SchemaNode, path: string, data: Json[], ratchet: RatchetNode | undefined): Result {
  const result = new Result();
  if (node.items) {
    for (const [i, item] of data.entries()) {
      result.merge(validateChild(node.items, `${path}[${i}]`, item, ratchet?.item(i, node)));
    }
  }
  const size = data.length;
  if (node.minItems !== undefined && size < node.minItems) {
    result.add(failure('MinItems', path, `${path} in body should have at least ${node.minItems} items`, size));
  }
  if (node.maxItems !== undefined && size > node.maxItems) {
    result.add(failure('MaxItems', path, `${path} in body should have at most ${node.maxItems} items`, size, { valid: node.maxItems }));
  }
  if (node.uniqueItems && data.some((item, i) => data.slice(0, i).some((earlier) => jsonEqual(earlier, item)))) {
    result.add(failure('Unique', path, `${path} in body shouldn't contain duplicates`, undefined));
  }
  return result.inc();
}

/** basicCommonValidator: enum, numbers of either Go type comparing by value. */
function enumCheck(node: SchemaNode, path: string, data: Json): Result {
  const result = new Result();
  if (!node.enum || node.enum.length === 0) return result;
  const matched =
    data !== null && node.enum.some((allowed) => (typeof allowed === 'number' && typeof data === 'number' ? allowed === data : jsonEqual(allowed, data)));
  if (!matched) {
    result.add(failure('Enum', path, `${path} in body should be one of [${node.enum.map(String).join(' ')}]`, data, { values: node.enum }));
  }
  return result;
}

/** objectValidator. */
function objectCheck(node: SchemaNode, path: string, data: JsonObject, ratchet: RatchetNode | undefined): Result {
  const result = new Result();
  const keys = Object.keys(data);
  if (node.minProperties !== undefined && keys.length < node.minProperties) {
    result.add(
      failure('TooFewProperties', path, `${path} in body should have at least ${node.minProperties} properties`, keys.length, { valid: node.minProperties }),
    );
  }
  if (node.maxProperties !== undefined && keys.length > node.maxProperties) {
    result.add(
      failure('TooManyProperties', path, `${path} in body should have at most ${node.maxProperties} properties`, keys.length, { valid: node.maxProperties }),
    );
  }
  const extra = node.additionalProperties;
  if (extra === false) {
    for (const name of keys) {
      if (!node.properties.has(name)) result.add(failure('UnallowedProperty', path, `${path}.${name} in body is a forbidden property`, name));
    }
  } else if (typeof extra === 'object') {
    for (const name of keys) {
      if (node.properties.has(name)) continue;
      result.merge(validateChild(extra, `${path}.${name}`, data[name] as Json, ratchet?.property(name)));
    }
  }
  for (const [name, property] of node.properties) {
    if (!Object.hasOwn(data, name)) continue;
    result.merge(validateChild(property, path ? `${path}.${name}` : name, data[name] as Json, ratchet?.property(name)));
  }
  for (const name of node.required) if (!Object.hasOwn(data, name)) result.add(required(`${path}.${name}`));
  return result;
}

/** schemaPropsValidator: anyOf, oneOf, allOf, not (the branches validate the same value). */
function schemaProps(node: SchemaNode, path: string, data: Json, ratchet: RatchetNode | undefined): Result {
  const main = new Result();
  if (node.anyOf.length > 0) {
    let best: Result | undefined;
    let success: Result | undefined;
    for (const branch of node.anyOf) {
      const result = validateValue(branch, path, data, ratchet);
      if (result.valid) {
        success = result;
        best = undefined;
        break;
      }
      if (!best || result.matchCount > best.matchCount) best = result;
    }
    if (!success) main.add(composite(`${goQuote(path)} must validate at least one schema (anyOf)`));
    main.merge(best ?? success);
  }
  if (node.oneOf.length > 0) {
    let best: Result | undefined;
    let success: Result | undefined;
    let validated = 0;
    for (const branch of node.oneOf) {
      const result = validateValue(branch, path, data, ratchet);
      if (result.valid) {
        validated++;
        best = undefined;
        success ??= result;
        continue;
      }
      if (validated === 0 && (!best || result.matchCount > best.matchCount)) best = result;
    }
    if (validated !== 1) {
      const detail = validated === 0 ? 'Found none valid' : `Found ${validated} valid alternatives`;
      main.add(composite(`${goQuote(path)} must validate one and only one schema (oneOf). ${detail}`));
      main.merge(best);
    } else main.merge(success);
  }
  if (node.allOf.length > 0) {
    let validated = 0;
    for (const branch of node.allOf) {
      const result = validateValue(branch, path, data, ratchet);
      if (result.valid) validated++;
      main.merge(result);
    }
    if (validated !== node.allOf.length) {
      main.add(composite(`${goQuote(path)} must validate all the schemas (allOf)${validated === 0 ? '. None validated' : ''}`));
    }
  }
  if (node.not && validateValue(node.not, path, data, ratchet).valid) {
    main.add(composite(`${goQuote(path)} must not validate the schema (not)`));
  }
  return main.inc();
}

export type { Failure };
