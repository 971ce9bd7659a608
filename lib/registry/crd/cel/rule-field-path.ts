/**
 * A rule's `fieldPath` (apiextensions-apiserver pkg/apiserver/schema/cel/validation.go
 * `ValidFieldPath`): a JSON path of `.name` and `['name']` steps from the rule's node, each naming a
 * declared property (or any key of an additionalProperties map). A failed rule reports its error at
 * that field: `.spec['max-replicas']` on the root becomes `spec.max-replicas`.
 */
import type { SchemaNode } from '../schema-node';

/** Splits on `.`, `[` and `]`, keeping single-quoted strings whole (the Go scanner's split function). */
function tokens(path: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < path.length) {
    const ch = path[i] as string;
    if (ch === "'") {
      let end = i + 1;
      while (end < path.length && !(path[end] === "'" && path[end - 1] !== '\\')) end++;
      out.push(path.slice(i, end + 1));
      i = end + 1;
    } else if (ch === '.' || ch === '[' || ch === ']') {
      out.push(ch);
      i++;
    } else {
      let end = i;
      while (end < path.length && !'.[]'.includes(path[end] as string)) end++;
      out.push(path.slice(i, end));
      i = end;
    }
  }
  return out;
}

const ESCAPES: Readonly<Record<string, string>> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', "'": "'", '\\': '\\' };

function unescape(quoted: string): string | { error: string } {
  let failed: string | undefined;
  const text = quoted.replace(/\\./g, (match) => {
    const replacement = ESCAPES[match[1] as string];
    if (replacement === undefined) failed ??= `invalid string literal: invalid escape char ${match}`;
    return replacement ?? '';
  });
  return failed ? { error: failed } : text;
}

/** The normalized path, or why it is not a valid path for `node`. */
export function normalizeFieldPath(jsonPath: string, node: SchemaNode): string | { error: string } {
  let schema: SchemaNode | undefined = node;
  let path = '';
  const parts = tokens(jsonPath);
  const step = (name: string): string | undefined => {
    if (!schema) return 'does not refer to a valid field';
    if (schema.properties.size > 0) {
      const property = schema.properties.get(name);
      if (!property) return 'does not refer to a valid field';
      path = path ? `${path}.${name}` : name;
      schema = property;
      return undefined;
    }
    if (typeof schema.additionalProperties === 'object') {
      path = `${path}[${name}]`;
      schema = schema.additionalProperties;
      return undefined;
    }
    return 'does not refer to a valid field';
  };
  for (let i = 0; i < parts.length; i++) {
    const token = parts[i] as string;
    if (token === '[') {
      const quoted = parts[++i];
      if (quoted === undefined) return { error: 'unexpected end of JSON path' };
      if (quoted.length < 2 || !quoted.startsWith("'") || !quoted.endsWith("'")) return { error: `expected single quoted string but got ${quoted}` };
      const name = unescape(quoted.slice(1, -1));
      if (typeof name !== 'string') return name;
      const failure = step(name);
      if (failure) return { error: failure };
      const close = parts[++i];
      if (close === undefined) return { error: 'unexpected end of JSON path' };
      if (close !== ']') return { error: `expected ] but got ${close}` };
    } else if (token === '.') {
      const name = parts[++i];
      if (name === undefined) return { error: 'unexpected end of JSON path' };
      const failure = step(name);
      if (failure) return { error: failure };
    } else {
      return { error: `expected [ or . but got: ${token}` };
    }
  }
  return path;
}
