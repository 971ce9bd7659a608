import { isObject, type Json } from '../../kube/json';

/*
 * The part of client-go's JSONPath (util/jsonpath) a CustomResourceDefinition's printer column uses: a path in
 * dot notation from the object's root (`.spec.replicas`, `.status.conditions[0].type`, `.metadata.labels['app']`).
 * The CRD handler parses `{<jsonPath>}` with missing keys allowed and takes the first result
 * (apiextensions-apiserver pkg/registry/customresource/tableconvertor). What this subset cannot read (wildcards,
 * filters, ranges) finds nothing, which leaves the cell empty.
 */

type Step = { field: string } | { index: number };

/** The steps of a dot-notation path, or undefined for one outside the subset. */
export function parsePath(path: string): Step[] | undefined {
  const steps: Step[] = [];
  let rest = path.trim();
  while (rest !== '') {
    const field = /^\.([^.[\]]+)/.exec(rest);
    const quoted = /^\[\s*(['"])(.*?)\1\s*\]/.exec(rest);
    const index = /^\[\s*(-?\d+)\s*\]/.exec(rest);
    if (field?.[1] !== undefined) steps.push({ field: field[1] });
    else if (quoted?.[2] !== undefined) steps.push({ field: quoted[2] });
    else if (index?.[1] !== undefined) steps.push({ index: Number(index[1]) });
    else if (rest === '.') break;
    else return undefined;
    rest = rest.slice((field ?? quoted ?? index)?.[0].length ?? rest.length);
  }
  return steps;
}

/** The value the path reaches in `object`, or undefined when it reaches nothing. */
export function evaluatePath(steps: readonly Step[], object: Json): Json | undefined {
  let value: Json | undefined = object;
  for (const step of steps) {
    if ('field' in step) value = isObject(value) ? value[step.field] : undefined;
    else if (Array.isArray(value)) value = value[step.index < 0 ? value.length + step.index : step.index];
    else value = undefined;
    if (value === undefined) return undefined;
  }
  return value;
}

const GO_ESCAPES: Readonly<Record<string, string>> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029' };

/** Go's json.Marshal of a decoded value: object keys sorted, `<`, `>`, `&` and U+2028/9 escaped. */
function marshal(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(marshal).join(',')}]`;
  if (isObject(value))
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${marshal(key)}:${marshal(value[key] as Json)}`)
      .join(',')}}`;
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => GO_ESCAPES[c] ?? c);
}

/**
 * JSONPath.PrintResults of one value: maps and lists as JSON, anything else as fmt.Fprint prints it (strings as
 * they are), and a null as text/template prints a missing value.
 */
export function printedValue(value: Json): string {
  if (value === null) return '<no value>';
  if (typeof value === 'string') return value;
  if (Array.isArray(value) || isObject(value)) return marshal(value);
  return String(value);
}
