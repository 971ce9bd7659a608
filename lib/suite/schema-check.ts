/**
 * Checks a value against the small part of JSON Schema the suite's own schema uses for expectations
 * (`type`, `items`, `required`, `properties`, `additionalProperties`, `minimum`), so a value of the wrong
 * shape is refused when the file is read, at its field, instead of failing later with a TypeError. The
 * suite schema is the one definition of the format; this reads it rather than restating it.
 */
export interface SchemaNode {
  type?: string;
  items?: SchemaNode;
  required?: string[];
  properties?: Record<string, SchemaNode>;
  additionalProperties?: boolean | SchemaNode;
  minimum?: number;
}

const typeOf = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value);
const fits = (value: unknown, type: string): boolean => typeOf(value) === type || (type === 'number' && typeOf(value) === 'integer');
const article = (type: string) => (/^[aeiou]/.test(type) ? 'an' : 'a');

/** Each place `value` breaks `node`, as `[path, message]` pairs; none when it fits. */
export function schemaMismatches(value: unknown, node: SchemaNode, path: string): [string, string][] {
  if (node.type !== undefined && !fits(value, node.type))
    return [[path, `Invalid value: must be ${article(node.type)} ${node.type}, got ${article(typeOf(value))} ${typeOf(value)}`]];
  if (typeof value === 'number' && node.minimum !== undefined && value < node.minimum) return [[path, `Invalid value: must be at least ${node.minimum}`]];
  if (Array.isArray(value) && node.items) return value.flatMap((item, i) => schemaMismatches(item, node.items as SchemaNode, `${path}[${i}]`));
  if (typeOf(value) !== 'object') return [];
  const object = value as Record<string, unknown>;
  const found: [string, string][] = (node.required ?? []).filter((key) => !(key in object)).map((key) => [`${path}.${key}`, 'Required value']);
  for (const [key, member] of Object.entries(object)) {
    const known = node.properties?.[key];
    if (known) found.push(...schemaMismatches(member, known, `${path}.${key}`));
    else if (node.additionalProperties === false)
      found.push([`${path}.${key}`, `Unsupported value: known fields are ${Object.keys(node.properties ?? {}).join(', ')}`]);
    else if (typeof node.additionalProperties === 'object') found.push(...schemaMismatches(member, node.additionalProperties, `${path}.${key}`));
  }
  return found;
}
